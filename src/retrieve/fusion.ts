import type { Candidate, Chunk, ScoreTrace } from '../core/types.js';
import { round } from '../core/round.js';

export type Retriever = 'bm25' | 'dense';

/** One ranked list: what one retriever found for one query variant (technique). */
export interface RankedList {
  retriever: Retriever;
  /** original, prf, hyde, expansion, follow-up */
  technique: string;
  /** The technique's weight (original 1.0, HyDE 0.8, …). */
  weight: number;
  /** The query text or terms that produced it, for the explain trace. */
  query: string;
  /** `why`: how the retriever arrived at the score (BM25F's field shares), for the explain trace. */
  hits: { chunk: Chunk; score: number; why?: string }[];
  /** Set on lists of a follow-up round. */
  followUp?: boolean;
}

export interface FusionOptions {
  /** `rrf`: Σ w / (k + rank). `weighted`: Σ w × min-max normalised score (robust to a weak ranker). */
  method: 'rrf' | 'weighted';
  rrfK: number;
  /** How much each retriever counts in the fused score. */
  retrieverWeights: Record<Retriever, number>;
}

interface Contribution {
  value: number;
  trace: ScoreTrace;
  list: RankedList;
  raw: number;
}

/**
 * Merges ranked lists into one: per chunk and retriever the best weighted contribution of any
 * technique counts (a chunk found by three variants is not counted three times), and the
 * retrievers' contributions add up. Every candidate keeps each list's rank and score.
 */
export function fuseLists(lists: readonly RankedList[], options: FusionOptions): Candidate[] {
  const byChunk = new Map<string, { chunk: Chunk; best: Map<Retriever, Contribution>; own: number; support: number; trace: ScoreTrace[]; initial: boolean; followUpQuery?: string }>();
  for (const list of lists) {
    const normalise = minMax(list.hits.map((hit) => hit.score));
    list.hits.forEach((hit, index) => {
      const rank = index + 1;
      const base = options.method === 'rrf' ? 1 / (options.rrfK + rank) : normalise(hit.score);
      const value = base * list.weight * options.retrieverWeights[list.retriever];
      const trace: ScoreTrace = {
        technique: `${list.retriever}:${list.technique}`,
        rank,
        score: round(hit.score),
        detail: `${list.followUp === true ? 'follow-up ' : ''}query "${list.query}", weight ${list.weight}, contributes ${round(value)}${hit.why === undefined ? '' : `; ${hit.why}`}`,
      };
      let entry = byChunk.get(hit.chunk.id);
      if (entry === undefined) {
        entry = { chunk: hit.chunk, best: new Map(), own: 0, support: 0, trace: [], initial: false };
        byChunk.set(hit.chunk.id, entry);
      }
      entry.trace.push(trace);
      entry.support += value;
      if (list.technique === 'original') entry.own += value;
      if (list.followUp === true) entry.followUpQuery ??= list.query;
      else entry.initial = true;
      const current = entry.best.get(list.retriever);
      if (current === undefined || value > current.value) entry.best.set(list.retriever, { value, trace, list, raw: hit.score });
    });
  }
  const candidates: Candidate[] = [];
  const tieBreak = new Map<string, { own: number; support: number }>();
  for (const { chunk, best, own, support, trace, initial, followUpQuery } of byChunk.values()) {
    tieBreak.set(chunk.id, { own, support });
    let fused = 0;
    for (const contribution of best.values()) fused += contribution.value;
    const bm25 = best.get('bm25');
    const dense = best.get('dense');
    const techniques = [...new Set(trace.map((entry) => entry.technique))];
    candidates.push({
      chunk,
      scores: { fused, ...(bm25 === undefined ? {} : { bm25: bm25.raw }), ...(dense === undefined ? {} : { dense: dense.raw }) },
      techniques,
      trace: [...trace, { technique: 'fused', rank: 0, score: round(fused), detail: options.method === 'rrf' ? `reciprocal rank fusion, k ${options.rrfK}` : 'weighted sum of min-max normalised scores' }],
      // Found only by a follow-up query: say which one.
      ...(!initial && followUpQuery !== undefined ? { retrievalType: 'follow-up' as const, followUpQuery } : {}),
    });
  }
  // Ties on the fused score are common at the top: each list's best hit counts its full weight.
  // The tie goes to the chunk the question's own words rank higher (its `original` lists), then
  // to the one every list together supports more, and only then to the chunk id.
  const own = (candidate: Candidate) => tieBreak.get(candidate.chunk.id)?.own ?? 0;
  const support = (candidate: Candidate) => tieBreak.get(candidate.chunk.id)?.support ?? 0;
  candidates.sort((a, b) => b.scores.fused - a.scores.fused || own(b) - own(a) || support(b) - support(a) || a.chunk.id.localeCompare(b.chunk.id));
  candidates.forEach((candidate, index) => {
    const fusedTrace = candidate.trace[candidate.trace.length - 1];
    if (fusedTrace === undefined) return;
    fusedTrace.rank = index + 1;
    // A tie says what broke it, so the explain output shows why the order is what it is.
    const tied = [candidates[index - 1], candidates[index + 1]].some((other) => other !== undefined && other.scores.fused === candidate.scores.fused);
    if (tied) fusedTrace.detail = `${fusedTrace.detail ?? ''}; tied, ordered by the question's own lists (${round(own(candidate))}), then all lists together (${round(support(candidate))})`;
  });
  return candidates;
}

function minMax(scores: readonly number[]): (score: number) => number {
  if (scores.length === 0) return () => 0;
  const high = Math.max(...scores);
  const low = Math.min(...scores);
  // A list of one, or of equal scores, says only "found": full weight.
  return high === low ? () => 1 : (score) => (score - low) / (high - low);
}

