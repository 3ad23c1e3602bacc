import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CitedocsConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { Chunk, Page, SourceItem, Tokenizer } from '../core/types.js';
import { crawl } from '../sources/crawl/crawler.js';
import type { FetchLike } from '../sources/crawl/fetch-page.js';
import type { CrawlFrontier } from '../sources/crawl/frontier.js';
import { readLocalFolder } from '../sources/local/local-source.js';
import type { UrlStyle } from '../sources/local/path-registry.js';
import type { chunkPage as ChunkPage } from '../chunk/chunker.js';
import type { extractDocument as ExtractDocument } from './extract-document.js';
import type { Store } from '../store/store.js';

export interface IngestOptions {
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  userAgent?: string;
  include?: string[];
  exclude?: string[];
  /** For a folder: the URL its documents are published under. Default: their file:// URLs. */
  baseUrl?: string;
  urlStyle?: Exclude<UrlStyle, 'source'>;
  /** Called with each page read (fetched or from disk), e.g. to export them as JSON lines. */
  onPage?: (page: Page) => void;
  /** The current chunking settings: a stored page chunked otherwise is downloaded again in full. */
  chunking?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  fetched: number;
  queued: number;
  pages: number;
  errors: number;
}

export interface IngestError {
  input: string;
  message: string;
}

export interface IngestReport {
  /** Pages ingested by this run (added, changed or unchanged). */
  pages: number;
  /** Chunks those pages have in the index. */
  chunks: number;
  added: number;
  changed: number;
  unchanged: number;
  /** Stored pages removed because they are gone (404/410, redirected away, out of scope). */
  removed: number;
  /** Page bodies actually downloaded or read (a 304 costs none). */
  fetched: number;
  /** Pages whose content another stored page of the same site already has: kept as its aliases. */
  duplicates: number;
  errors: IngestError[];
  /** True when the run was interrupted before the source was exhausted (it resumes next time). */
  interrupted: boolean;
  /** Why the source gave up early, when it did. */
  stopped?: string;
  /** URLs still to crawl when the run ended early (interrupted, or at --max-pages): the next run continues with them. */
  queued?: number;
}

export interface IngestDependencies {
  config: CitedocsConfig;
  /** Opened on first write, so a source that fails at once leaves no new index file behind. */
  openStore: () => Store;
  /** The index if it exists already (for reading what a re-crawl knows), without creating it. */
  existingStore: () => Store | undefined;
  /** Loaded on the first page that needs chunking: a re-crawl answered with 304s never needs it. */
  tokenizer: () => Promise<Tokenizer>;
  fetch?: FetchLike;
  now?: () => Date;
}

/** Reads a site or folder, chunks each page and writes it to the store, one transaction per page. */
export async function ingest(input: string, options: IngestOptions, dependencies: IngestDependencies): Promise<IngestReport> {
  const { config } = dependencies;
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], interrupted: false };
  let lastQueued = 0;
  const progress = (fetched: number, queued: number) => {
    lastQueued = queued;
    options.onProgress?.({ fetched, queued, pages: report.pages, errors: report.errors.length });
  };
  const now = dependencies.now ?? (() => new Date());

  // Each page remembers the chunking settings it was chunked with: one made with others
  // (size, overlap, tokenizer) is fetched again without validators and chunked again.
  const chunking = chunkingKey(config);
  const source = openSource(input, { ...options, chunking }, dependencies, progress);
  for await (const item of source) {
    const store = dependencies.openStore();
    switch (item.kind) {
      case 'error':
        report.errors.push({ input: item.input, message: item.message });
        break;
      case 'stopped':
        report.stopped = item.reason;
        break;
      case 'alias':
        store.addAlias(item.of, item.url);
        report.duplicates += 1;
        break;
      case 'gone':
        if (store.removePage(item.url)) report.removed += 1;
        break;
      case 'unchanged': {
        const chunkCount = store.confirmPage(item.url, now().toISOString());
        if (chunkCount === undefined) break;
        report.unchanged += 1;
        report.pages += 1;
        report.chunks += chunkCount;
        break;
      }
      case 'page': {
        const { page } = item;
        report.fetched += 1;
        options.onPage?.(page);
        const stored = store.getPage(page.url);
        const rechunk = stored !== undefined && stored.chunking !== chunking;
        // The same content already stored under another URL (an alias the crawl met first): keep one page.
        const twin = stored === undefined ? store.pageUrlWithContent(page.contentHash) : undefined;
        if (twin !== undefined && twin !== page.url && sameSite(twin, page.url)) {
          store.addAlias(twin, page.url);
          report.duplicates += 1;
          break;
        }
        let chunks: Chunk[] = [];
        try {
          if (stored?.contentHash !== page.contentHash || rechunk) {
            chunks = (await loadChunker())(page, { maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, tokenizer: await dependencies.tokenizer() });
          }
        } catch (error) {
          // One page that cannot be chunked (pathological Markdown) is reported; the others go on.
          report.errors.push({ input: page.url, message: `Could not chunk ${page.url}: ${error instanceof Error ? error.message : String(error)}` });
          break;
        }
        const outcome = store.upsertPage({ ...page, chunking }, chunks, { rechunked: rechunk });
        report[outcome] += 1;
        report.pages += 1;
        report.chunks += outcome === 'unchanged' ? (stored?.chunkCount ?? 0) : chunks.length;
        break;
      }
    }
    if (options.signal?.aborted) break;
  }
  report.interrupted = options.signal?.aborted === true;
  if (lastQueued > 0 && report.stopped === undefined) report.queued = lastQueued;
  return report;
}

