import { sha256 } from '../../core/hash.js';
import type { Page, SourceItem } from '../../core/types.js';
import { NOINDEX, NOINDEX_HEADER, pageFromDocument, SOURCE_LISTING } from '../page-from-document.js';
import type { CrawlExtraction, CrawlOptions, KnownPage } from './crawl-options.js';
import type { CrawlQueue, Task } from './crawl-queue.js';
import type { FetchedPage } from './fetch-page.js';
import type { RobotsPolicy } from './robots.js';
import { type CrawlScope, pageUrlOf } from './url-scope.js';

/** Outcomes of a crawl's requests so far: what it reports as progress, and what stops a crawl of a failing site. */
export interface CrawlCounts {
  fetched: number;
  notModified: number;
  failed: number;
  /** Failed requests for pages never stored that the site answered "no such page" (404, 410): broken links, not a failing site. */
  missing: number;
  /** Requests that reached the site (a refused redirect did not). */
  outcomes: number;
}

/** What handling one fetched page reads and updates of its crawl. */
export interface PageHandling {
  options: Pick<CrawlOptions, 'known' | 'extract' | 'renderer' | 'now'>;
  startUrl: string;
  scope: CrawlScope;
  robots: RobotsPolicy;
  queue: CrawlQueue;
  counts: CrawlCounts;
  /** The URL each page's content was first stored at: one page served at two URLs is stored once. */
  hashes: Map<string, string>;
}

type Fetched<Kind extends FetchedPage['kind']> = Extract<FetchedPage, { kind: Kind }>;

/**
 * One page's response turned into what the ingest stores: a failure (the stored page gone when
 * the site says so), an unchanged page (its stored links followed again), or the page extracted,
 * its links queued, named by its canonical URL, unless another URL holds the same content.
 */
