import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import { fetchResultPages, type WebFetchOptions } from './fetch-results.js';
import { openWebCache, type WebCache } from './web-cache.js';

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

async function site(routes: Parameters<typeof serveSite>[0]): Promise<SiteServer> {
  const server = await serveSite(routes);
  opened.push(server);
  return server;
}

function cacheAt(options: { ttlSeconds?: number; failureTtlSeconds?: number } = {}): WebCache {
  const cache = openWebCache(join(mkdtempSync(join(tmpdir(), 'citedocs-fetch-results-')), 'cache.db'), { ttlSeconds: options.ttlSeconds ?? 3600, failureTtlSeconds: options.failureTtlSeconds ?? 600 });
  opened.push(cache);
  return cache;
}

function options(overrides: Partial<WebFetchOptions> = {}): WebFetchOptions & { waits: number[] } {
  const waits: number[] = [];
  return {
    fetch: (input, init) => fetch(input, init),
    userAgent: 'citedocs/0.1 (+test)',
    timeoutMs: 2000,
    maxBytes: 1_000_000,
    maxRedirects: 5,
    retries: 0,
    retryBaseDelayMs: 10,
    maxRetryAfterMs: 1000,
    concurrency: 4,
    perHostConcurrency: 2,
    respectRobots: true,
    maxCrawlDelayMs: 5000,
    guarded: false,
    sleep: async (ms) => void waits.push(ms),
    waits,
    ...overrides,
  };
}

const page = (title: string) => `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Text.</p></main></body></html>`;

describe('fetchResultPages', () => {
  it('returns documents and failures in the order of the URLs, reading robots.txt once per site', async () => {
    const server = await site({ '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' }, '/a': page('A'), '/b': page('B'), '/private/c': page('C') });
    const results = await fetchResultPages([`${server.base}/a`, `${server.base}/missing`, `${server.base}/private/c`, `${server.base}/b`], options());
    expect(results.map((result) => result.document?.url ?? result.failure?.reason)).toEqual([`${server.base}/a`, 'fetch', 'robots', `${server.base}/b`]);
    expect(server.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
    expect(server.requests.map((request) => request.path)).not.toContain('/private/c');
  });

  it('revalidates a stale cached page with its ETag and reuses the body on 304', async () => {
    const server = await site({
      '/robots.txt': { status: 404 },
      '/doc': (request, response) => {
        if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304).end();
        response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(page('Doc'));
      },
    });
    const cache = cacheAt({ ttlSeconds: 0 });
    const first = await fetchResultPages([`${server.base}/doc`], options({ cache }));
    expect(first[0]).toMatchObject({ fromCache: false, document: { etag: '"v1"' } });
    const second = await fetchResultPages([`${server.base}/doc`], options({ cache }));
    expect(server.requests.filter((request) => request.path === '/doc').map((request) => request.ifNoneMatch)).toEqual([undefined, '"v1"']);
    expect(second[0]).toMatchObject({ fromCache: true, document: { body: first[0]?.document?.body } });
  });

  it('serves the stale copy when revalidating it fails (a 503), and keeps it', async () => {
    let up = true;
    const server = await site({
      '/robots.txt': { status: 404 },
      '/doc': (_request, response) => (up ? response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(page('Doc')) : response.writeHead(503).end()),
    });
    const cache = cacheAt({ ttlSeconds: 0 });
    await fetchResultPages([`${server.base}/doc`], options({ cache }));
    up = false;
    const [stale] = await fetchResultPages([`${server.base}/doc`], options({ cache }));
    expect(stale).toMatchObject({ fromCache: true, document: { etag: '"v1"' } });
    expect(cache.fetched(`${server.base}/doc`, false)?.page.kind).toBe('document');
  });

  it('remembers a failed fetch for the failure TTL, so a dead page is not asked again at once', async () => {
    const server = await site({ '/robots.txt': { status: 404 }, '/down': { status: 503 } });
    const cache = cacheAt();
    await fetchResultPages([`${server.base}/down`], options({ cache }));
    const again = await fetchResultPages([`${server.base}/down`], options({ cache }));
    expect(again[0]).toMatchObject({ fromCache: true, failure: { reason: 'fetch' } });
    expect(server.requests.filter((request) => request.path === '/down')).toHaveLength(1);
  });

  it('spaces requests to one site by its Crawl-delay, and skips a site asking for more than maxCrawlDelayMs', async () => {
    const polite = await site({ '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 2\n' }, '/a': page('A'), '/b': page('B'), '/c': page('C') });
    // Two slots for the host, but each start is reserved before waiting: 0, 2 and 4 s.
    const opts = options({ perHostConcurrency: 2 });
    const results = await fetchResultPages([`${polite.base}/a`, `${polite.base}/b`, `${polite.base}/c`], opts);
    expect(results.every((result) => result.document !== undefined)).toBe(true);
    const waits = [...opts.waits].sort((a, b) => a - b);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThan(1500);
    expect(waits[1]).toBeGreaterThan(3500);
    // Fresh in the cache: no robots.txt, no request, no wait.
    const cache = cacheAt();
    await fetchResultPages([`${polite.base}/a`], options({ cache }));
    const requests = polite.requests.length;
    const cached = options({ cache });
    const [again] = await fetchResultPages([`${polite.base}/a`], cached);
    expect(again?.fromCache).toBe(true);
    expect(polite.requests.length).toBe(requests);
    expect(cached.waits).toEqual([]);
    const slow = await site({ '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 30\n' }, '/a': page('A') });
    const [skipped] = await fetchResultPages([`${slow.base}/a`], options());
    expect(skipped?.failure).toMatchObject({ reason: 'robots', message: expect.stringContaining('30 s between requests') });
    expect(slow.requests.map((request) => request.path)).toEqual(['/robots.txt']);
  });

  it('keeps at most perHostConcurrency requests in flight to one site', async () => {
    let inFlight = 0;
    let most = 0;
    const slowPage = (_request: IncomingMessage, response: ServerResponse) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.writeHead(200, { 'content-type': 'text/html' }).end(page('P'));
      }, 40);
    };
    const server = await site({ '/robots.txt': { status: 404 }, '/1': slowPage, '/2': slowPage, '/3': slowPage, '/4': slowPage });
    await fetchResultPages(['/1', '/2', '/3', '/4'].map((path) => `${server.base}${path}`), options({ perHostConcurrency: 2, concurrency: 8 }));
    expect(most).toBe(2);
  });
});
