import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CitedocsConfig } from '../core/config.js';
import { StoreFullError, UsageError } from '../core/errors.js';
import type { Chunk, Page, SourceItem, StoppedBy, Tokenizer } from '../core/types.js';
import type { FetchLike } from '../sources/crawl/fetch-page.js';
import type { LookupFunction } from '../sources/web/host-guard.js';
import { type DocumentFiles, type LocalSourceOptions, readLocalFolder } from '../sources/local/local-source.js';
import type { UrlStyle } from '../sources/local/path-registry.js';
import { crawlSite } from './crawl-source.js';
import type { EmbedProgress, EmbedReport } from './embed-pass.js';
import { chunkingKey, loadChunker, loadExtractor } from './stage-loaders.js';
import { ownedUrlsUnder, type SourceResolver } from './source-resolver.js';
import type { Store } from '../store/store.js';

export interface IngestOptions {
  /** The library the pages belong to. Default: the source already read from this URL, else one named by the host or the start page's title. */
  library?: string;
  /** Its version. Default: the source's, else the version in the URL path (`/docs/5.2/`), else `latest`. */
  version?: string;
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  userAgent?: string;
  include?: string[];
  exclude?: string[];
  /** For a folder: the URL its documents are published under. Default: their file:// URLs. */
  baseUrl?: string;
  urlStyle?: Exclude<UrlStyle, 'source'>;
  /** For a site: let the start host be on a private network (an intranet docs site). */
  allowPrivateHosts?: boolean;
  /** For a site: other hosts the start URL may redirect to (`host` or `host:port`). */
  allowedHosts?: string[];
  /** For a site: run each page's scripts in headless Chromium before extraction (default: crawl.render). */
  render?: boolean;
  /** Called with each page read (fetched or from disk), e.g. to export them as JSON lines. */
  onPage?: (page: Page) => void;
  /** The current chunking settings: a stored page chunked otherwise is downloaded again in full. */
  chunking?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** Progress of the embedding pass that follows, when the index has an embedder. */
  onEmbedProgress?: (progress: EmbedProgress) => void;
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
  /** The library and version the pages were stored under (absent when no page was). */
  library?: string;
  version?: string;
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
  /** Pages read and stored, with something a person should know (empty pages built by JavaScript, markup cut by extraction limits). */
  warnings: string[];
  /** Pages that are empty until JavaScript runs, read without rendering: run again with --render. Only when there are some. */
  needsRender?: { count: number; examples: string[] };
  /** True when the run was interrupted before the source was exhausted (it resumes next time). */
  interrupted: boolean;
  /** Why the source gave up early, when it did. */
  stopped?: string;
  /** The limit that ended the run early, when one did (exit code 0: the index is usable, but incomplete). */
  stoppedBy?: StoppedBy;
  /** URLs still to crawl when the run ended early (interrupted, or at --max-pages): the next run continues with them. */
  queued?: number;
  /** The embedding pass after the pages were stored, when the index has (or gets) vectors. */
  embedding?: EmbedReport;
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
  /** Resolves host names for the crawl's address guard. */
  lookup?: LookupFunction;
  now?: () => Date;
  /** Which source (library@version) the pages belong to; none: pages keep the source they have. */
  source?: SourceResolver;
  /** A folder's documents read from elsewhere than the disk (a git tag's objects), published under `baseUrl`; `input` then only names them. */
  documents?: { files: DocumentFiles; baseUrl: string; urlStyle: UrlStyle };
}

/** What an ingest reads from: its items, the key its runs are recorded under, and whether this session opened a run. */
export interface IngestSource {
  items: AsyncIterable<SourceItem>;
  kind: 'crawl' | 'local';
  key: string;
  runOpened: () => boolean;
}

/** Folder runs are recorded beside crawl runs (never resumed: a folder is read whole each time). */
const LOCAL_RUN_SETTINGS = JSON.stringify({ source: 'local' });

