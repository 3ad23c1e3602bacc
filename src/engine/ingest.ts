import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chunkPage } from '../chunk/chunker.js';
import type { CitedocsConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import type { SourceItem, Tokenizer } from '../core/types.js';
import { extractHtml } from '../extract/extract-html.js';
import { extractMarkdown } from '../extract/extract-markdown.js';
import { crawl } from '../sources/crawl/crawler.js';
import type { FetchLike } from '../sources/crawl/fetch-page.js';
import { readLocalFolder } from '../sources/local/local-source.js';
import type { UrlStyle } from '../sources/local/path-registry.js';
import type { Store } from '../store/store.js';

export interface IngestOptions {
  maxPages?: number;
  /** For a folder: the URL its documents are published under. Default: their file:// URLs. */
  baseUrl?: string;
  urlStyle?: Exclude<UrlStyle, 'source'>;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  done: number;
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
  errors: IngestError[];
  /** True when the run was interrupted before the source was exhausted. */
  interrupted: boolean;
}

export interface IngestDependencies {
  config: CitedocsConfig;
  /** Opened on the first page, so a source that fails at once leaves no new index file behind. */
  openStore: () => Store;
  tokenizer: Tokenizer;
  fetch?: FetchLike;
  now?: () => Date;
}

/** Reads a site or folder, chunks each page and writes it to the store, one transaction per page. */
export async function ingest(input: string, options: IngestOptions, dependencies: IngestDependencies): Promise<IngestReport> {
  const { config, tokenizer } = dependencies;
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, errors: [], interrupted: false };
  const progress = (done: number, queued: number) => options.onProgress?.({ done, queued, pages: report.pages, errors: report.errors.length });

  for await (const item of openSource(input, options, dependencies, progress)) {
    if (item.kind === 'error') {
      report.errors.push({ input: item.input, message: item.message });
      continue;
    }
    const { page } = item;
    const store = dependencies.openStore();
    const stored = store.getPage(page.url);
    if (stored?.contentHash === page.contentHash) {
      store.upsertPage(page, []);
      report.unchanged += 1;
      report.pages += 1;
      report.chunks += stored.chunkCount;
      continue;
    }
    const chunks = chunkPage(page, { maxTokens: config.chunk.maxTokens, tokenizer });
    const outcome = store.upsertPage(page, chunks);
    report[outcome] += 1;
    report.pages += 1;
    report.chunks += chunks.length;
    if (options.signal?.aborted) break;
  }
  report.interrupted = options.signal?.aborted === true;
  return report;
}

function openSource(
  input: string,
  options: IngestOptions,
  dependencies: IngestDependencies,
  progress: (done: number, queued: number) => void,
): AsyncIterable<SourceItem> {
  const { config } = dependencies;
  if (/^https?:\/\//i.test(input)) {
    return crawl({
      startUrl: input,
      maxPages: options.maxPages ?? config.crawl.maxPages,
      concurrency: config.crawl.concurrency,
      timeoutMs: config.crawl.timeoutMs,
      maxPageBytes: config.crawl.maxPageBytes,
      userAgent: config.crawl.userAgent,
      extract: extractHtml,
      onProgress: ({ done, queued }) => progress(done, queued),
      ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
      ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
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
      extractors: { markdown: extractMarkdown, html: (html, url) => extractHtml(html, url) },
      ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
    }),
    options.maxPages ?? config.crawl.maxPages,
  );
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
