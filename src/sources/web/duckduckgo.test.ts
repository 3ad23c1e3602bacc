import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capturedResultsPage, capturedTargets, rewriteTargets } from '../../testing/fake-web.js';
import { createDuckDuckGoBackend, type DuckDuckGoOptions } from './duckduckgo.js';
import { SearchBlockedError, type WebSearchOutcome } from './search-backend.js';

// Real captured DuckDuckGo pages (fixtures/README.md), served by a stand-in endpoint on 127.0.0.1.
const GRAPHOLOGY = capturedResultsPage('ddg_results_graphology_typescript.html');
const DEXIE = capturedResultsPage('ddg_results_indexeddb_wrapper_dexie.html');
const EMPTY = capturedResultsPage('ddg_empty_no_more_results_eino.html');
const ANOMALY = capturedResultsPage('ddg_anomaly_challenge_202_clele.html');
const GRAPHOLOGY_VQD = '4-99686158960374144569884447090575522578';

/** A different real page whose targets are renamed, so it plays page 2 with URLs page 1 did not list. */
function secondPage(prefix = 'https://page-two.example/'): { html: string; urls: string[] } {
  const original = capturedResultsPage('ddg_results_client_side_graph_database.html');
  const urls = capturedTargets(original).map((_, index) => `${prefix}${index + 1}`);
  return { html: rewriteTargets(original, new Map(capturedTargets(original).map((url, index) => [url, urls[index] as string]))), urls };
}

interface Received {
  method: string;
  url: URL;
  body: string;
  contentType: string | undefined;
  userAgent: string | undefined;
}
interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The search endpoint: answers the nth request (0-based) with `answer(n, request)`. */
async function endpoint(answer: (index: number, request: Received) => Answer): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: Received = {
        method: request.method ?? '',
        url: new URL(request.url ?? '/', 'http://127.0.0.1'),
        body: Buffer.concat(chunks).toString('utf8'),
        contentType: request.headers['content-type'],
        userAgent: request.headers['user-agent'],
      };
      received.push(seen);
      const reply = answer(received.length - 1, seen);
      response.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=UTF-8', ...reply.headers }).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/html/`, received };
}

function backend(searchUrl: string, overrides: Partial<DuckDuckGoOptions> = {}): { search: (query: string, maxResults: number, extra?: object) => Promise<WebSearchOutcome>; waits: number[] } {
  const waits: number[] = [];
  const ddg = createDuckDuckGoBackend({
    searchUrl,
    fetch: (input, init) => fetch(input, init),
    userAgent: 'citedocs-test/1.0',
    timeoutMs: 5000,
    attempts: 3,
    backoffMs: 100,
    maxBackoffMs: 10_000,
    sleep: async (ms) => void waits.push(ms),
    ...overrides,
  });
  return { search: (query, maxResults, extra = {}) => ddg.search(query, { maxResults, ...extra }), waits };
}

async function blocked(promise: Promise<unknown>): Promise<SearchBlockedError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(SearchBlockedError);
  return error as SearchBlockedError;
}

