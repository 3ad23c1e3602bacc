import { dot } from '../core/vectors.js';
import type { Candidate } from '../core/types.js';

/**
 * How alike two passages are, in [0, 1]: the cosine of their vectors when both have one (the
 * index's embedder), otherwise the overlap of their words (Jaccard), so near-duplicates are
 * caught with no embedder too.
 */
export function passageSimilarity(vectors: ReadonlyMap<string, Float32Array>): (a: Candidate, b: Candidate) => number {
  const words = new Map<string, Set<string>>();
  const wordsOf = (candidate: Candidate) => {
    let set = words.get(candidate.chunk.id);
    if (set === undefined) {
      set = new Set((candidate.chunk.text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []));
      words.set(candidate.chunk.id, set);
    }
    return set;
  };
  return (a, b) => {
    const left = vectors.get(a.chunk.id);
    const right = vectors.get(b.chunk.id);
    if (left !== undefined && right !== undefined) return Math.max(0, dot(left, right));
    return jaccard(wordsOf(a), wordsOf(b));
  };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}
