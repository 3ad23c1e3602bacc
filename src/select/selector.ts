import { chunkUrl, type Candidate, type DroppedCandidate, type Selection } from '../core/types.js';
import { round } from '../core/round.js';

export interface SelectOptions {
  /** Passages kept at most. */
  limit: number;
  /** Token budget of all kept passages together: never exceeded. */
  maxTotalTokens: number;
  /** Distinct pages the kept passages may come from; more passages of a kept page still fit. */
  maxSelectedPages?: number;
  /** Candidates scoring below this (the reranker's score when a model judged them, else the fused score) are dropped first. */
  scoreThreshold?: number;
  /** A passage at least this similar to a kept one is a near-duplicate (default 0.9). */
  similarityThreshold?: number;
  /** Similarity of two passages in [0, 1] (cosine of their vectors, or a lexical overlap). */
  similarity?: (a: Candidate, b: Candidate) => number;
  /** The score selection orders by; the fused retrieval score by default. */
  score?: (candidate: Candidate) => number;
  /**
   * Cuts a passage to at most `maxTokens` around its most relevant part (undefined: it cannot
   * be). Used for the best passage when it does not fit, so a budget never swaps it for a worse one.
   */
  trim?: (candidate: Candidate, maxTokens: number) => Candidate | undefined;
}

/**
 * Keeps the best candidates while they fit: in score order (ties by chunk id, so the input order
 * of equal scores does not matter), skipping a score under the threshold, an exact or near
 * duplicate of a kept passage, a second passage of a kept section (page#anchor: one result
 * per place), a passage of a page beyond the page cap, and a passage over the
 * remaining budget (a smaller one after it may fit), until `limit`. Every dropped candidate
 * says why. The total never exceeds `maxTotalTokens`.
 */
export function selectCandidates(candidates: readonly Candidate[], options: SelectOptions): Selection {
  const scoreOf = options.score ?? ((candidate: Candidate) => candidate.scores.fused);
  const similarityThreshold = options.similarityThreshold ?? 0.9;
  const ordered = candidates
    .map((candidate) => ({ candidate, score: scoreOf(candidate) }))
    .sort((a, b) => b.score - a.score || a.candidate.chunk.id.localeCompare(b.candidate.chunk.id));
  const kept: Candidate[] = [];
  const dropped: DroppedCandidate[] = [];
  const keptContent = new Map<string, string>();
  const keptUrls = new Set<string>();
  const keptPages = new Set<string>();
  let totalTokens = 0;
  for (const { candidate } of ordered) {
    const url = chunkUrl(candidate.chunk);
    const raw = candidate.scores.rerank ?? candidate.scores.fused;
    const drop = (entry: Omit<DroppedCandidate, 'url'>) => dropped.push({ url, ...entry, score: round(raw) });
    if (options.scoreThreshold !== undefined && raw < options.scoreThreshold) {
      drop({ reason: 'threshold' });
      continue;
    }
    if (kept.length >= options.limit) {
      drop({ reason: 'limit' });
      continue;
    }
    // One result per place: the best passage stands for its section (page#anchor); a reader
    // (or an agent paying for tokens) never gets the same link twice.
    if (keptUrls.has(url)) {
      drop({ reason: 'duplicate', duplicateOf: url });
      continue;
    }
    const twin = keptContent.get(candidate.chunk.contentHash);
    if (twin !== undefined) {
      drop({ reason: 'duplicate', duplicateOf: twin, similarity: 1 });
      continue;
    }
    const near = nearestKept(candidate, kept, options.similarity);
    if (near !== undefined && near.similarity >= similarityThreshold) {
      drop({ reason: 'duplicate', duplicateOf: chunkUrl(near.candidate.chunk), similarity: round(near.similarity) });
      continue;
    }
    if (options.maxSelectedPages !== undefined && !keptPages.has(candidate.chunk.pageUrl) && keptPages.size >= options.maxSelectedPages) {
      drop({ reason: 'cap' });
      continue;
    }
    let chosen = candidate;
    if (totalTokens + candidate.chunk.tokenCount > options.maxTotalTokens) {
      // Budgets never demote: the best passage is trimmed to fit rather than replaced by a worse one that fits.
      const trimmed = kept.length === 0 ? options.trim?.(candidate, options.maxTotalTokens - totalTokens) : undefined;
      if (trimmed === undefined) {
        drop({ reason: 'budget' });
        continue;
      }
      chosen = { ...trimmed, trimmed: true };
    }
    kept.push(chosen);
    keptContent.set(candidate.chunk.contentHash, url);
    keptUrls.add(url);
    keptPages.add(candidate.chunk.pageUrl);
    totalTokens += chosen.chunk.tokenCount;
  }
  return { candidates: kept, totalTokens, dropped };
}

function nearestKept(candidate: Candidate, kept: readonly Candidate[], similarity: SelectOptions['similarity']) {
  if (similarity === undefined) return undefined;
  let best: { candidate: Candidate; similarity: number } | undefined;
  for (const other of kept) {
    const value = similarity(candidate, other);
    if (best === undefined || value > best.similarity) best = { candidate: other, similarity: value };
  }
  return best;
}

