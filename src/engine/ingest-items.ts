import { diagnostic, logDiagnostics } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import type { Chunk, Page, SourceItem, StoppedBy } from '../core/types.js';
import type { Store } from '../store/store.js';
import type { IngestDependencies, IngestOptions, IngestReport, IngestSource } from './ingest-types.js';
import { loadChunker } from './stage-loaders.js';

/** Pages named in the warning that a site needs --render, at most. */
const MAX_RENDER_EXAMPLES = 5;

/** What storing one item of a source reads, and the report it adds to. */
export interface ItemContext {
  report: IngestReport;
  options: IngestOptions;
  dependencies: IngestDependencies;
  /** The chunking settings pages are chunked with now (a page chunked with others is chunked again). */
  chunking: string;
  sourceKind: IngestSource['kind'];
  now: () => Date;
}

/** One item of a source (a page, an unchanged or gone page, an alias, an error, a warning, a limit) applied to the store and the report. */
export async function storeItem(item: SourceItem, store: Store, context: ItemContext): Promise<void> {
  const { report } = context;
  switch (item.kind) {
    case 'error':
      report.errors.push({ input: item.input, message: item.message });
      logger('crawl').warn({ input: item.input }, item.message);
      break;
    case 'warning':
      noteWarning(item, report);
      break;
    case 'stopped':
      report.stopped = item.reason;
      break;
    case 'limited':
      report.stoppedBy = stoppedByOf(item, context.sourceKind);
      break;
    case 'alias':
      await store.addAlias(item.of, item.url);
      report.duplicates += 1;
      break;
    case 'gone':
      logger('crawl').debug({ url: item.url, reason: item.reason }, 'page gone');
      if (await store.removePage(item.url)) report.removed += 1;
      break;
    case 'unchanged': {
      const chunkCount = await store.confirmPage(item.url, context.now().toISOString());
      if (chunkCount === undefined) break;
      // A re-crawl that only confirms pages still records its source's crawl.
      await context.dependencies.source?.idFor(store, { url: item.url, title: (await store.getPage(item.url))?.title ?? '' });
      report.unchanged += 1;
      report.pages += 1;
      report.chunks += chunkCount;
      break;
    }
    case 'page':
      await storePage(item.page, store, context);
      break;
  }
}

/** A page that needs --render, asks not to be indexed, lists source code or routes by fragments is counted (one warning for the run says so); any other warning is reported as it comes. */
function noteWarning(item: Extract<SourceItem, { kind: 'warning' }>, report: IngestReport): void {
  const counted =
    item.needsRender === true
      ? (report.needsRender ??= { count: 0, examples: [] })
      : item.code === 'crawl.noindex'
        ? (report.noindex ??= { count: 0, examples: [] })
        : item.code === 'crawl.source-listing'
          ? (report.sourceListings ??= { count: 0, examples: [] })
          : item.code === 'crawl.hash-routes'
            ? (report.hashRoutes ??= { count: 0, examples: [] })
            : undefined;
  if (counted !== undefined) {
    counted.count += 1;
    if (counted.examples.length < MAX_RENDER_EXAMPLES) counted.examples.push(item.input);
    logger('crawl').debug({ url: item.input }, item.message);
    return;
  }
  const warning = diagnostic(item.code, item.message);
  report.warnings.push(warning.message);
  report.diagnostics.push(warning);
  logDiagnostics([warning], { input: item.input });
}

/**
 * A page read: stored as an alias of the same content under another URL of the site (and the
 * same source), or chunked (when its content or the chunking settings changed) and stored.
 */
async function storePage(page: Page, store: Store, context: ItemContext): Promise<void> {
  const { report, dependencies, chunking } = context;
  report.fetched += 1;
  context.options.onPage?.(page);
  const stored = await store.getPage(page.url);
  const rechunk = stored !== undefined && stored.chunking !== chunking;
  // The same content already stored under another URL (an alias the crawl met first): keep one page.
  const twin = stored === undefined ? await store.pageUrlWithContent(page.contentHash) : undefined;
  // Never across sources: two versions of a library often serve identical pages, each its own.
  if (twin !== undefined && twin !== page.url && sameSite(twin, page.url) && ((await dependencies.source?.owns(store, twin)) ?? true)) {
    await store.addAlias(twin, page.url);
    report.duplicates += 1;
    return;
  }
  let chunks: Chunk[] = [];
  try {
    if (stored?.contentHash !== page.contentHash || rechunk) chunks = await chunkPage(page, context);
  } catch (error) {
    // One page that cannot be chunked (pathological Markdown) is reported; the others go on.
    report.errors.push({ input: page.url, message: `Could not chunk ${page.url}: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  const sourceId = await dependencies.source?.idFor(store, page);
  const outcome = await store.upsertPage({ ...page, chunking }, chunks, { rechunked: rechunk, ...(sourceId === undefined ? {} : { sourceId }) });
  report[outcome] += 1;
  report.pages += 1;
  report.chunks += outcome === 'unchanged' ? (stored?.chunkCount ?? 0) : chunks.length;
  logger('index').debug({ url: page.url, outcome, chunks: chunks.length }, 'page stored');
}

async function chunkPage(page: Page, context: ItemContext): Promise<Chunk[]> {
  const { config } = context.dependencies;
  const started = performance.now();
  const chunks = (await loadChunker())(page, { maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, tokenizer: await context.dependencies.tokenizer() });
  logger('chunk').debug({ url: page.url, chunks: chunks.length, tokens: chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0), ms: elapsedMs(started) }, 'page chunked');
  return chunks;
}

function stoppedByOf(item: Extract<SourceItem, { kind: 'limited' }>, kind: IngestSource['kind']): StoppedBy {
  const { limit, value, remaining } = item;
  return kind === 'crawl'
    ? { limit, value, remaining, unit: 'requests', flag: '--max-requests', setting: 'crawl.maxPages', resumes: true }
    : { limit, value, remaining, unit: 'files', flag: '--max-requests', resumes: false };
}

/** Same origin (or both local files): a page may only be another's duplicate within one site. */
function sameSite(first: string, second: string): boolean {
  const a = new URL(first);
  const b = new URL(second);
  return a.protocol === 'file:' ? b.protocol === 'file:' : a.origin === b.origin;
}