/** Reads a site or folder, chunks each page and writes it to the store, one transaction per page. */
export async function ingest(input: string, options: IngestOptions, dependencies: IngestDependencies): Promise<IngestReport> {
  const { config } = dependencies;
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], warnings: [], interrupted: false };
  let lastQueued = 0;
  const progress = (fetched: number, queued: number) => {
    lastQueued = queued;
    options.onProgress?.({ fetched, queued, pages: report.pages, errors: report.errors.length });
  };
  const now = dependencies.now ?? (() => new Date());

  // Each page remembers the chunking settings it was chunked with: one made with others
  // (size, overlap, tokenizer) is fetched again without validators and chunked again.
  const rendered = /^https?:\/\//i.test(input) && (options.render ?? config.crawl.render);
  const chunking = chunkingKey(config, { rendered });
  const source = openSource(input, { ...options, chunking }, dependencies, progress);
  let localRun: number | undefined;
  try {
    for await (const item of source.items) {
      const store = dependencies.openStore();
      if (source.kind === 'local' && localRun === undefined) localRun = (await store.crawlState.openRun(source.key, LOCAL_RUN_SETTINGS, now().toISOString())).id;
      await storeItem(item, store);
      if (options.signal?.aborted) break;
    }
  } catch (error) {
    if (!(error instanceof StoreFullError)) throw error;
    throw new StoreFullError(`${error.message} This run had stored ${report.added + report.changed} new or changed pages.`, error.path, { cause: error });
  }
  if (report.needsRender !== undefined) report.warnings.unshift(needsRenderWarning(report.needsRender));
  report.interrupted = options.signal?.aborted === true;
  if (lastQueued > 0 && report.stopped === undefined) report.queued = lastQueued;
  await recordOutcome(report, source, localRun, dependencies, now);
  return report;

  async function storeItem(item: SourceItem, store: Store): Promise<void> {
    switch (item.kind) {
      case 'error':
        report.errors.push({ input: item.input, message: item.message });
        break;
      case 'warning':
        if (item.needsRender === true) {
          report.needsRender ??= { count: 0, examples: [] };
          report.needsRender.count += 1;
          if (report.needsRender.examples.length < MAX_RENDER_EXAMPLES) report.needsRender.examples.push(item.input);
        } else report.warnings.push(item.message);
        break;
      case 'stopped':
        report.stopped = item.reason;
        break;
      case 'limited':
        report.stoppedBy = stoppedByOf(item, source.kind);
        break;
      case 'alias':
        await store.addAlias(item.of, item.url);
        report.duplicates += 1;
        break;
      case 'gone':
        if (await store.removePage(item.url)) report.removed += 1;
        break;
      case 'unchanged': {
        const chunkCount = await store.confirmPage(item.url, now().toISOString());
        if (chunkCount === undefined) break;
        // A re-crawl that only confirms pages still records its source's crawl.
        await dependencies.source?.idFor(store, { url: item.url, title: (await store.getPage(item.url))?.title ?? '' });
        report.unchanged += 1;
        report.pages += 1;
        report.chunks += chunkCount;
        break;
      }
      case 'page': {
        const { page } = item;
        report.fetched += 1;
        options.onPage?.(page);
        const stored = await store.getPage(page.url);
        const rechunk = stored !== undefined && stored.chunking !== chunking;
        // The same content already stored under another URL (an alias the crawl met first): keep one page.
        const twin = stored === undefined ? await store.pageUrlWithContent(page.contentHash) : undefined;
        // Never across sources: two versions of a library often serve identical pages, each its own.
        if (twin !== undefined && twin !== page.url && sameSite(twin, page.url) && ((await dependencies.source?.owns(store, twin)) ?? true)) {
          await store.addAlias(twin, page.url);
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
        const sourceId = await dependencies.source?.idFor(store, page);
        const outcome = await store.upsertPage({ ...page, chunking }, chunks, { rechunked: rechunk, ...(sourceId === undefined ? {} : { sourceId }) });
        report[outcome] += 1;
        report.pages += 1;
        report.chunks += outcome === 'unchanged' ? (stored?.chunkCount ?? 0) : chunks.length;
        break;
      }
    }
  }
}

const MAX_RENDER_EXAMPLES = 5;

