import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import type { Candidate } from '../core/types.js';
import { fusedOrder } from './fused-order.js';
import { byFusedScore, clamp01, RerankError, type Reranker, type RerankRequest, type RerankResult, round } from './reranker.js';

/**
 * When to trust a reranker, and how its judgement combines with retrieval. Every field comes
 * resolved from the configuration (`rerank.*` in core/config.ts, where the defaults live).
 *
 * Rank-aware blending (`protectTopK`, `maxDemotion`): a candidate whose retrieval rank r
 * (1-based position in fused-score order, ties by chunk id) is at most `protectTopK` ends at a
 * final position of at most r + `maxDemotion`. It may rise freely. The final order is built
 * position by position: a protected candidate whose limit is the current position takes it
 * when it has not been placed yet; otherwise the next candidate in the reranked order does.
 * So the reranker's order is kept except where it would bury a strong retrieval hit, and
 * only that hit moves. With `maxDemotion` 0 the top k keep at least their retrieval position.
 */
export interface RerankPolicy {
  /** Fewer candidates than this are kept in fused-score order without asking the reranker. */
  minCandidatesForAssessment: number;
  /**
   * Hybrid final score, in [0, 1]: retrievalWeight × min-max normalised fused score +
   * (1 − retrievalWeight) × rerank score, for judged candidates; unjudged ones follow them in
   * the reranker's order. Unset: the reranker's order.
   */
  retrievalWeight?: number;
  /** How many of the best retrieval hits rank-aware blending protects; 0: none. */
  protectTopK: number;
  /** How many places a protected hit may drop below its retrieval rank. */
  maxDemotion: number;
  /** When every judged score is below relevanceThreshold, this many best by fused score are kept. */
  topOnNoneRelevant: number;
  /** A rerank score at or above this counts as relevant. */
  relevanceThreshold: number;
}

/** Which path the policy took: only `reranked` used the reranker's order. */
export type RerankOutcome = 'reranked' | 'too-few-candidates' | 'reranker-failed' | 'none-relevant';

export interface PolicyResult {
  candidates: Candidate[];
  /** Each fallback taken (reranker failed, none relevant) and the reranker's own notes, as diagnostics. */
  diagnostics: Diagnostic[];
  outcome: RerankOutcome;
}

export const FALLBACK_TECHNIQUE = 'rerank:fallback';

/**
 * Reranks under the policy. Fallbacks, each also traced as `rerank:fallback` on every
 * candidate: fewer candidates than the minimum → fused-score order (a trace note, not a
 * warning); the reranker fails → fused-score order with a warning naming it and the error;
 * every judged score below the threshold → the `topOnNoneRelevant` best by fused score, with
 * a warning. Aborting rejects: it is the caller's decision, not a failure to fall back from.
 */
export async function rerankWithPolicy(reranker: Reranker, request: RerankRequest, settings: RerankPolicy): Promise<PolicyResult> {
  const { candidates, abortSignal } = request;
  abortSignal?.throwIfAborted();

  if (candidates.length < settings.minCandidatesForAssessment) {
    const kept = fusedOrder(candidates).candidates;
    const note = `${candidates.length} candidate${candidates.length === 1 ? '' : 's'}, fewer than minCandidatesForAssessment ${settings.minCandidatesForAssessment}: fused-score order kept, ${reranker.name} not asked`;
    return { candidates: traceFallback(kept, note), diagnostics: [], outcome: 'too-few-candidates' };
  }

  let result: RerankResult;
  try {
    result = await reranker.rerank(request);
    checkSameCandidates(candidates, result.candidates, reranker.name);
  } catch (error) {
    if (abortSignal?.aborted === true) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const kept = fusedOrder(candidates).candidates;
    return {
      candidates: traceFallback(kept, `${reranker.name} failed, fused-score order kept: ${reason}`),
      diagnostics: [diagnostic('rank.reranker-failed', `Reranking with ${reranker.name} failed, so the fused-score order was kept: ${reason}`)],
      outcome: 'reranker-failed',
    };
  }

  const judged = result.candidates.flatMap((candidate) => (candidate.scores.rerank === undefined ? [] : [candidate.scores.rerank]));
  if (judged.length > 0 && judged.every((score) => score < settings.relevanceThreshold)) {
    const count = Math.max(0, Math.floor(settings.topOnNoneRelevant));
    const kept = [...result.candidates].sort(byFusedScore).slice(0, count);
    const what = `${reranker.name} judged none of ${result.candidates.length} candidates relevant (best ${round(Math.max(...judged))} < relevanceThreshold ${settings.relevanceThreshold})`;
    return {
      candidates: traceFallback(kept, `${what}: kept the ${count} best by fused score`),
      diagnostics: [...partial(result), diagnostic('rank.none-relevant', `${what}, so the ${kept.length} best by fused score were kept.`)],
      outcome: 'none-relevant',
    };
  }

  let ordered = result.candidates;
  if (settings.retrievalWeight !== undefined) ordered = hybridOrder(ordered, clamp01(settings.retrievalWeight));
  if (settings.protectTopK > 0) {
    ordered = protectRetrievalHits(ordered, Math.floor(settings.protectTopK), Math.max(0, Math.floor(settings.maxDemotion)), reranker.name);
  }
  return { candidates: ordered, diagnostics: partial(result), outcome: 'reranked' };
}

