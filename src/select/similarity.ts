import { dot } from '../core/vectors.js';
import type { Candidate } from '../core/types.js';
import { definedNames } from '../lexical/defined-names.js';

/**
 * How alike two passages are, in [0, 1]. Near-duplicates share most of their words: for
 * passages that do (word overlap, Jaccard, at least MIN_SHARED_WORDS) it is the cosine of
 * their vectors when both have one, else the overlap; for passages that do not, the overlap.
 * A sentence embedding alone puts distinct API entries (`str.lower`, `str.casefold`) above
 * 0.9; they are not duplicates. Nor are two entries that define different names, however alike
 * their words: Haddock's `eitherDecode` and `eitherDecode'` share their description, and one of
 * them is strict. (Overloads of one name may be.)
 */
const MIN_SHARED_WORDS = 0.5;

export function passageSimilarity(vectors: ReadonlyMap<string, Float32Array>): (a: Candidate, b: Candidate) => number {
  const words = new Map<string, Set<string>>();
  const wordsOf = (candidate: Candidate) => {
    let set = words.get(candidate.chunk.id);
    if (set === undefined) {
      set = wordSet(candidate.chunk.text);
      words.set(candidate.chunk.id, set);
    }
    return set;
  };
  const names = new Map<string, string[]>();
  const namesOf = (candidate: Candidate) => {
    let defined = names.get(candidate.chunk.id);
    if (defined === undefined) {
      defined = definedNames(candidate.chunk);
      names.set(candidate.chunk.id, defined);
    }
    return defined;
  };
  return (a, b) => {
    if (defineOtherNames(namesOf(a), namesOf(b))) return 0;
    const overlap = jaccard(wordsOf(a), wordsOf(b));
    if (overlap < MIN_SHARED_WORDS) return overlap;
    const left = vectors.get(a.chunk.id);
    const right = vectors.get(b.chunk.id);
    return left !== undefined && right !== undefined ? Math.max(0, dot(left, right)) : overlap;
  };
}

/** Both passages define an API, and no name one defines is a name the other does. */
function defineOtherNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length > 0 && b.length > 0 && !a.some((name) => b.includes(name));
}

/** The distinct words of a text (three characters or more, lower-cased): what near-duplicates share. */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []);
}

/** Shared words over all words of the two sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}
