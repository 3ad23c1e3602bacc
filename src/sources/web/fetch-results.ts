import pLimit from 'p-limit';
import { abortableSleep } from '../../core/http/retry.js';
import { type FetchedPage, type FetchPageOptions, fetchPage } from '../crawl/fetch-page.js';
import { type RobotsPolicy, robotsFetchOptions, robotsPolicyOf, robotsUrlOf } from '../crawl/robots.js';
import { PRIVATE_HOST_PHRASE } from './host-guard.js';
import type { CachedFetch, WebCache } from './web-cache.js';

export interface WebFetchOptions extends Omit<FetchPageOptions, 'validators' | 'acceptXml' | 'anyType'> {
  /** Requests in flight at once, over all hosts. */
  concurrency: number;
  /** Requests in flight at once to one host (a robots.txt Crawl-delay makes it one, spaced). */
  perHostConcurrency: number;
  respectRobots: boolean;
  /** A Crawl-delay longer than this is not waited for: the page is skipped. */
  maxCrawlDelayMs: number;
  cache?: WebCache;
  /** Whether the fetch refuses private hosts: a guarded run is never served what an unguarded one cached. */
  guarded: boolean;
}

export type FetchFailure = { reason: 'fetch' | 'robots' | 'refused'; message: string };

export interface WebFetchResult {
  url: string;
  /** The document, when it was fetched (or found fresh in the cache). */
  document?: Extract<FetchedPage, { kind: 'document' }>;
  failure?: FetchFailure;
  /** Whether it came from the cache without a request (or after a 304). */
  fromCache: boolean;
}

/**
 * Fetches search-result pages in parallel: bounded overall and per origin, robots.txt read once
 * per origin and obeyed, a Crawl-delay honoured, each fetch bounded in time, size and type.
 * A failure is reported with its page, never thrown, so one dead site costs one timeout.
 * Results come back in the order of `urls`.
 */
export async function fetchResultPages(urls: readonly string[], options: WebFetchOptions): Promise<WebFetchResult[]> {
  const overall = pLimit(Math.max(1, options.concurrency));
  const hosts = new Map<string, { limit: ReturnType<typeof pLimit>; lastStart: number }>();
  const robots = new Map<string, Promise<{ policy: RobotsPolicy; fetched: CachedFetch }>>();
  const sleep = options.sleep ?? abortableSleep;

  const cachedFetch = async (url: string, extra: Partial<FetchPageOptions> = {}): Promise<{ page: CachedFetch; fromCache: boolean }> => {
    const stored = options.cache?.fetched(url, options.guarded);
    if (stored?.fresh === true && !isRefusal(stored.page)) return { page: stored.page, fromCache: true };
    const validators = stored?.page.kind === 'document' ? { ...(stored.page.etag === undefined ? {} : { etag: stored.page.etag }), ...(stored.page.lastModified === undefined ? {} : { lastModified: stored.page.lastModified }) } : undefined;
    const fetched = await fetchPage(url, { ...options, ...extra, ...(validators === undefined ? {} : { validators }) });
    if (fetched.kind === 'not-modified') {
      if (stored !== undefined) {
        options.cache?.refresh(url);
        return { page: stored.page, fromCache: true };
      }
      return { page: { kind: 'failed', url, message: `GET ${url} answered 304 to a request that was not conditional` }, fromCache: false };
    }
    // A stale copy beats a failure to revalidate it (a timeout, a 5xx): served, and kept.
    if (fetched.kind === 'failed' && stored?.page.kind === 'document' && !isRefusal(fetched)) return { page: stored.page, fromCache: true };
    // An interrupted fetch and a refused host say nothing about the page: not remembered.
    if (options.signal?.aborted !== true && !isRefusal(fetched)) options.cache?.putFetched(url, fetched, options.guarded);
    return { page: fetched, fromCache: false };
  };

  const policyOf = (origin: string) => {
    let policy = robots.get(origin);
    if (policy === undefined) {
      policy = cachedFetch(robotsUrlOf(origin), robotsFetchOptions(options)).then(({ page }) => ({ policy: robotsPolicyOf(origin, page, options.userAgent), fetched: page }));
      robots.set(origin, policy);
    }
    return policy;
  };

  const fetchOne = async (url: string): Promise<WebFetchResult> => {
    const origin = new URL(url).origin;
    let host = hosts.get(origin);
    if (host === undefined) {
      host = { limit: pLimit(Math.max(1, options.perHostConcurrency)), lastStart: 0 };
      hosts.set(origin, host);
    }
    const slot = host;
    return slot.limit(async () => {
      // A page fresh in the cache costs no request: no robots.txt, no Crawl-delay.
      const stored = options.cache?.fetched(url, options.guarded);
      if (stored?.fresh === true && stored.page.kind === 'document') return { url, document: stored.page, fromCache: true };
      if (options.respectRobots) {
        const { policy, fetched } = await policyOf(origin);
        if (policy.blocked !== undefined) return { url, failure: unreachable(origin, fetched), fromCache: false };
        if (!policy.isAllowed(url)) return { url, failure: { reason: 'robots', message: `${origin}/robots.txt disallows ${url} for citedocs; skipped` }, fromCache: false };
        const delay = policy.crawlDelayMs ?? 0;
        if (delay > options.maxCrawlDelayMs) return { url, failure: { reason: 'robots', message: `${origin}/robots.txt asks for ${Math.round(delay / 1000)} s between requests, more than a web search waits; skipped` }, fromCache: false };
        // The start is reserved before waiting, so requests sharing the host's slots stay `delay` apart.
        const now = Date.now();
        const startAt = Math.max(now, slot.lastStart + delay);
        slot.lastStart = startAt;
        if (startAt > now) await sleep(startAt - now, options.signal);
      } else slot.lastStart = Date.now();
      const { page, fromCache } = await cachedFetch(url);
      if (page.kind === 'failed') return { url, failure: { reason: isRefusal(page) ? 'refused' : 'fetch', message: page.message }, fromCache };
      return { url, document: page, fromCache };
    });
  };

  return Promise.all(urls.map((url) => overall(() => fetchOne(url))));
}

/** Why a site whose robots.txt could not be read is skipped: refused (a private host), or down. */
function unreachable(origin: string, robots: CachedFetch): FetchFailure {
  const message = robots.kind === 'failed' ? robots.message : 'robots.txt could not be read';
  if (robots.kind === 'failed' && isRefusal(robots)) return { reason: 'refused', message };
  if (robots.kind === 'failed' && robots.status !== undefined) return { reason: 'robots', message: `${message}; until ${origin}/robots.txt can be read the site counts as disallowed (RFC 9309)` };
  return { reason: 'fetch', message: `${origin} could not be reached: ${message}` };
}

function isRefusal(page: CachedFetch): boolean {
  return page.kind === 'failed' && page.message.includes(PRIVATE_HOST_PHRASE);
}