function openSource(
  input: string,
  options: IngestOptions,
  dependencies: IngestDependencies,
  progress: (fetched: number, queued: number) => void,
): AsyncIterable<SourceItem> {
  const { config } = dependencies;
  if (/^https?:\/\//i.test(input)) {
    if (!URL.canParse(input) || new URL(input).hostname === '') throw new UsageError(`Cannot ingest ${input}: it is not a valid URL. Give a start URL like https://example.com/docs/.`);
    return crawlSite(input, options, dependencies, progress);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new UsageError(`Cannot ingest ${input}: only http(s) URLs and local folders are supported.`);
  }
  if (!existsSync(input)) {
    throw new UsageError(`Cannot ingest ${input}: it is neither an http(s) URL nor an existing folder.`);
  }
  const baseUrl = options.baseUrl ?? pathToFileURL(resolve(input)).href.replace(/\/?$/, '/');
  if (options.baseUrl !== undefined) assertHttpUrl(options.baseUrl);
  return limit(
    readLocalFolder({
      directory: input,
      baseUrl,
      urlStyle: options.baseUrl === undefined ? 'source' : (options.urlStyle ?? config.local.urlStyle),
      extractors: {
        markdown: async (source, markdownOptions) => (await loadExtractor())({ format: 'markdown', body: source }, '', markdownOptions),
        html: async (html, url) => (await loadExtractor())({ format: 'html', body: html }, url),
      },
      ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
      knownUrls: (prefix) => dependencies.existingStore()?.pageUrlsUnder(prefix, 'local') ?? [],
    }),
    options.maxPages ?? config.crawl.maxPages,
  );
}

