import { homedir } from 'node:os';
import { type Diagnostic, diagnostic, logDiagnostics, withWarnings } from '../core/diagnostics.js';
import { logger } from '../core/log.js';
import { join } from 'node:path';
import type { CitedocsConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { chunkUrl, type Chunk, type Page, type Tokenizer } from '../core/types.js';
import { DEFAULT_DOMAIN_WEIGHTS } from '../core/web-config.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm } from '../llm/llm.js';
import { createMemoryJudgementCache } from '../rank/judgement-cache.js';
import { createLlmPointwiseReranker } from '../rank/llm-pointwise.js';
import { scorePages } from '../rank/page-relevance.js';
import { selectPages } from '../select/page-selector.js';
import { pageFactor } from '../select/score-adjust.js';
import { jaccard, wordSet } from '../select/similarity.js';
import type { FetchLike } from '../core/http/send.js';
import { createDuckDuckGoBackend } from '../sources/web/duckduckgo.js';
import { fetchResultPages } from '../sources/web/fetch-results.js';
import { createGuardedFetch, type LookupFunction } from '../sources/web/host-guard.js';
import type { SearchBackend, SearchHit } from '../sources/web/search-backend.js';
import { openWebCache, type WebCache } from '../sources/web/web-cache.js';
import { type ExaminedPage, examine } from './web-examine.js';
import { sectionsText, webBlock } from './web-output.js';
import type { WebDropped, WebOptions, WebResponse, WebResult } from './web-types.js';
import { round } from '../core/round.js';

export interface WebDependencies {
  config: CitedocsConfig;
  tokenizer: () => Promise<Tokenizer>;
  llm: () => Llm | undefined;
  /** The configured embedder, when one is: dense similarity joins the lexical score. */
  embedder?: Embedder;
  /** Talks to the search endpoint (an operator's choice, so not guarded). */
  fetch?: FetchLike;
  /** Resolves the hosts of result pages (tests map made-up names to 127.0.0.1). */
  lookup?: LookupFunction;
  /** Another search engine behind the same contract, instead of DuckDuckGo's HTML endpoint. */
  searchBackend?: SearchBackend;
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  /** Stores pages in the index (`save`). */
  save?: (pages: { page: Page; chunks: Chunk[] }[]) => Promise<{ pages: number; chunks: number; dbPath: string }>;
}

type PageScores = Awaited<ReturnType<typeof scorePages>>;

/** What one `web` request gathers as it goes: its query, its notes, its counts, its cache. */
interface WebRun {
  text: string;
  options: WebOptions;
  dependencies: WebDependencies;
  maxTokens: number;
  warnings: Diagnostic[];
  dropped: WebDropped[];
  requests: { search: number; pages: number };
  cache: WebCache | undefined;
}

/**
 * Seed 000 end to end: search the web, fetch the results politely, extract and split each
 * page, score it by its best fragment, then keep the best pages (or their best sections) that
 * fit the token budget, without near-duplicates, official documentation preferred.
 */
export async function findWebDocs(query: string, options: WebOptions, dependencies: WebDependencies): Promise<Omit<WebResponse, 'usage'>> {
  const text = query.trim();
  if (text === '') throw new UsageError('The query is empty. Say what to look for, like: citedocs web "Array.prototype.flatMap"');
  const { config } = dependencies;
  const web = config.web;
  const cache = (options.cache ?? web.cache.enabled) ? openWebCache(web.cache.path ?? defaultCachePath(dependencies.env), web.cache) : undefined;
  const run: WebRun = { text, options, dependencies, maxTokens: options.maxTokens ?? web.maxTotalTokens, warnings: [], dropped: [], requests: { search: 0, pages: 0 }, cache };
  const { warnings, dropped, requests, maxTokens } = run;
  const allowPrivateHosts = options.allowPrivateHosts ?? web.allowPrivateHosts;
  const guarded = createGuardedFetch({ allowPrivateHosts, ...(dependencies.lookup === undefined ? {} : { lookup: dependencies.lookup }) });
  try {
    const searched = await search(text, options.maxPages ?? web.maxPages, options, dependencies, cache, requests, warnings);
    const fetched = await fetchPages(run, searched, guarded.fetch, allowPrivateHosts);
    options.signal?.throwIfAborted();
    const tokenizer = await dependencies.tokenizer();
    const examined = await examine(searched, fetched, config, tokenizer, dropped, dependencies.now);
    for (const drop of dropped) if (drop.reason === 'fetch' || drop.reason === 'refused') warnings.push(diagnostic('web.fetch-skipped', `Skipped ${drop.url}: ${drop.message ?? drop.reason}`));
    const scored = await scoreExamined(run, examined);
    const results = selectResults(run, examined, scored, tokenizer);
    const totalTokens = tokenizer.count(results.map((result, index) => webBlock(index + 1, result, result.text)).join('\n'));
    if (searched.length > 0 && results.length === 0) warnings.push(diagnostic('web.none-selected', noneSelectedWarning(dropped, maxTokens)));
    const saved = await save(run, examined, results);
    logDiagnostics(warnings);
    logger('web').info({ query: text, searched: searched.length, results: results.length, tokens: totalTokens, requests }, 'web documentation found');
    return { results, searched, ...withWarnings(warnings), dropped, totalTokens, maxTokens, scoring: scored.method, requests, ...(saved === undefined ? {} : { saved }) };
  } finally {
    await guarded.close();
    cache?.close();
  }
}

async function search(query: string, maxPages: number, options: WebOptions, dependencies: WebDependencies, cache: WebCache | undefined, requests: { search: number }, warnings: Diagnostic[]): Promise<SearchHit[]> {
  const web = dependencies.config.web;
  const backend = dependencies.searchBackend ?? createDuckDuckGoBackend({
    searchUrl: options.searchUrl ?? web.searchUrl,
    fetch: dependencies.fetch ?? fetch,
    userAgent: web.searchUserAgent,
    timeoutMs: web.timeoutMs,
    attempts: web.searchAttempts,
    backoffMs: web.searchBackoffMs,
    maxBackoffMs: 30_000,
  });
  const region = options.region ?? web.region;
  const safeSearch = options.safeSearch ?? web.safeSearch;
  const key = sha256(JSON.stringify({ backend: backend.name, endpoint: backend.endpoint, query, region, safeSearch, maxPages }));
  const stored = cache?.search(key);
  if (stored !== undefined) return stored;
  const outcome = await backend.search(query, { maxResults: maxPages, region, safeSearch, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  requests.search += outcome.requests;
  // The backend's notes are free text (a pluggable contract): each says the search stopped short.
  warnings.push(...outcome.warnings.map((warning) => diagnostic('web.search-incomplete', warning)));
  if (outcome.hits.length === 0) warnings.push(diagnostic('web.no-results', `The web search found nothing for "${query}".`));
  // A partial or empty answer may be the engine's bad moment: not remembered.
  else if (outcome.warnings.length === 0) cache?.putSearch(key, outcome.hits);
  return outcome.hits;
}

/** The result pages, fetched politely (robots.txt, per-host limits) through the guard, each request counted. */
function fetchPages(run: WebRun, searched: readonly SearchHit[], guardedFetch: FetchLike, allowPrivateHosts: boolean) {
  const { config } = run.dependencies;
  const { web } = config;
  const counted: FetchLike = (input, init) => {
    run.requests.pages += 1;
    return guardedFetch(input, init);
  };
  return fetchResultPages(searched.map((hit) => hit.url), {
    fetch: counted,
    userAgent: config.crawl.userAgent,
    timeoutMs: web.timeoutMs,
    maxBytes: web.maxPageBytes,
    maxRedirects: config.crawl.maxRedirects,
    retries: 0,
    retryBaseDelayMs: config.crawl.retryBaseDelayMs,
    maxRetryAfterMs: 5000,
    concurrency: web.concurrency,
    perHostConcurrency: web.perHostConcurrency,
    respectRobots: web.respectRobots,
    maxCrawlDelayMs: 5000,
    guarded: !allowPrivateHosts,
    ...(run.cache === undefined ? {} : { cache: run.cache }),
    ...(run.options.signal === undefined ? {} : { signal: run.options.signal }),
  });
}

/** Each page's relevance by its best fragment: lexical, with dense similarity and an LLM's judgement when configured. */
async function scoreExamined(run: WebRun, examined: readonly ExaminedPage[]): Promise<PageScores> {
  const { config } = run.dependencies;
  const { cache } = run;
  const llm = config.rerank.method === 'auto' || config.rerank.method === 'llm-pointwise' ? run.dependencies.llm() : undefined;
  const scored = await scorePages(run.text, examined.map(({ page, chunks }) => ({ url: page.url, chunks })), {
    ranking: { fieldWeights: config.retrieve.fieldWeights, ...config.retrieve.lexical },
    lexicalWeight: config.retrieve.fusion.bm25Weight,
    denseWeight: config.retrieve.fusion.denseWeight,
    fragmentsPerPage: config.web.fragmentsPerPage,
    ...(run.dependencies.embedder === undefined ? {} : { embedder: run.dependencies.embedder }),
    ...(cache === undefined ? {} : { vectorCache: cache.vectors }),
    ...(llm === undefined ? {} : { reranker: createLlmPointwiseReranker({ llm, ...config.rerank.pointwise, cache: cache?.judgements ?? createMemoryJudgementCache({ maxEntries: Math.max(1, config.rerank.cacheEntries) }) }) }),
    ...(run.options.signal === undefined ? {} : { signal: run.options.signal }),
  });
  run.warnings.push(...scored.diagnostics);
  return scored;
}

/** The examined pages as selection sees them: by URL, weighed by domain and freshness, their text and its cost as rendered. */
function pageView(examined: readonly ExaminedPage[], run: WebRun, tokenizer: Tokenizer) {
  const { web } = run.dependencies.config;
  const byUrl = new Map(examined.map((entry) => [entry.page.url, entry]));
  const words = new Map(examined.map((entry) => [entry.page.url, wordSet(entry.page.markdown)]));
  const factorOf = pageFactor({
    domainWeights: { ...(web.defaultDomainWeights ? DEFAULT_DOMAIN_WEIGHTS : {}), ...web.domainWeights },
    freshness: web.freshness,
    now: (run.dependencies.now ?? (() => new Date()))(),
    lastModified: (url) => byUrl.get(url)?.page.lastModified,
  });
  const textOf = (url: string, fragments?: readonly number[]) => {
    const entry = byUrl.get(url);
    if (entry === undefined) return '';
    return fragments === undefined ? entry.page.markdown : sectionsText(entry.chunks, fragments);
  };
  // Each block is counted as rendered, with room for its number and the line joining it to the next.
  const cost = (url: string, fragments?: readonly number[]) => tokenizer.count(webBlock(0, { url, title: byUrl.get(url)?.page.title ?? '' }, textOf(url, fragments))) + 2;
  const similarity = (a: string, b: string) => jaccard(words.get(a) ?? new Set(), words.get(b) ?? new Set());
  return { byUrl, factorOf, textOf, cost, similarity };
}

/**
 * The best pages (or their best sections) within the budget, without near-duplicates, each
 * page's relevance weighed by its domain and freshness; what is left out goes to `dropped`.
 */
function selectResults(run: WebRun, examined: readonly ExaminedPage[], scored: PageScores, tokenizer: Tokenizer): WebResult[] {
  const { web } = run.dependencies.config;
  const { maxTokens } = run;
  const { byUrl, factorOf, textOf, cost, similarity } = pageView(examined, run, tokenizer);
  const selection = selectPages(
    scored.pages.map((page) => ({ url: page.url, relevance: page.score, factor: factorOf(page.url), rank: byUrl.get(page.url)?.hit.rank ?? 0, fragmentScores: page.fragmentScores })),
    {
      maxTotalTokens: maxTokens,
      maxSelectedPages: run.options.maxSelectedPages ?? web.maxSelectedPages,
      scoreThreshold: web.scoreThreshold,
      similarityThreshold: web.similarityThreshold,
      similarity,
      cost,
      sectionShare: 0.5,
      wholeShare: 0.5,
    },
  );
  run.dropped.push(...selection.dropped);
  const scores = new Map(scored.pages.map((page) => [page.url, page]));
  return selection.selected.map((choice) => {
    const entry = byUrl.get(choice.url) as ExaminedPage;
    const relevance = scores.get(choice.url)?.score ?? 0;
    const factor = factorOf(choice.url);
    const body = textOf(choice.url, choice.fragments);
    return {
      url: entry.page.url,
      title: entry.page.title,
      snippet: entry.hit.snippet,
      score: round(relevance * factor),
      tokenCount: tokenizer.count(body),
      rank: entry.hit.rank,
      relevance,
      why: explain(relevance, factor, scored.method, choice, entry, cost(choice.url), maxTokens),
      text: body,
      ...(choice.fragments === undefined ? {} : { sections: [...new Set(choice.fragments.map((index) => chunkUrl(entry.chunks[index] as Chunk)))] }),
      ...(entry.page.lastModified === undefined ? {} : { lastModified: entry.page.lastModified }),
    };
  });
}

/** With `save`, the selected pages stored in the index (whole, as examined). */
async function save(run: WebRun, examined: readonly ExaminedPage[], results: readonly WebResult[]) {
  const store = run.dependencies.save;
  if (run.options.save !== true || store === undefined || results.length === 0) return undefined;
  const byUrl = new Map(examined.map((entry) => [entry.page.url, entry]));
  return await store(results.map((result) => byUrl.get(result.url) as ExaminedPage));
}

function explain(relevance: number, factor: number, method: string, choice: { fragments?: readonly number[]; partial?: 'budget' | 'marginal' }, entry: ExaminedPage, wholeCost: number, maxTokens: number): string {
  const { fragments } = choice;
  const parts = [`relevance ${relevance.toFixed(2)} (${method}, best fragment)`];
  if (Math.abs(factor - 1) > 1e-9) parts.push(`× ${factor.toFixed(2)} for ${new URL(entry.page.url).hostname} (domain weight, freshness)`);
  if (fragments === undefined) parts.push('whole page');
  else if (choice.partial === 'marginal') parts.push(`its best ${fragments.length} of ${entry.chunks.length} sections: the page is less than half as relevant as the best one`);
  else parts.push(`its best ${fragments.length} of ${entry.chunks.length} sections: the whole page (${wholeCost} tokens) did not fit what was left of ${maxTokens}`);
  return parts.join('; ');
}

function noneSelectedWarning(dropped: readonly WebDropped[], maxTokens: number): string {
  const reasons = [...new Set(dropped.map((drop) => drop.reason))].join(', ');
  return `No page was selected (${reasons || 'nothing fetched'})${dropped.some((drop) => drop.reason === 'budget') ? `; raise --max-tokens above ${maxTokens}` : ''}. See "dropped" for each page.`;
}

function defaultCachePath(env: Readonly<Record<string, string | undefined>> | undefined): string {
  const base = env?.['XDG_CACHE_HOME'] ?? process.env['XDG_CACHE_HOME'] ?? join(env?.['HOME'] ?? homedir(), '.cache');
  return join(base, 'citedocs', 'web-cache.db');
}

