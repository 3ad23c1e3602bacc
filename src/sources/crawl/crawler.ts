import type { SourceItem } from '../../core/types.js';
import type { CrawlOptions } from './crawl-options.js';
import { discoverListedPages } from './discovery.js';
import { abortableSleep } from '../../core/http/retry.js';
import { startCrawl } from './crawl-start.js';
import type { FetchLike } from '../../core/http/send.js';
import { type FetchPageOptions, type FetchedPage, fetchPage } from './fetch-page.js';
import { type CrawlFrontier, createMemoryFrontier } from './frontier.js';
import { type CrawlQueue, openCrawlQueue, type Task } from './crawl-queue.js';
import { handlePage, type PageHandling } from './crawl-page.js';
import type { RobotsPolicy } from './robots.js';
import { renderFetched } from './render-fetched.js';
import { createCrawlFetch, createHostPolicy, type HostPolicy } from './host-policy.js';
import { type CrawlScope, pageUrlOf, type ScopeRules, urlTrapReason } from './url-scope.js';

export type { CrawlOptions, CrawlProgress, KnownPage } from './crawl-options.js';

/**
 * Over this share of failed fetches (after MIN_OUTCOMES), the crawl stops: the site is down or
 * hostile. A link to a page the site says it does not have (404, 410), never stored before, is
 * a broken link on a site that answers, and counts neither way: docs built from Markdown often
 * keep links to `.md` files that were never published, beside every page that was. Stored
 * pages that answer 404 do count: all of them at once is a broken deploy, not news.
 */
const FAILURE_RATIO = 0.5;
const MIN_OUTCOMES = 10;
const MAX_CRAWL_DELAY_MS = 60_000;

/** How often a worker of a shared crawl with nothing to do looks again while other workers hold entries. */
const SHARED_POLL_MS = 250;

/**
 * Breadth-first crawl: robots.txt obeyed, sitemaps and llms.txt as extra seeds, one origin,
 * under the start folder, bounded requests, depth and concurrency, polite pacing. Every
 * request, redirects included, is checked before it is sent: the hosts come from the start
 * URL the user gave (host-policy.ts), pages from the scope, and URLs past the trap limits
 * are never requested. Stored pages are requested conditionally; pages that are gone are
 * reported for removal. The frontier is kept as the crawl goes, so an interrupted crawl
 * resumes; a page whose request the signal interrupted stays queued for the next run.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<SourceItem> {
  const startUrl = pageUrlOf(options.startUrl);
  const policy = createHostPolicy({
    startUrl,
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.allowPrivateHosts === undefined ? {} : { allowPrivateHosts: options.allowPrivateHosts }),
  });
  const guarded = options.fetch === undefined ? createCrawlFetch(policy, options.lookup === undefined ? {} : { lookup: options.lookup }) : undefined;
  try {
    yield* crawlFrom(startUrl, options, (guarded?.fetch ?? options.fetch) as FetchLike, policy);
  } finally {
    await guarded?.close();
  }
}

/** Everything one run of a crawl needs once its start page is read: its queue, its counts, how it fetches. */
interface CrawlRun {
  options: CrawlOptions;
  frontier: CrawlFrontier;
  queue: CrawlQueue;
  pages: PageHandling;
  /** GETs a page in the scope (conditionally when stored), rendered when the crawl renders. */
  fetchTask: (task: Task) => Promise<FetchedPage>;
  sleep: NonNullable<CrawlOptions['sleep']>;
  /** The pause between request starts: the crawl's, raised by robots.txt's Crawl-delay. */
  delayMs: number;
}

