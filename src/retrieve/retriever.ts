import type { Candidate } from '../core/types.js';
import type { TextIndex, TextQuery } from '../core/types.js';
import { queryTerms } from '../core/query-terms.js';

export interface RetrieveOptions {
  topK: number;
  fieldWeights: TextQuery['fieldWeights'];
}

/** BM25 over the chunk index (title, heading path, text fields), best first, with its trace. */
export function retrieveLexical(index: TextIndex, question: string, options: RetrieveOptions): Candidate[] {
  const terms = queryTerms(question);
  const hits = index.searchText({ terms, limit: options.topK, fieldWeights: options.fieldWeights });
  return hits.map((hit, index) => ({
    chunk: hit.chunk,
    scores: { bm25: hit.bm25, fused: hit.bm25 },
    techniques: ['bm25'],
    trace: [{ technique: 'bm25', rank: index + 1, score: hit.bm25, detail: `terms: ${terms.join(' ')}` }],
  }));
}
