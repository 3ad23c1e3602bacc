import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import { sha256 } from '../core/hash.js';
import type { Candidate, Chunk, LexicalRanking } from '../core/types.js';
import { dot } from '../core/vectors.js';
import type { Embedder } from '../embed/embedder.js';
import { embeddingInput } from '../embed/embedding-input.js';
import { lexicalCoverage } from './coverage.js';
import type { Reranker } from './reranker.js';
import { round } from '../core/round.js';

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
  /** Vectors kept across runs (by model, mode and text), so a repeated query calls no embedding API. */
  vectorCache?: { get(key: string): Float32Array | undefined; set(key: string, vector: Float32Array): void };
  signal?: AbortSignal;
}

/**
 * Scores each page against the query as its best fragment's relevance: by an LLM when one is
 * configured (falling back, with a warning, when it fails), else lexical coverage, joined by
 * dense similarity when an embedder is configured.
 */
export async function scorePages(query: string, pages: readonly PageToScore[], options: PageScoringOptions): Promise<{ pages: ScoredPage[]; method: ScoringMethod; diagnostics: Diagnostic[] }> {
  const warnings: Diagnostic[] = [];
  const chunks = pages.flatMap((page) => page.chunks);
  let scores = lexicalCoverage(query, chunks, options.ranking);
  let method: ScoringMethod = 'lexical';
  if (options.embedder !== undefined && chunks.length > 0) {
    try {
      const [queryVector] = await embedCached(options.embedder, [query], 'query', options);
      const vectors = await embedCached(options.embedder, chunks.map((chunk) => embeddingInput(chunk)), 'passage', options);
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
      warnings.push(diagnostic('rank.embedder-failed', `The embedder ${options.embedder.modelId} failed (${error instanceof Error ? error.message : String(error)}); pages were scored lexically.`));
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
  return { pages: scored, method, diagnostics: warnings };
}

/** The LLM's fragment scores (unjudged fragments: 0), or undefined when it judged none. */
async function judge(query: string, pages: readonly PageToScore[], lexical: readonly number[], reranker: Reranker, options: PageScoringOptions, warnings: Diagnostic[]): Promise<number[] | undefined> {
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
    warnings.push(...result.warnings.map((warning) => diagnostic('rank.partial', warning)));
    const scores = new Array<number>(lexical.length).fill(0);
    const judgedPages = new Set<string>();
    for (const candidate of result.candidates) {
      const index = positions.get(candidate.chunk.id);
      if (index === undefined || candidate.scores.rerank === undefined) continue;
      scores[index] = candidate.scores.rerank;
      judgedPages.add(candidate.chunk.pageUrl);
    }
    if (judgedPages.size > 0) {
      // A page the model gave no score (a reply that did not parse) keeps its lexical scores.
      let start = 0;
      const unjudged: string[] = [];
      for (const page of pages) {
        if (!judgedPages.has(page.url)) {
          for (let index = start; index < start + page.chunks.length; index += 1) scores[index] = lexical[index] as number;
          unjudged.push(page.url);
        }
        start += page.chunks.length;
      }
      if (unjudged.length > 0) warnings.push(diagnostic('rank.pages-unjudged', `${reranker.name} gave ${unjudged.length} page${unjudged.length === 1 ? '' : 's'} no score; ${unjudged.length === 1 ? 'it was' : 'they were'} scored lexically: ${unjudged.join(', ')}.`));
      return scores;
    }
    warnings.push(diagnostic('rank.pages-unjudged', `${reranker.name} scored no fragment; pages were scored lexically.`));
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    warnings.push(diagnostic('rank.pages-unjudged', `${reranker.name} failed (${error instanceof Error ? error.message : String(error)}); pages were scored lexically.`));
  }
  return undefined;
}

/** Vectors for the texts, from the cache where it has them; only the missing ones are embedded. */
async function embedCached(embedder: Embedder, texts: readonly string[], mode: 'query' | 'passage', options: PageScoringOptions): Promise<(Float32Array | undefined)[]> {
  const keys = texts.map((text) => sha256(`${embedder.modelId}\n${mode}\n${text}`));
  const vectors = keys.map((key) => options.vectorCache?.get(key));
  const missing = vectors.flatMap((vector, index) => (vector === undefined ? [index] : []));
  if (missing.length === 0) return vectors;
  const embedded = await embedder.embed({ texts: missing.map((index) => texts[index] as string), mode, ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
  missing.forEach((index, position) => {
    const vector = embedded[position];
    vectors[index] = vector;
    if (vector !== undefined) options.vectorCache?.set(keys[index] as string, vector);
  });
  return vectors;
}