function crawlSite(
  startUrl: string,
  options: IngestOptions,
  dependencies: IngestDependencies,
  progress: (fetched: number, queued: number) => void,
): AsyncIterable<SourceItem> {
  const crawlConfig = { ...dependencies.config.crawl };
  if (options.maxPages !== undefined) crawlConfig.maxPages = options.maxPages;
  if (options.maxDepth !== undefined) crawlConfig.maxDepth = options.maxDepth;
  if (options.concurrency !== undefined) crawlConfig.concurrency = options.concurrency;
  if (options.userAgent !== undefined) crawlConfig.userAgent = options.userAgent;
  if (options.include !== undefined) crawlConfig.include = options.include;
  if (options.exclude !== undefined) crawlConfig.exclude = options.exclude;
  const store = dependencies.openStore;
  const existing = dependencies.existingStore;
  return crawl({
    ...crawlConfig,
    startUrl,
    extract: async (document, url) => (await loadExtractor())(document, url),
    known: (url) => {
      const page = existing()?.getPage(url);
      if (page === undefined) return undefined;
      const current = options.chunking === undefined || page.chunking === options.chunking;
      const validators = current ? { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { lastModified: page.lastModified } : {}) } : {};
      return { links: page.links, contentHash: page.contentHash, ...validators };
    },
    knownUrls: (prefix) => existing()?.pageUrlsUnder(prefix, 'crawl') ?? [],
    frontier: storedFrontier(store, startUrl, crawlConfig, dependencies.now ?? (() => new Date())),
    onProgress: ({ fetched, queued }) => progress(fetched, queued),
    ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
    ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** The crawl frontier in the store: a crawl with the same start URL and settings resumes it. */
function storedFrontier(store: () => Store, startUrl: string, settings: CitedocsConfig['crawl'], now: () => Date): CrawlFrontier {
  let runId: number | undefined;
  const id = (): number => {
    if (runId === undefined) throw new Error('the crawl frontier was used before resume()');
    return runId;
  };
  return {
    resume: () => {
      const scope = { maxDepth: settings.maxDepth ?? null, include: settings.include, exclude: settings.exclude, respectRobots: settings.respectRobots, useSitemaps: settings.useSitemaps };
      const run = store().crawlState.openRun(startUrl, JSON.stringify(scope), now().toISOString());
      runId = run.id;
      return { queued: run.queued, seen: run.seen };
    },
    add: (entries) => {
      if (entries.length > 0) store().crawlState.enqueue(id(), entries);
    },
    done: (url) => store().crawlState.markDone(id(), url),
    finish: () => store().crawlState.finishRun(id(), now().toISOString()),
  };
}

async function* limit(items: AsyncIterable<SourceItem>, maxPages: number): AsyncGenerator<SourceItem> {
  let pages = 0;
  for await (const item of items) {
    if (item.kind === 'page' && (pages += 1) > maxPages) return;
    yield item;
  }
}

function assertHttpUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${value} is not a URL. Give the address the folder is published at, like https://example.com/docs/.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url ${value} must be an http(s) URL, like https://example.com/docs/.`);
  }
}

// HTML parsing, Markdown and chunking load on first use: a re-crawl answered with 304s
// never parses a page, and loading them costs more than the whole re-crawl otherwise.
let extractor: Promise<typeof ExtractDocument> | undefined;
let chunker: Promise<typeof ChunkPage> | undefined;
const loadExtractor = () => (extractor ??= import('./extract-document.js').then((module) => module.extractDocument));
const loadChunker = () => (chunker ??= import('../chunk/chunker.js').then((module) => module.chunkPage));

/** A document given directly (an evaluation corpus, a library caller's own pages). */
export interface DirectDocument {
  url: string;
  title: string;
  markdown: string;
}

/** Chunks and stores documents given as Markdown, one transaction each; unchanged ones are skipped. */
export async function ingestDocuments(
  documents: Iterable<DirectDocument>,
  dependencies: Pick<IngestDependencies, 'config' | 'openStore' | 'tokenizer' | 'now'>,
): Promise<IngestReport> {
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], interrupted: false };
  const chunk = await loadChunker();
  const tokenizer = await dependencies.tokenizer();
  const now = (dependencies.now ?? (() => new Date()))().toISOString();
  const store = dependencies.openStore();
  const chunking = chunkingKey(dependencies.config);
  for (const document of documents) {
    const contentHash = sha256(`${document.title}\n${document.markdown}`);
    report.pages += 1;
    report.fetched += 1;
    const stored = store.getPage(document.url);
    const rechunk = stored !== undefined && stored.chunking !== chunking;
    if (stored?.contentHash === contentHash && !rechunk) {
      report.unchanged += 1;
      report.chunks += stored.chunkCount;
      continue;
    }
    const page: Page = { url: document.url, canonicalUrl: document.url, title: document.title, markdown: document.markdown, headings: [], anchors: [], contentHash, fetchedAt: now, source: 'local', chunking };
    const chunks = chunk(page, { maxTokens: dependencies.config.chunk.maxTokens, overlapTokens: dependencies.config.chunk.overlapTokens, tokenizer });
    report[store.upsertPage(page, chunks, { rechunked: rechunk })] += 1;
    report.chunks += chunks.length;
  }
  return report;
}

/** What the stored chunks depend on besides the page: a change means chunking again. */
function chunkingKey(config: CitedocsConfig): string {
  return JSON.stringify({ maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, encoding: config.tokenizer.encoding, chunker: 2 });
}

/** Same origin (or both local files): a page may only be another's duplicate within one site. */
function sameSite(first: string, second: string): boolean {
  const a = new URL(first);
  const b = new URL(second);
  return a.protocol === 'file:' ? b.protocol === 'file:' : a.origin === b.origin;
}
