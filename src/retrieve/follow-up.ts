import { stemmer } from 'stemmer';
import { keywords } from '../lexical/keywords.js';
import type { Candidate } from '../core/types.js';

/**
 * Question terms that none of the top candidates contains (compared by stem): the part of
 * the question the first round did not cover, and what a follow-up query should look for.
 * Words are compared by their Porter stem, not by the index's terms: with the index's terms
 * (compound names split, mixed-case words kept whole) follow-up retrieval did worse on Python
 * dev (page hit@10 0.792 → 0.782) and SciFact (nDCG@10 0.6740 → 0.6738), so it keeps this.
 */
export function unsupportedTerms(question: string, top: readonly Candidate[]): string[] {
  const terms = keywords(question);
  if (terms.length < 2 || top.length === 0) return [];
  const present = new Set<string>();
  for (const { chunk } of top) {
    for (const word of `${chunk.pageTitle} ${chunk.headingPath.join(' ')} ${chunk.text}`.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) present.add(stemmer(word));
  }
  const missing = terms.filter((term) => !present.has(stemmer(term)));
  // Every term missing means nothing matched well: a follow-up would only repeat the query.
  return missing.length === terms.length ? [] : missing;
}
