import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diagnostic, type DiagnosticCode, logDiagnostics } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import { StoreFullError, UsageError } from '../core/errors.js';
import { type LocalSourceOptions, readLocalFolder } from '../sources/local/local-source.js';
import { crawlSite } from './crawl-source.js';
import type { IngestDependencies, IngestOptions, IngestReport, IngestSource } from './ingest-types.js';
import { chunkingKey, loadExtractor } from './stage-loaders.js';
import { type ItemContext, storeItem } from './ingest-items.js';
import { ownedUrlsUnder } from './source-resolver.js';

export type { IngestDependencies, IngestError, IngestOptions, IngestProgress, IngestReport, IngestSource } from './ingest-types.js';

/** Folder runs are recorded beside crawl runs (never resumed: a folder is read whole each time). */
const LOCAL_RUN_SETTINGS = JSON.stringify({ source: 'local' });

/** Reads a site or folder, chunks each page and writes it to the store, one transaction per page. */
export async function ingest(input: string, options: IngestOptions, dependencies: IngestDependencies): Promise<IngestReport> {
  const { config } = dependencies;
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], warnings: [], diagnostics: [], interrupted: false };
  const started = performance.now();
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
  const items: ItemContext = { report, options, dependencies, chunking, sourceKind: source.kind, now };
  try {
    for await (const item of source.items) {
      const store = dependencies.openStore();
      if (source.kind === 'local' && localRun === undefined) localRun = (await store.crawlState.openRun(source.key, LOCAL_RUN_SETTINGS, now().toISOString())).id;
      await storeItem(item, store, items);
      if (options.signal?.aborted) break;
    }
  } catch (error) {
    if (!(error instanceof StoreFullError)) throw error;
    throw new StoreFullError(`${error.message} This run had stored ${report.added + report.changed} new or changed pages.`, error.path, { cause: error });
  }
  // Pages counted by kind get one warning each for the run; the pages to render again lead.
  if (report.needsRender !== undefined) addRunWarning(report, 'crawl.needs-render', needsRenderWarning(report.needsRender), 'first');
  if (report.noindex !== undefined) addRunWarning(report, 'crawl.noindex', noindexWarning(report.noindex));
  if (report.sourceListings !== undefined) addRunWarning(report, 'crawl.source-listing', sourceListingWarning(report.sourceListings));
  if (report.hashRoutes !== undefined) addRunWarning(report, 'crawl.hash-routes', hashRoutesWarning(report.hashRoutes));
  report.interrupted = options.signal?.aborted === true;
  if (lastQueued > 0 && report.stopped === undefined) report.queued = lastQueued;
  await recordOutcome(report, source, localRun, dependencies, now);
  const { pages, chunks, added, changed, unchanged, removed, fetched, interrupted } = report;
  logger('index').info({ input, pages, chunks, added, changed, unchanged, removed, fetched, errors: report.errors.length, interrupted, ms: elapsedMs(started) }, 'ingest stored');
  return report;
}

/** One warning for the whole run, in the report's strings and data alike, and in the log. */
function addRunWarning(report: IngestReport, code: DiagnosticCode, message: string, place: 'first' | 'last' = 'last'): void {
  const warning = diagnostic(code, message);
  if (place === 'first') {
    report.warnings.unshift(warning.message);
    report.diagnostics.unshift(warning);
  } else {
    report.warnings.push(warning.message);
    report.diagnostics.push(warning);
  }
  logDiagnostics([warning]);
}

type CountedPages = NonNullable<IngestReport['needsRender']>;

/** The examples of counted pages, with an ellipsis when there were more. */
const examplesOf = ({ count, examples }: CountedPages): string => `${examples.join(', ')}${count > examples.length ? ', …' : ''}`;

function needsRenderWarning(needsRender: CountedPages): string {
  const pages = needsRender.count === 1 ? '1 page is' : `${needsRender.count} pages are`;
  return `${pages} empty until JavaScript runs (${examplesOf(needsRender)}): this site builds its pages with JavaScript; run again with --render.`;
}

function noindexWarning(noindex: CountedPages): string {
  const one = noindex.count === 1;
  return `${one ? '1 page asks' : `${noindex.count} pages ask`} robots not to index ${one ? 'it' : 'them'} (${examplesOf(noindex)}): ${one ? 'its' : 'their'} links were followed, ${one ? 'its' : 'their'} text was not stored.`;
}

function sourceListingWarning(listings: CountedPages): string {
  const one = listings.count === 1;
  return `${one ? '1 page is' : `${listings.count} pages are`} the documentation generator's listing of the source code (${examplesOf(listings)}): ${one ? 'its' : 'their'} links were followed, ${one ? 'its' : 'their'} text was not stored (${one ? 'its' : 'their'} doc comments are the pages indexed).`;
}

function hashRoutesWarning(routing: CountedPages): string {
  const one = routing.count === 1;
  return `${one ? '1 page links' : `${routing.count} pages link`} other pages by a route in the URL's fragment (${examplesOf(routing)}: #/api, a single-page app such as Docsify): a crawl reads a URL once, without its fragment, so those pages were not read. Ingest the site's Markdown sources instead (their folder or git repository).`;
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