export async function* handlePage(task: Task, fetched: FetchedPage, run: PageHandling): AsyncGenerator<SourceItem> {
  const known = await run.options.known?.(task.url);
  if (fetched.kind === 'failed' && fetched.refusedHop !== undefined) {
    // A redirect the crawl may not follow (another host, out of scope, a trap) was never requested: not a failure of the site.
    if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${fetched.refusedHop}` };
    yield { kind: 'error', input: task.url, message: fetched.message };
    return;
  }
  run.counts.outcomes += 1;
  if (fetched.kind === 'failed') yield* handleFailure(task, fetched, known, run);
  else if (fetched.kind === 'not-modified') yield* handleNotModified(task, known, run);
  else yield* handleDocument(task, fetched, known, run);
}

async function* handleFailure(task: Task, fetched: Fetched<'failed'>, known: KnownPage | undefined, run: PageHandling): AsyncGenerator<SourceItem> {
  if (fetched.status === 404 && (await run.queue.retryIndexFile(task))) return;
  run.counts.failed += 1;
  // A stored page that is gone is the site's news, and in bulk its failure (a broken deploy): it counts.
  if ((fetched.status === 404 || fetched.status === 410) && known === undefined) run.counts.missing += 1;
  if (known !== undefined && (fetched.status === 404 || fetched.status === 410)) yield { kind: 'gone', url: task.url, reason: `HTTP ${fetched.status}` };
  yield { kind: 'error', input: task.url, message: fetched.message };
}

async function* handleNotModified(task: Task, known: KnownPage | undefined, run: PageHandling): AsyncGenerator<SourceItem> {
  run.counts.notModified += 1;
  if (known?.contentHash !== undefined) run.hashes.set(known.contentHash, task.url);
  yield { kind: 'unchanged', url: task.url };
  if (task.expand) yield* await run.queue.enqueue(known?.links ?? [], task.depth + 1);
}

async function* handleDocument(task: Task, fetched: Fetched<'document'>, known: KnownPage | undefined, run: PageHandling): AsyncGenerator<SourceItem> {
  const { scope, robots, queue } = run;
  run.counts.fetched += 1;
  let url = pageUrlOf(fetched.url);
  const aliases = new Set([task.url, ...fetched.redirects.map(pageUrlOf)]);
  if (url !== task.url) {
    if (!scope.contains(url) || !robots.isAllowed(url)) {
      if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${url}` };
      yield { kind: 'error', input: task.url, message: `${task.url} redirects to ${url}, outside ${scope.prefix} or disallowed by robots.txt; skipped` };
      return;
    }
    if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${url}` };
    if (queue.seen.has(url) && task.url !== run.startUrl) return;
    queue.seen.add(url);
  }
  if (fetched.format === 'xml') {
    yield { kind: 'error', input: url, message: `GET ${url} is XML, not a page; skipped` };
    return;
  }
  let extracted: CrawlExtraction;
  try {
    extracted = await run.options.extract({ format: fetched.format, body: fetched.body }, url);
  } catch (error) {
    yield { kind: 'error', input: url, message: `Could not extract ${url}: ${error instanceof Error ? error.message : String(error)}` };
    return;
  }
  yield* extractionWarnings(url, extracted, run.options.renderer !== undefined);
  // The header says for the response what <meta name="robots"> says in the page.
  if (fetched.nofollow === true) extracted = { ...extracted, links: [] };
  if (task.expand) yield* await queue.enqueue(extracted.links, task.depth + 1);
  if (extracted.noindex === true || fetched.noindex === true) {
    const reason = extracted.noindex === true ? NOINDEX : NOINDEX_HEADER;
    if (known !== undefined) yield { kind: 'gone', url: task.url, reason };
    yield { kind: 'warning', code: 'crawl.noindex', input: url, message: `${url} ${reason}: its links were followed, its text was not stored` };
    return;
  }
  if (extracted.sourceListing === true) {
    if (known !== undefined) yield { kind: 'gone', url: task.url, reason: SOURCE_LISTING };
    yield { kind: 'warning', code: 'crawl.source-listing', input: url, message: `${url} ${SOURCE_LISTING}: its links were followed, its text was not stored` };
    return;
  }
  // A canonical URL inside the scope names the page, unless another page already has it.
  const canonical = extracted.canonical === undefined ? undefined : pageUrlOf(extracted.canonical);
  if (canonical !== undefined && canonical !== url && scope.contains(canonical) && !queue.seen.has(canonical)) {
    queue.seen.add(canonical);
    url = canonical;
  }
  aliases.add(pageUrlOf(fetched.url));
  aliases.delete(url);
  const contentHash = sha256(extracted.markdown);
  // One page served at two URLs (aliases, query strings): the first URL keeps it.
  const original = run.hashes.get(contentHash);
  if (original !== undefined) {
    if (original !== url) yield { kind: 'alias', url, of: original };
    return;
  }
  run.hashes.set(contentHash, url);
  yield { kind: 'page', page: pageOf(url, extracted, contentHash, fetched, aliases, run.options.now ?? (() => new Date())) };
}

/** An empty page built by scripts (or still empty once they ran), and what extraction had to cut. */
function* extractionWarnings(url: string, extracted: CrawlExtraction, rendered: boolean): Generator<SourceItem> {
  if (extracted.emptyShell === true) {
    yield rendered
      ? { kind: 'warning', code: 'crawl.empty-after-render', input: url, message: `${url} has next to no text even after its scripts ran` }
      : { kind: 'warning', code: 'crawl.needs-render', input: url, message: `${url} is an empty page whose content is built by JavaScript`, needsRender: true };
  }
  for (const warning of extracted.warnings ?? []) yield { kind: 'warning', code: warning.code, input: url, message: warning.message };
  if (extracted.hashRoutes !== undefined) yield { kind: 'warning', code: 'crawl.hash-routes', input: url, message: `${url} links ${extracted.hashRoutes} pages by a route in the URL's fragment (#/…), which a crawl does not read` };
}

function pageOf(url: string, extracted: CrawlExtraction, contentHash: string, fetched: Fetched<'document'>, aliases: ReadonlySet<string>, now: () => Date): Page {
  return pageFromDocument(url, extracted, {
    contentHash,
    fetchedAt: now().toISOString(),
    source: 'crawl',
    links: extracted.links,
    ...(aliases.size === 0 ? {} : { aliases: [...aliases] }),
    ...(fetched.etag === undefined ? {} : { etag: fetched.etag }),
    ...(fetched.lastModified === undefined ? {} : { lastModified: fetched.lastModified }),
  });
}
