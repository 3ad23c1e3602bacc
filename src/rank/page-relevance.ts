import type { Candidate, Chunk, LexicalRanking } from '../core/types.js';
import { dot } from '../core/vectors.js';
import type { Embedder } from '../embed/embedder.js';
import { embeddingInput } from '../embed/embedding-input.js';
import { lexicalCoverage } from './coverage.js';
import type { Reranker } from './reranker.js';

/** A page to judge: its passages (fragments) in reading order. */
export interface PageToScore {
  url: string;
  chunks: readonly Chunk[];
}

export interface ScoredPage {
  url: string;
  /** Relevance in [0, 1]: the best fragment's. */
  score: number;
  /** Each fragment's relevance, in the order of `chunks`. */
  fragmentScores: number[];
}

export type ScoringMethod = 'lexical' | 'hybrid' | 'llm-pointwise';

export interface PageScoringOptions {
  ranking: LexicalRanking;
  /** Dense similarity joins the lexical coverage when given: (lexicalWeight·coverage + denseWeight·cosine) / sum. */
  embedder?: Embedder;
  lexicalWeight: number;
  denseWeight: number;
  /** A pointwise LLM judge: a fragment's score is the model's; a page's is its best fragment's. */
  reranker?: Reranker;
  /** Fragments per page the LLM judges (the best by lexical coverage). */
  fragmentsPerPage: number;
  signal?: AbortSignal;
}

/**
 * Scores each page against the query as its best fragment's relevance: by an LLM when one is
 * configured (falling back, with a warning, when it fails), else lexical coverage, joined by
 * dense similarity when an embedder is configured.
 */
export async function scorePages(query: string, pages: readonly PageToScore[], options: PageScoringOptions): Promise<{ pages: ScoredPage[]; method: ScoringMethod; warnings: string[] }> {
  const warnings: string[] = [];
  const chunks = pages.flatMap((page) => page.chunks);
  let scores = lexicalCoverage(query, chunks, options.ranking);
  let method: ScoringMethod = 'lexical';
  if (options.embedder !== undefined && chunks.length > 0) {
    try {
      const [queryVector] = await options.embedder.embed({ texts: [query], mode: 'query', ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
      const vectors = await options.embedder.embed({ texts: chunks.map((chunk) => embeddingInput(chunk)), mode: 'passage', ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
      const total = options.lexicalWeight + options.denseWeight;
      if (queryVector !== undefined && total > 0) {
        scores = scores.map((coverage, index) => {
          const vector = vectors[index];
          const cosine = vector === undefined ? 0 : Math.max(0, dot(queryVector, vector));
          return (options.lexicalWeight * coverage + options.denseWeight * cosine) / total;
        });
        method = 'hybrid';
      }
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      warnings.push(`The embedder ${options.embedder.modelId} failed (${error instanceof Error ? error.message : String(error)}); pages were scored lexically.`);
    }
  }
  if (options.reranker !== undefined && chunks.length > 0) {
    const judged = await judge(query, pages, scores, options.reranker, options, warnings);
    if (judged !== undefined) {
      scores = judged;
      method = 'llm-pointwise';
    }
  }
  let offset = 0;
  const scored = pages.map((page) => {
    const fragmentScores = scores.slice(offset, offset + page.chunks.length).map((score) => round(score));
    offset += page.chunks.length;
    return { url: page.url, score: fragmentScores.length === 0 ? 0 : Math.max(...fragmentScores), fragmentScores };
  });
  return { pages: scored, method, warnings };
}

/** The LLM's fragment scores (unjudged fragments: 0), or undefined when it judged none. */
async function judge(query: string, pages: readonly PageToScore[], lexical: readonly number[], reranker: Reranker, options: PageScoringOptions, warnings: string[]): Promise<number[] | undefined> {
  const candidates: Candidate[] = [];
  const positions = new Map<string, number>();
  let offset = 0;
  for (const page of pages) {
    const best = page.chunks
      .map((chunk, index) => ({ chunk, index: offset + index, score: lexical[offset + index] as number }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, options.fragmentsPerPage);
    for (const { chunk, index, score } of best) {
      positions.set(chunk.id, index);
      candidates.push({ chunk, scores: { fused: score }, techniques: ['web'], trace: [] });
    }
    offset += page.chunks.length;
  }
  try {
    const result = await reranker.rerank({ query, candidates, ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
    warnings.push(...result.warnings);
    const scores = new Array<number>(lexical.length).fill(0);
    let judged = 0;
    for (const candidate of result.candidates) {
      const index = positions.get(candidate.chunk.id);
      if (index === undefined || candidate.scores.rerank === undefined) continue;
      scores[index] = candidate.scores.rerank;
      judged += 1;
    }
    if (judged > 0) return scores;
    warnings.push(`${reranker.name} scored no fragment; pages were scored lexically.`);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    warnings.push(`${reranker.name} failed (${error instanceof Error ? error.message : String(error)}); pages were scored lexically.`);
  }
  return undefined;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
