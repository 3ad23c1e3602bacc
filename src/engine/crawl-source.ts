import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CitedocsConfig } from '../core/config.js';
import type { SourceItem } from '../core/types.js';
import { crawl } from '../sources/crawl/crawler.js';
import { createChromiumRenderer } from '../sources/render/chromium-renderer.js';
import type { PageRenderer } from '../sources/render/page-renderer.js';
import type { CrawlFrontier } from '../sources/crawl/frontier.js';
import { isPostgresUrl } from '../store/open-store.js';
import type { FrontierLeases } from '../store/postgres/pg-frontier-leases.js';
import type { Store } from '../store/store.js';
import type { IngestDependencies, IngestOptions } from './ingest-types.js';
import { ownedUrlsUnder } from './source-resolver.js';
import { loadExtractor } from './stage-loaders.js';

/**
 * A site crawl wired to the store: conditional requests from stored validators, a stored
 * frontier. `runOpened` tells whether this session opened (or resumed) a crawl run.
 */
export function crawlSite(
  startUrl: string,
  options: IngestOptions,
  dependencies: IngestDependencies,
  progress: (fetched: number, queued: number) => void,
): { items: AsyncIterable<SourceItem>; runOpened: () => boolean } {
  const crawlConfig = { ...dependencies.config.crawl };
  if (options.maxPages !== undefined) crawlConfig.maxPages = options.maxPages;
  if (options.maxDepth !== undefined) crawlConfig.maxDepth = options.maxDepth;
  if (options.concurrency !== undefined) crawlConfig.concurrency = options.concurrency;
  if (options.userAgent !== undefined) crawlConfig.userAgent = options.userAgent;
  if (options.include !== undefined) crawlConfig.include = options.include;
  if (options.exclude !== undefined) crawlConfig.exclude = options.exclude;
  if (options.allowedHosts !== undefined) crawlConfig.allowedHosts = options.allowedHosts;
  if (options.allowPrivateHosts !== undefined) crawlConfig.allowPrivateHosts = options.allowPrivateHosts;
  const store = dependencies.openStore;
  const existing = dependencies.existingStore;
  const frontier = storedFrontier(store, startUrl, crawlConfig, dependencies.now ?? (() => new Date()), isPostgresUrl(dependencies.config.dbPath));
  const { render, renderTimeoutMs, renderConcurrency, browserPath, leaseMs: _leaseMs, ...crawlSettings } = crawlConfig;
  // One browser for the whole ingest, launched on the first page that needs it (a re-crawl of 304s never starts it).
  const renderer =
    (options.render ?? render)
      ? createChromiumRenderer({ executablePath: browserPath, concurrency: renderConcurrency, timeoutMs: renderTimeoutMs, maxBytes: crawlConfig.maxPageBytes })
      : undefined;
  const items = crawl({
    ...crawlSettings,
    ...(renderer === undefined ? {} : { renderer }),
    startUrl,
    extract: async (document, url) => (await loadExtractor())(document, url),
    known: async (url) => {
      const page = await existing()?.getPage(url);
      if (page === undefined) return undefined;
      // A page another source owns is fetched in full, so it moves to this one (a 304 would leave it there).
      const owned = dependencies.source === undefined || (await dependencies.source.owns(dependencies.openStore(), url));
      const current = owned && (options.chunking === undefined || page.chunking === options.chunking);
      const validators = current ? { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { lastModified: page.lastModified } : {}) } : {};
      return { links: page.links, contentHash: page.contentHash, ...validators };
    },
    knownUrls: (prefix) => ownedUrlsUnder(dependencies, prefix, 'crawl'),
    frontier,
    onProgress: ({ fetched, queued }) => progress(fetched, queued),
    ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
    ...(dependencies.lookup === undefined ? {} : { lookup: dependencies.lookup }),
    ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { items: renderer === undefined ? items : closingAfter(items, renderer), runOpened: frontier.opened };
}

/** The crawl's items; the renderer is closed when they end, however they end. */
async function* closingAfter(items: AsyncIterable<SourceItem>, renderer: PageRenderer): AsyncGenerator<SourceItem> {
  try {
    yield* items;
  } finally {
    await renderer.close();
  }
}

/** The crawl frontier in the store: a crawl with the same start URL and settings resumes it. */
function storedFrontier(store: () => Store, startUrl: string, settings: CitedocsConfig['crawl'], now: () => Date, shared: boolean): CrawlFrontier & { opened: () => boolean } {
  let runId: number | undefined;
  const id = (): number => {
    if (runId === undefined) throw new Error('the crawl frontier was used before resume()');
    return runId;
  };
  return {
    opened: () => runId !== undefined,
    resume: async () => {
      const scope = { maxDepth: settings.maxDepth ?? null, include: settings.include, exclude: settings.exclude, respectRobots: settings.respectRobots, useSitemaps: settings.useSitemaps };
      const run = await store().crawlState.openRun(startUrl, JSON.stringify(scope), now().toISOString());
      runId = run.id;
      return { queued: run.queued, seen: run.seen };
    },
    add: async (entries) => {
      if (entries.length > 0) await store().crawlState.enqueue(id(), entries);
    },
    done: (url) => store().crawlState.markDone(id(), url),
    finish: () => store().crawlState.finishRun(id(), now().toISOString()),
    ...(shared ? sharedFrontier(store, id, settings.leaseMs) : {}),
  };
}

/**
 * On PostgreSQL, whose frontier can be leased, the crawl is shared: ingest workers
 * on the same site and settings join one run, each fetching what it claims. A worker renews its
 * leases as it goes (at most every third of `crawl.leaseMs`).
 */
function sharedFrontier(store: () => Store, id: () => number, leaseMs: number): Pick<CrawlFrontier, 'shared'> {
  const leasesOf = (): FrontierLeases => {
    const handle = store();
    if (!('frontierLeases' in handle)) throw new Error('a shared crawl needs a store with frontier leases (PostgreSQL)');
    return handle.frontierLeases as FrontierLeases;
  };
  const worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let renewedAt = Date.now();
  const renewIfDue = async () => {
    if (Date.now() - renewedAt < leaseMs / 3) return;
    renewedAt = Date.now();
    await leasesOf().renew(id(), worker, leaseMs);
  };
  return {
    shared: {
      async claim(url) {
        await renewIfDue();
        return leasesOf().claim(id(), worker, url, leaseMs);
      },
      async more(limit) {
        await renewIfDue();
        const entries = await leasesOf().lease(id(), worker, limit, leaseMs);
        return { entries, waiting: entries.length === 0 && (await leasesOf().progress(id())).leased > 0 };
      },
      hostSlot: (url, delayMs) => leasesOf().reserveHostSlot(new URL(url).host, delayMs),
    },
  };
}

