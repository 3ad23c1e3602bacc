import { indexForm, wordTerms } from '../lexical/analyze.js';
import { keywords } from '../lexical/keywords.js';
import type { Candidate } from '../core/types.js';

/**
 * Question words that none of the top candidates contains (compared as the index reads them): the part of
 * the question the first round did not cover, and what a follow-up query should look for.
 */
export function unsupportedTerms(question: string, top: readonly Candidate[]): string[] {
  const terms = keywords(question);
  if (terms.length < 2 || top.length === 0) return [];
  const present = new Set<string>();
  for (const { chunk } of top) {
    for (const term of wordTerms(`${chunk.pageTitle} ${chunk.headingPath.join(' ')} ${chunk.text}`)) present.add(term);
  }
  const missing = terms.filter((term) => !present.has(indexForm(term)));
  // Every term missing means nothing matched well: a follow-up would only repeat the query.
  return missing.length === terms.length ? [] : missing;
}
