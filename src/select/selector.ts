import { chunkUrl, type Candidate, type DroppedCandidate, type Selection } from '../core/types.js';

export interface SelectOptions {
  /** Passages kept at most. */
  limit: number;
  /** Token budget of all kept passages together. */
  maxTotalTokens: number;
}

/**
 * Keeps candidates in score order while they fit: an exact duplicate of a kept passage is
 * skipped, a passage over the remaining budget is skipped (a smaller one after it may fit),
 * and selection stops at `limit`. The total never exceeds `maxTotalTokens`.
 */
export function selectCandidates(candidates: readonly Candidate[], options: SelectOptions): Selection {
  const kept: Candidate[] = [];
  const dropped: DroppedCandidate[] = [];
  const seenContent = new Set<string>();
  let totalTokens = 0;
  for (const candidate of candidates) {
    const url = chunkUrl(candidate.chunk);
    if (kept.length >= options.limit) {
      dropped.push({ reason: 'limit', url });
      continue;
    }
    if (seenContent.has(candidate.chunk.contentHash)) {
      dropped.push({ reason: 'duplicate', url });
      continue;
    }
    if (totalTokens + candidate.chunk.tokenCount > options.maxTotalTokens) {
      dropped.push({ reason: 'budget', url });
      continue;
    }
    kept.push(candidate);
    seenContent.add(candidate.chunk.contentHash);
    totalTokens += candidate.chunk.tokenCount;
  }
  return { candidates: kept, totalTokens, dropped };
}