function needsRenderWarning(needsRender: NonNullable<IngestReport['needsRender']>): string {
  const pages = needsRender.count === 1 ? '1 page is' : `${needsRender.count} pages are`;
  return `${pages} empty until JavaScript runs (${needsRender.examples.join(', ')}${needsRender.count > needsRender.examples.length ? ', …' : ''}): this site builds its pages with JavaScript; run again with --render.`;
}

function stoppedByOf(item: Extract<SourceItem, { kind: 'limited' }>, kind: IngestSource['kind']): StoppedBy {
  const { limit, value, remaining } = item;
  return kind === 'crawl'
    ? { limit, value, remaining, unit: 'requests', flag: '--max-requests', setting: 'crawl.maxPages', resumes: true }
    : { limit, value, remaining, unit: 'files', flag: '--max-requests', resumes: false };
}

/** Records how this session ended where the crawl state lives, so stats and sources can tell an incomplete ingest. */
async function recordOutcome(report: IngestReport, source: IngestSource, localRun: number | undefined, dependencies: IngestDependencies, now: () => Date): Promise<void> {
  if (!source.runOpened() && localRun === undefined) return;
  const crawlState = dependencies.openStore().crawlState;
  const endedAt = now().toISOString();
  // A folder is read whole each time: its run has nothing to resume.
  if (localRun !== undefined) await crawlState.finishRun(localRun, endedAt);
  const outcome = report.interrupted ? 'interrupted' : report.stopped !== undefined ? 'stopped' : report.stoppedBy !== undefined ? 'limited' : 'complete';
  await crawlState.recordOutcome(source.key, {
    outcome,
    endedAt,
    ...(report.stoppedBy === undefined ? {} : { stoppedBy: report.stoppedBy }),
    ...(report.stopped === undefined ? {} : { reason: report.stopped }),
  });
}

function openSource(
  input: string,
  options: IngestOptions,
  dependencies: IngestDependencies,
  progress: (fetched: number, queued: number) => void,
): IngestSource {
  const { config } = dependencies;
  if (dependencies.documents !== undefined) {
    const { files, baseUrl, urlStyle } = dependencies.documents;
    return { kind: 'local', key: baseUrl, items: readFolder({ directory: input, files, baseUrl, urlStyle }), runOpened: () => false };
  }
  if (/^https?:\/\//i.test(input)) {
    if (!URL.canParse(input) || new URL(input).hostname === '') throw new UsageError(`Cannot ingest ${input}: it is not a valid URL. Give a start URL like https://example.com/docs/.`);
    return { kind: 'crawl', key: input, ...crawlSite(input, options, dependencies, progress) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new UsageError(`Cannot ingest ${input}: only http(s) URLs and local folders are supported.`);
  }
  if (!existsSync(input)) {
    throw new UsageError(`Cannot ingest ${input}: it is neither an http(s) URL nor an existing folder.`);
  }
  const baseUrl = options.baseUrl ?? pathToFileURL(resolve(input)).href.replace(/\/?$/, '/');
  if (options.baseUrl !== undefined) assertHttpUrl(options.baseUrl);
  const items = readFolder({ directory: input, baseUrl, urlStyle: options.baseUrl === undefined ? 'source' : (options.urlStyle ?? config.local.urlStyle) });
  // The folder's runs are opened by ingest itself, on the first item.
  return { kind: 'local', key: baseUrl, items, runOpened: () => false };

  function readFolder(folder: Pick<LocalSourceOptions, 'directory' | 'baseUrl' | 'urlStyle' | 'files'>) {
    return readLocalFolder({
      ...folder,
      extractors: {
        markdown: async (source, markdownOptions) => (await loadExtractor())({ format: 'markdown', body: source }, '', markdownOptions),
        html: async (html, url) => (await loadExtractor())({ format: 'html', body: html }, url),
      },
      ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
      knownUrls: (prefix) => ownedUrlsUnder(dependencies, prefix, 'local'),
      // A folder has no page budget (crawl.maxPages guards sites against traps); --max-pages sets one.
      ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
    });
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

/** Same origin (or both local files): a page may only be another's duplicate within one site. */
function sameSite(first: string, second: string): boolean {
  const a = new URL(first);
  const b = new URL(second);
  return a.protocol === 'file:' ? b.protocol === 'file:' : a.origin === b.origin;
}
