import type { Chunk, LexicalRanking } from '../core/types.js';
import { queryTerms } from '../lexical/analyze.js';
import { isStopWord } from '../lexical/stop-words.js';
import { buildSegment, scoreBm25f } from '../store/passage-scoring.js';

/**
 * Documents a term is assumed absent from beyond the passages scored: the passages of a web
 * search all match the query somewhat, so a word they all share still matters.
 */
const BACKGROUND_DOCS = 1000;

/**
 * How fully each passage matches the query, in [0, 1): for every query term, BM25F's saturated
 * field-weighted count (0 when absent, towards 1 the more and the better placed — title,
 * headings, API names — it occurs), averaged with each term weighted by its IDF against the
 * passages plus a background of absent documents. Unlike a raw BM25 score it hardly depends on
 * how many passages are scored (their average length still normalises each one's), so a
 * threshold means about the same on every query.
 */
export function lexicalCoverage(query: string, chunks: readonly Chunk[], ranking: LexicalRanking): number[] {
  const coverage = new Array<number>(chunks.length).fill(0);
  const terms = queryTerms(query, isStopWord, ranking.quotedWeight);
  if (terms.length === 0 || chunks.length === 0) return coverage;
  const segment = buildSegment(chunks.map((chunk, rowId) => ({ rowId, chunk })));
  const unweighted: LexicalRanking = { ...ranking, linkPrior: 0, pagePrior: 0 };
  const total = segment.docs.count;
  let weightSum = 0;
  for (const { term, weight } of terms) {
    const df = segment.postings(term)?.docs.length ?? 0;
    const background = weight * Math.log(1 + (total + BACKGROUND_DOCS - df + 0.5) / (df + 0.5));
    weightSum += background;
    if (df === 0) continue;
    // Scored alone with weight 1, a term's score is its segment IDF times its saturation.
    const segmentIdf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
    for (const { ordinal, score } of scoreBm25f(segment, [{ term, weight: 1 }], unweighted, total)) {
      const rowId = segment.docs.rowIds[ordinal] as number;
      coverage[rowId] = (coverage[rowId] as number) + background * (score / segmentIdf);
    }
  }
  return weightSum === 0 ? coverage : coverage.map((value) => value / weightSum);
}