/** A reranker's own notes (which candidates it could not judge) as diagnostics. */
function partial(result: RerankResult): Diagnostic[] {
  return result.warnings.map((warning) => diagnostic('rank.partial', warning));
}

function traceFallback(candidates: Candidate[], detail: string): Candidate[] {
  candidates.forEach((candidate, index) => candidate.trace.push({ technique: FALLBACK_TECHNIQUE, rank: index + 1, score: round(candidate.scores.fused), detail }));
  return candidates;
}

/** A reranker that loses, adds or repeats a candidate is broken: its order is not used. */
function checkSameCandidates(input: readonly Candidate[], output: readonly Candidate[], name: string): void {
  const counts = new Map<string, number>();
  for (const candidate of input) counts.set(candidate.chunk.id, (counts.get(candidate.chunk.id) ?? 0) + 1);
  for (const candidate of output) counts.set(candidate.chunk.id, (counts.get(candidate.chunk.id) ?? 0) - 1);
  if (output.length !== input.length || [...counts.values()].some((count) => count !== 0)) {
    throw new RerankError(`The reranker ${name} returned ${output.length} candidates for ${input.length} given, not each of them once.`, name);
  }
}

/** Judged candidates by the hybrid score (ties: fused order), then the unjudged in the reranker's order. */
export function hybridOrder(candidates: readonly Candidate[], retrievalWeight: number): Candidate[] {
  const fused = candidates.map((candidate) => candidate.scores.fused);
  const high = Math.max(...fused);
  const low = Math.min(...fused);
  // All equal: retrieval cannot tell them apart, so it counts fully for each.
  const normalised = (value: number): number => (high === low ? 1 : (value - low) / (high - low));
  const final = new Map<Candidate, number>();
  for (const candidate of candidates) {
    const { rerank } = candidate.scores;
    if (rerank !== undefined) final.set(candidate, retrievalWeight * normalised(candidate.scores.fused) + (1 - retrievalWeight) * rerank);
  }
  const judged = candidates.filter((candidate) => final.has(candidate)).sort((a, b) => (final.get(b) ?? 0) - (final.get(a) ?? 0) || byFusedScore(a, b));
  const ordered = [...judged, ...candidates.filter((candidate) => !final.has(candidate))];
  ordered.forEach((candidate, index) => {
    const score = final.get(candidate);
    const retrieval = round(normalised(candidate.scores.fused));
    candidate.trace.push({
      technique: 'rerank:hybrid',
      rank: index + 1,
      score: round(score ?? candidate.scores.fused),
      detail:
        score === undefined || candidate.scores.rerank === undefined
          ? 'not judged: follows the judged candidates'
          : `${round(retrievalWeight)} × retrieval ${retrieval} + ${round(1 - retrievalWeight)} × rerank ${round(candidate.scores.rerank)}`,
    });
  });
  return ordered;
}

/** Rank-aware blending, as RerankPolicy describes it: a top-k retrieval hit drops at most `maxDemotion` places below its retrieval rank. */
export function protectRetrievalHits(candidates: readonly Candidate[], protectTopK: number, maxDemotion: number, name = 'reranker'): Candidate[] {
  const retrievalRank = new Map([...candidates].sort(byFusedScore).map((candidate, index) => [candidate, index + 1]));
  const limit = (candidate: Candidate): number => {
    const rank = retrievalRank.get(candidate) ?? Number.POSITIVE_INFINITY;
    return rank <= protectTopK ? rank + maxDemotion : Number.POSITIVE_INFINITY;
  };
  const proposed = new Map(candidates.map((candidate, index) => [candidate, index + 1]));
  const remaining = [...candidates];
  const ordered: Candidate[] = [];
  for (let position = 1; remaining.length > 0; position += 1) {
    // Limits are distinct (distinct ranks + the same demotion), and each is met when reached: at most one is due.
    const due = remaining.findIndex((candidate) => limit(candidate) <= position);
    const [next] = remaining.splice(Math.max(0, due), 1);
    if (next === undefined) break;
    ordered.push(next);
    if (due > 0) {
      next.trace.push({
        technique: 'rerank:protected',
        rank: position,
        score: round(next.scores.rerank ?? next.scores.fused),
        detail: `retrieval rank ${retrievalRank.get(next) ?? '?'} is protected (protectTopK ${protectTopK}, maxDemotion ${maxDemotion}): ${name} put it at ${proposed.get(next) ?? '?'}, kept at ${position}`,
      });
    }
  }
  return ordered;
}