describe('createDuckDuckGoBackend: requests and paging', () => {
  it('asks for the first page with a GET carrying q, kl=wt-wt and kp=-1 by default, and ranks the hits from 1', async () => {
    const server = await endpoint(() => ({ body: DEXIE }));
    const outcome = await backend(server.url).search('indexeddb wrapper', 10);
    expect(server.received).toHaveLength(1);
    const [first] = server.received;
    expect(first?.method).toBe('GET');
    expect(first?.url.pathname).toBe('/html/');
    expect(Object.fromEntries(first?.url.searchParams ?? [])).toEqual({ q: 'indexeddb wrapper', kl: 'wt-wt', kp: '-1' });
    expect(first?.userAgent).toBe('citedocs-test/1.0');
    expect(outcome.hits.map((hit) => hit.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outcome.hits[0]).toEqual({ url: 'https://github.com/dexie/Dexie.js/', title: 'GitHub - dexie/Dexie.js: A Minimalistic Wrapper for IndexedDB', snippet: expect.stringContaining('Minimalistic Wrapper') as string, rank: 1 });
    expect(outcome).toMatchObject({ warnings: [], requests: 1 });
  });

  it.each([
    ['strict', 'us-en', '1'],
    ['moderate', 'de-de', '-1'],
    ['off', 'fr-fr', '-2'],
  ] as const)('maps safeSearch %s and region %s to kp=%s and kl', async (safeSearch, region, kp) => {
    const server = await endpoint(() => ({ body: DEXIE }));
    await backend(server.url).search('dexie', 5, { safeSearch, region });
    expect(server.received[0]?.url.searchParams.get('kp')).toBe(kp);
    expect(server.received[0]?.url.searchParams.get('kl')).toBe(region);
  });

  it('POSTs the Next form of page 1 (s=10, dc, vqd, …) form-urlencoded for page 2 and continues the ranks at 11', async () => {
    const page2 = secondPage();
    const server = await endpoint((index) => ({ body: index === 0 ? GRAPHOLOGY : page2.html }));
    const outcome = await backend(server.url).search('graphology', 20, { safeSearch: 'strict' });
    expect(server.received.map((request) => request.method)).toEqual(['GET', 'POST']);
    const post = server.received[1];
    expect(post?.url.pathname).toBe('/html/');
    expect(post?.url.search).toBe('');
    expect(post?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(post?.body))).toEqual({
      q: 'graphology javascript graph library typescript browser features',
      s: '10',
      nextParams: '',
      v: 'l',
      o: 'json',
      dc: '11',
      api: 'd.js',
      vqd: GRAPHOLOGY_VQD,
      kl: 'wt-wt',
      kp: '1',
    });
    expect(outcome.hits).toHaveLength(20);
    expect(outcome.hits[0]?.url).toBe('https://graphology.github.io/');
    expect(outcome.hits.slice(10).map((hit) => [hit.rank, hit.url])).toEqual(page2.urls.map((url, index) => [index + 11, url]));
    expect(outcome.requests).toBe(2);
  });

  it('stops at maxResults: 15 results take two pages and keep only five of the second', async () => {
    const page2 = secondPage();
    const server = await endpoint((index) => ({ body: index === 0 ? GRAPHOLOGY : page2.html }));
    const outcome = await backend(server.url).search('graphology', 15);
    expect(outcome.hits.map((hit) => hit.url).slice(10)).toEqual(page2.urls.slice(0, 5));
    expect(outcome.hits.at(-1)?.rank).toBe(15);
    expect(server.received).toHaveLength(2);
  });

  it('asks for one page only when it holds enough results', async () => {
    const server = await endpoint(() => ({ body: GRAPHOLOGY }));
    const outcome = await backend(server.url).search('graphology', 3);
    expect(outcome.hits.map((hit) => hit.rank)).toEqual([1, 2, 3]);
    expect(server.received).toHaveLength(1);
  });

  it('stops after the second request when the server repeats the same page (no new URL), never looping', async () => {
    const server = await endpoint(() => ({ body: GRAPHOLOGY }));
    const outcome = await backend(server.url).search('graphology', 100);
    expect(server.received).toHaveLength(2);
    expect(outcome.hits).toHaveLength(10);
    expect(outcome.requests).toBe(2);
  });

  it('stops after ceil(maxResults/10)+2 pages when each page adds a single new URL', async () => {
    const original = capturedTargets(GRAPHOLOGY)[0] as string;
    const server = await endpoint((index) => ({ body: index === 0 ? GRAPHOLOGY : rewriteTargets(GRAPHOLOGY, new Map([[original, `https://drip.example/${index}`]])) }));
    const outcome = await backend(server.url).search('graphology', 20);
    expect(server.received).toHaveLength(4);
    expect(outcome.hits.slice(10).map((hit) => hit.url)).toEqual(['https://drip.example/1', 'https://drip.example/2', 'https://drip.example/3']);
  });

  it('reads the real "No more results." page as zero hits, without an error or a retry', async () => {
    const server = await endpoint(() => ({ body: EMPTY }));
    const { search, waits } = backend(server.url);
    expect(await search('eino', 10)).toEqual({ hits: [], warnings: [], requests: 1 });
    expect(waits).toEqual([]);
  });
});