async function* crawlFrom(startUrl: string, options: CrawlOptions, fetchFunction: FetchLike, policy: HostPolicy): AsyncGenerator<SourceItem> {
  const sleep = options.sleep ?? abortableSleep;
  const frontier = options.frontier ?? createMemoryFrontier();
  const fetchOptions = fetchOptionsOf(options, fetchFunction, sleep);
  const fetchFor = conditionalFetch(options, fetchOptions);
  const rules = scopeRulesOf(options);
  const started = await startCrawl({
    givenUrl: options.startUrl,
    startUrl,
    policy,
    rules,
    respectRobots: options.respectRobots !== false,
    userAgent: options.userAgent,
    fetchOptions,
    fetchPage: fetchFor,
    linksOf: async (page) => {
      if (page.format === 'xml') return [];
      try {
        return (await options.extract({ format: page.format, body: page.body }, page.url)).links;
      } catch {
        return []; // crawling the page reports why it cannot be read
      }
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (started === undefined) return;
  const { scope, robots, first, siteHop } = started;
  const { pageHop, resourceHop } = crawlHops(policy, scope, robots, rules, options);
  const render = renderStep(options, fetchFunction, resourceHop);
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const queue = await openCrawlQueue({ frontier, startUrl, scope, robots, rules, maxDepth });
  const pages: PageHandling = { options, startUrl, scope, robots, queue, counts: { fetched: 0, notModified: 0, failed: 0, missing: 0, outcomes: 0 }, hashes: new Map() };
  const run: CrawlRun = {
    options,
    frontier,
    queue,
    pages,
    fetchTask: (task) => fetchFor(task.url, pageHop).then(render),
    sleep,
    delayMs: Math.max(options.delayMs, Math.min(robots.crawlDelayMs ?? 0, MAX_CRAWL_DELAY_MS)),
  };

  await frontier.add([{ url: startUrl, depth: 0 }]);
  const firstPage = await render(first);
  if (firstPage.kind === 'failed' && firstPage.interrupted === true) return;
  yield* handlePage({ url: startUrl, depth: 0, expand: true }, firstPage, pages);
  await frontier.done(startUrl);
  // Also on a resumed run: the interrupted one may have stopped before reading the sitemaps.
  if (options.useSitemaps !== false && maxDepth >= 1) {
    const listed = await discoverListedPages(scope, robots, { ...fetchOptions, allowHop: siteHop, maxUrls: options.maxPages });
    yield* await queue.enqueue(listed.urls, 1);
    for (const problem of listed.problems) yield { kind: 'error', input: problem.url, message: problem.message };
  }
  reportProgress(run, 0);
  yield* fetchQueued(run);
}

function fetchOptionsOf(options: CrawlOptions, fetchFunction: FetchLike, sleep: NonNullable<CrawlOptions['sleep']>): FetchPageOptions {
  return {
    fetch: fetchFunction,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxPageBytes,
    maxRedirects: options.maxRedirects,
    retries: options.retries,
    retryBaseDelayMs: options.retryBaseDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    sleep,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** GETs a page, conditionally (its stored validators) when the index has it, checking each hop with `allowHop`. */
function conditionalFetch(options: CrawlOptions, fetchOptions: FetchPageOptions) {
  return async (url: string, allowHop: (url: string) => string | undefined): Promise<FetchedPage> => {
    const known = await options.known?.(url);
    const validators = known === undefined ? undefined : { ...(known.etag ? { etag: known.etag } : {}), ...(known.lastModified ? { lastModified: known.lastModified } : {}) };
    return fetchPage(url, { ...fetchOptions, allowHop, ...(validators === undefined ? {} : { validators }) });
  };
}

/**
 * The crawl's loop: up to `concurrency` requests in flight, paced; each response handled as it
 * arrives. A shared crawl takes what other workers found when its own queue is empty. The run
 * ends when nothing is left (after revalidating the stored pages nothing linked to), when the
 * request budget is spent, when the signal aborts, or when most requests fail.
 */
async function* fetchQueued(run: CrawlRun): AsyncGenerator<SourceItem> {
  const { options, frontier, queue } = run;
  const { counts } = run.pages;
  const dispatcher = createDispatcher(run);
  let revalidated = false;
  for (;;) {
    await dispatcher.fill();
    const { inFlight } = dispatcher;
    if (inFlight.size === 0 && queue.tasks.length === 0 && frontier.shared !== undefined && dispatcher.mayRequest()) {
      const found = await takeShared(run, frontier.shared);
      if (found !== 'none') continue;
    }
    if (inFlight.size === 0) {
      const complete = queue.tasks.length === 0 && options.signal?.aborted !== true;
      if (!complete || revalidated) {
        if (complete) await frontier.finish();
        // Nothing in flight, URLs queued, not interrupted: the request budget ended this run.
        else if (options.signal?.aborted !== true) yield { kind: 'limited', limit: 'maxPages', value: options.maxPages, remaining: queue.tasks.length };
        return;
      }
      // Everything linked was visited: check the stored pages nothing links to any more.
      revalidated = true;
      yield* queue.revalidate((await options.knownUrls?.(run.pages.scope.prefix)) ?? []);
      continue;
    }
    const { task, fetched } = await Promise.race(inFlight.values());
    inFlight.delete(task.url);
    // Interrupted (Ctrl-C): not the page's failure. It stays queued in the frontier, so the next run asks for it again.
    if (fetched.kind === 'failed' && fetched.interrupted === true) continue;
    yield* handlePage(task, fetched, run.pages);
    await frontier.done(task.url);
    reportProgress(run, inFlight.size);
    const siteFailures = counts.failed - counts.missing;
    const judged = counts.outcomes - counts.missing;
    if (judged >= MIN_OUTCOMES && siteFailures / judged > FAILURE_RATIO) {
      yield { kind: 'stopped', reason: `${siteFailures} of ${judged} requests to ${run.pages.scope.origin} failed, so the crawl stopped; fix the site or the URL and run ingest again to resume` };
      return;
    }
  }
}

/**
 * Starts requests politely: at most `concurrency` in flight, their starts `delayMs` apart (in a
 * shared crawl, per host across workers too), at most `maxPages` in this run (the start page
 * counts), none once the signal aborted; a shared crawl fetches only the URLs it claimed.
 */
function createDispatcher(run: CrawlRun) {
  const { options, frontier, queue, delayMs, sleep } = run;
  const clock = options.clock ?? Date.now;
  const inFlight = new Map<string, Promise<{ task: Task; fetched: FetchedPage }>>();
  // The request budget is per ingest run: a crawl stopped at maxPages continues next run.
  let requested = 1;
  let lastRequestAt = Number.NEGATIVE_INFINITY;
  const mayRequest = () => requested < options.maxPages && options.signal?.aborted !== true;
  return {
    inFlight,
    mayRequest,
    async fill(): Promise<void> {
      while (queue.tasks.length > 0 && inFlight.size < options.concurrency && mayRequest()) {
        const wait = lastRequestAt + delayMs - clock();
        if (wait > 0) {
          if (inFlight.size > 0) break; // handle finished requests while waiting
          await sleep(wait, options.signal);
          continue;
        }
        const task = queue.tasks.shift() as Task;
        // A shared crawl fetches only what this worker claimed: another holds it, or fetched it already.
        if (frontier.shared !== undefined && !(await frontier.shared.claim(task.url))) continue;
        requested += 1;
        lastRequestAt = clock();
        const slot = frontier.shared === undefined || delayMs === 0 ? Promise.resolve() : frontier.shared.hostSlot(task.url, delayMs).then((waitMs) => sleep(waitMs, options.signal));
        inFlight.set(task.url, slot.then(() => run.fetchTask(task)).then((fetched) => ({ task, fetched })));
      }
    },
  };
}

/** This worker's queue is empty: take what other workers found, or left when they died; or wait while they still hold some. */
async function takeShared(run: CrawlRun, shared: NonNullable<CrawlFrontier['shared']>): Promise<'taken' | 'waited' | 'none'> {
  const { entries, waiting } = await shared.more(run.options.concurrency * 4);
  run.queue.adopt(entries);
  if (entries.length > 0) return 'taken';
  if (!waiting) return 'none';
  await run.sleep(SHARED_POLL_MS, run.options.signal);
  return 'waited';
}

function reportProgress(run: CrawlRun, inFlight: number): void {
  const { counts } = run.pages;
  run.options.onProgress?.({ fetched: counts.fetched, notModified: counts.notModified, failed: counts.failed, queued: run.queue.tasks.length + inFlight });
}

function scopeRulesOf(options: CrawlOptions): ScopeRules {
  return {
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.maxUrlLength === undefined ? {} : { maxUrlLength: options.maxUrlLength }),
    ...(options.maxRepeatedSegments === undefined ? {} : { maxRepeatedSegments: options.maxRepeatedSegments }),
  };
}

/** The checks each hop passes before it is requested, for pages and for what a rendered page's scripts load. */
function crawlHops(policy: HostPolicy, scope: CrawlScope, robots: RobotsPolicy, rules: ScopeRules, options: CrawlOptions) {
  return {
    /** Pages (and their redirects) are requested only inside the scope and where robots.txt allows. */
    pageHop: (url: string): string | undefined => {
      if (scope.contains(url)) return robots.isAllowed(url) ? undefined : `robots.txt disallows ${url}`;
      return policy.hostRefusal(url) ?? urlTrapReason(url, rules) ?? `it is outside the crawl's scope (${scope.prefix}${options.include?.length || options.exclude?.length ? ', --include and --exclude' : ''})`;
    },
    /** What a rendered page's scripts may load: the crawl's hosts only, where robots.txt allows, never a trap. */
    resourceHop: (url: string): string | undefined => policy.hostRefusal(url) ?? urlTrapReason(url, rules) ?? (robots.isAllowed(url) ? undefined : `robots.txt disallows ${url}`),
  };
}

/** With a renderer, each fetched page's scripts run before extraction; without one, the page as served. */
function renderStep(options: CrawlOptions, fetchFunction: FetchLike, resourceHop: (url: string) => string | undefined): (fetched: FetchedPage) => Promise<FetchedPage> {
  const { renderer } = options;
  return (fetched) =>
    renderer === undefined
      ? Promise.resolve(fetched)
      : renderFetched(fetched, {
          renderer,
          fetch: fetchFunction,
          userAgent: options.userAgent,
          timeoutMs: options.timeoutMs,
          maxBytes: options.maxPageBytes,
          allowResource: resourceHop,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
}
