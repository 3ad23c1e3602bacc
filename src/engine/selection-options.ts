import type { CitedocsConfig } from '../core/config.js';
import type { Candidate } from '../core/types.js';
import { adjustedScore } from '../select/score-adjust.js';
import type { SelectOptions } from '../select/selector.js';
import { passageSimilarity } from '../select/similarity.js';
import type { Store } from '../store/store.js';
import { isStopWord } from '../lexical/stop-words.js';
import type { Tokenizer } from '../core/types.js';
import { codeTerms, queryTerms } from '../lexical/analyze.js';
import { trimPassage } from '../select/trim.js';

/**
 * How the best passage is cut when it does not fit the budget: around its blocks that hold the
 * most of the question's terms, counted as the index counts them.
 */
export function passageTrimmer(question: string, tokenizer: Tokenizer): NonNullable<SelectOptions['trim']> {
  const terms = queryTerms(question, isStopWord).map((term) => term.term);
  const relevance = (text: string) => {
    const present = new Set(codeTerms(text));
    return terms.reduce((count, term) => count + (present.has(term) ? 1 : 0), 0);
  };
  return (candidate, maxTokens) => {
    const chunk = trimPassage(candidate.chunk, maxTokens, tokenizer, relevance);
    return chunk === undefined ? undefined : { ...candidate, chunk };
  };
}

/** How the index's candidates are selected: budget, cap, threshold, near-duplicates, domain weights and freshness. */
export async function selectionOptions(
  config: CitedocsConfig,
  store: Store,
  now: Date,
  request: { candidates: readonly Candidate[]; limit: number; maxTokens: number; maxPages: number | undefined; order: (candidate: Candidate) => number; trim?: SelectOptions['trim'] },
): Promise<SelectOptions> {
  const { select } = config;
  const vectors = await store.vectors.vectorsOf(request.candidates.map((candidate) => candidate.chunk.id));
  // Page dates are read only when freshness counts, for the candidates' pages, before selection runs.
  const pages = new Map<string, string | undefined>();
  if (select.freshness.weight > 0) {
    for (const url of new Set(request.candidates.map((candidate) => candidate.chunk.pageUrl))) pages.set(url, (await store.getPage(url))?.lastModified);
  }
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
      lastModified: (url) => pages.get(url),
    }),
    ...(maxSelectedPages === undefined ? {} : { maxSelectedPages }),
    ...(request.trim === undefined ? {} : { trim: request.trim }),
    ...(select.scoreThreshold === undefined ? {} : { scoreThreshold: select.scoreThreshold }),
  };
}