describe('createDuckDuckGoBackend: refusals', () => {
  it('retries the HTTP 202 bot challenge `attempts` times with doubling waits, then throws SearchBlockedError naming it', async () => {
    const server = await endpoint(() => ({ status: 202, body: ANOMALY }));
    const { search, waits } = backend(server.url, { attempts: 4, backoffMs: 250 });
    const error = await blocked(search('test datasheet', 10));
    expect(server.received).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1000]);
    expect(error.message).toContain('bot challenge');
    expect(error.message).toContain('Unfortunately, bots use DuckDuckGo too.');
    expect(error.message).toContain('HTTP 202');
    expect(error.message).toContain('(4 tries)');
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('caps the doubling backoff at maxBackoffMs', async () => {
    const server = await endpoint(() => ({ status: 202, body: ANOMALY }));
    const { search, waits } = backend(server.url, { attempts: 5, backoffMs: 1000, maxBackoffMs: 3000 });
    await blocked(search('q', 10));
    expect(waits).toEqual([1000, 2000, 3000, 3000]);
  });

  it('waits the 7000 ms a 429 Retry-After: 7 asks for, then uses the page that follows', async () => {
    const server = await endpoint((index) => (index === 0 ? { status: 429, headers: { 'retry-after': '7' } } : { body: DEXIE }));
    const { search, waits } = backend(server.url, { maxBackoffMs: 60_000 });
    const outcome = await search('dexie', 10);
    expect(waits).toEqual([7000]);
    expect(outcome).toMatchObject({ warnings: [], requests: 2 });
    expect(outcome.hits).toHaveLength(10);
  });

  it('waits no longer than maxBackoffMs for a Retry-After, and reports the asked wait when it gives up', async () => {
    const server = await endpoint(() => ({ status: 429, headers: { 'retry-after': '7' } }));
    const { search, waits } = backend(server.url, { attempts: 2, maxBackoffMs: 5000 });
    const error = await blocked(search('dexie', 10));
    expect(waits).toEqual([5000]);
    expect(error.message).toContain('HTTP 429 (too many requests)');
    expect(error.retryAfterSeconds).toBe(7);
  });

  it.each([403, 503])('retries an HTTP %i answer', async (status) => {
    const server = await endpoint((index) => (index === 0 ? { status, body: 'nope' } : { body: DEXIE }));
    const { search, waits } = backend(server.url);
    expect((await search('dexie', 10)).hits).toHaveLength(10);
    expect(waits).toEqual([100]);
  });

  it('returns the page-1 hits with a warning when page 2 stays blocked', async () => {
    const server = await endpoint((index) => (index === 0 ? { body: GRAPHOLOGY } : { status: 429 }));
    const { search, waits } = backend(server.url, { attempts: 2 });
    const outcome = await search('graphology', 30);
    expect(outcome.hits.map((hit) => hit.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(outcome.requests).toBe(3);
    expect(waits).toEqual([100]);
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toMatch(/stopped after 10 results: .*HTTP 429.*\(2 tries\)/);
  });

  it('treats a body that stalls past the timeout as a refusal: retried, then page-1 hits kept with a warning', async () => {
    let requests = 0;
    const server = createServer((request, response) => {
      requests += 1;
      request.resume();
      if (requests === 1) return void response.writeHead(200, { 'content-type': 'text/html' }).end(GRAPHOLOGY);
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><body>'); // …and never ends.
    });
    const sockets = new Set<Socket>();
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => { for (const socket of sockets) socket.destroy(); server.close(() => resolve()); }) });
    const { search } = backend(`http://127.0.0.1:${(server.address() as AddressInfo).port}/html/`, { attempts: 2, timeoutMs: 300 });
    const outcome = await search('graphology', 20);
    expect(outcome.hits).toHaveLength(10);
    expect(requests).toBe(3);
    expect(outcome.warnings[0]).toMatch(/failed while sending its page: timed out after 300 ms.*\(2 tries\)/);
  });

  it('refuses a body over 5 MB without reading the rest: it is not a results page', async () => {
    const server = await endpoint(() => ({ body: 'x'.repeat(6 * 1024 * 1024) }));
    const { search } = backend(server.url, { attempts: 1 });
    const error = await blocked(search('dexie', 10));
    expect(error.message).toMatch(/sent a page over 5242880 bytes/);
  });

  it('throws SearchBlockedError when the endpoint is unreachable (a closed port)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { search, waits } = backend(`http://127.0.0.1:${port}/html/`, { attempts: 2 });
    const error = await blocked(search('dexie', 10));
    expect(error.message).toContain(`http://127.0.0.1:${port}/html/ could not be reached`);
    expect(error.message).toContain('(2 tries)');
    expect(waits).toEqual([100]);
  });

  it('ends with the abort reason when the caller aborts during a backoff, sending no further request', async () => {
    const server = await endpoint(() => ({ status: 429 }));
    const controller = new AbortController();
    const reason = new Error('stop now');
    const { search } = backend(server.url, { sleep: async () => controller.abort(reason) });
    await expect(search('dexie', 10, { signal: controller.signal })).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });
});
