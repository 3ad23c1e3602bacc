import type { Diagnostic } from '../core/diagnostics.js';
import type { Usage } from './usage.js';
import type { ScoringMethod } from '../rank/page-relevance.js';
import type { PageDropReason } from '../select/page-selector.js';
import type { SafeSearch, SearchHit } from '../sources/web/search-backend.js';

export interface WebOptions {
  /** Token budget of the whole output (default web.maxTotalTokens). */
  maxTokens?: number;
  /** Search results examined at most (default web.maxPages). */
  maxPages?: number;
  /** Pages returned at most (default web.maxSelectedPages). */
  maxSelectedPages?: number;
  searchUrl?: string;
  region?: string;
  safeSearch?: SafeSearch;
  /** Fetch results on private addresses (tests on 127.0.0.1). The HTTP server never sets it. */
  allowPrivateHosts?: boolean;
  /** Use (and fill) the cache; default web.cache.enabled. */
  cache?: boolean;
  /** Also store the selected pages in the index, so `ask` and `search` find them. */
  save?: boolean;
  signal?: AbortSignal;
}

export interface WebResult {
  /** The page's URL after redirects. */
  url: string;
  title: string;
  /** The search engine's snippet. */
  snippet: string;
  /** What selection ordered by: relevance × domain weight × freshness. */
  score: number;
  /** Tokens of `text`, with the target tokenizer. */
  tokenCount: number;
  /** The page's rank in the search results. */
  rank: number;
  /** How well the page answers the query, in [0, 1]: its best fragment's score. */
  relevance: number;
  /** Why it was selected, and whole or as its best sections. */
  why: string;
  /** The Markdown to give an LLM: the whole page's main content, or its best sections. */
  text: string;
  /** URL#anchor of each section kept, when only the best sections fit. */
  sections?: string[];
  lastModified?: string;
}

export interface WebDropped {
  url: string;
  reason: PageDropReason | 'fetch' | 'robots' | 'refused' | 'empty';
  message?: string;
  score?: number;
  duplicateOf?: string;
  similarity?: number;
}

export interface WebResponse {
  /** The selection, best first. */
  results: WebResult[];
  /** Every search result, in rank order. */
  searched: SearchHit[];
  warnings: string[];
  /** The warnings as data: a stable code, the stage it comes from, the message (the same as in `warnings`). */
  diagnostics: Diagnostic[];
  /** The LLM and embedding calls the lookup made (page scoring): tokens and time. */
  usage: Usage;
  /** Every examined result that was not selected, with why. */
  dropped: WebDropped[];
  /** Tokens of the Markdown output (each result's header and text): never over `maxTokens`. */
  totalTokens: number;
  maxTokens: number;
  scoring: ScoringMethod;
  /** Network requests made: 0 and 0 when everything came from the cache. */
  requests: { search: number; pages: number };
  /** With `save`: what was stored in the index. */
  saved?: { pages: number; chunks: number; dbPath: string };
}
