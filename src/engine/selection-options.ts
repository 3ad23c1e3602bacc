import type { CitedocsConfig } from '../core/config.js';
import type { Candidate } from '../core/types.js';
import { adjustedScore } from '../select/score-adjust.js';
import type { SelectOptions } from '../select/selector.js';
import { passageSimilarity } from '../select/similarity.js';
import type { Store } from '../store/store.js';

/** How the index's candidates are selected: budget, cap, threshold, near-duplicates, domain weights and freshness. */
export function selectionOptions(
  config: CitedocsConfig,
  store: Store,
  now: Date,
  request: { candidates: readonly Candidate[]; limit: number; maxTokens: number; maxPages: number | undefined; order: (candidate: Candidate) => number },
): SelectOptions {
  const { select } = config;
  const vectors = store.vectors.vectorsOf(request.candidates.map((candidate) => candidate.chunk.id));
  const pages = new Map<string, string | undefined>();
  const maxSelectedPages = request.maxPages ?? select.maxSelectedPages;
  return {
    limit: request.limit,
    maxTotalTokens: request.maxTokens,
    similarityThreshold: select.similarityThreshold,
    similarity: passageSimilarity(vectors),
    score: adjustedScore(request.order, {
      domainWeights: select.domainWeights,
      freshness: select.freshness,
      now,
      lastModified: (url) => {
        if (!pages.has(url)) pages.set(url, store.getPage(url)?.lastModified);
        return pages.get(url);
      },
    }),
    ...(maxSelectedPages === undefined ? {} : { maxSelectedPages }),
    ...(select.scoreThreshold === undefined ? {} : { scoreThreshold: select.scoreThreshold }),
  };
}
