import { afterEach, describe, expect, it } from 'vitest';
import { htmlPage, serveSite, type SiteServer } from '../../testing/http-site.js';
import { parseRetryAfter } from '../../core/http/retry.js';
import { type FetchPageOptions, fetchPage } from './fetch-page.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function site(routes: Parameters<typeof serveSite>[0]) {
  const server = await serveSite(routes);
  servers.push(server);
  return server;
}

const waits: number[] = [];
const options = (overrides: Partial<FetchPageOptions> = {}): FetchPageOptions => ({
  fetch: (input, init) => fetch(input, init), userAgent: 'citedocs-test/1.0', timeoutMs: 5000, maxBytes: 6 * 1024 * 1024,
  maxRedirects: 5, retries: 2, retryBaseDelayMs: 10, maxRetryAfterMs: 5000,
  sleep: async (ms) => void waits.push(ms), ...overrides,
});
afterEach(() => void waits.splice(0));

describe('fetchPage', () => {
  it('retries a 503 with exponential backoff, then returns the page', async () => {
    let calls = 0;
    const server = await site({ '/p': (_, response) => (calls += 1) < 3 ? void response.writeHead(503).end() : void response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('P')) });
    const result = await fetchPage(`${server.base}/p`, options());
    expect(result.kind).toBe('document');
    expect(waits).toEqual([10, 20]);
  });

  it('waits as long as a 429 Retry-After asks, then retries', async () => {
    let calls = 0;
    const server = await site({ '/p': (_, response) => (calls += 1) === 1 ? void response.writeHead(429, { 'retry-after': '2' }).end() : void response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('P')) });
    expect((await fetchPage(`${server.base}/p`, options())).kind).toBe('document');
    expect(waits).toEqual([2000]);
  });

  it('fails instead of stalling when Retry-After is longer than it will wait', async () => {
    const server = await site({ '/p': { status: 429, headers: { 'retry-after': '3600' } } });
    const result = await fetchPage(`${server.base}/p`, options());
    expect(result).toMatchObject({ kind: 'failed', status: 429 });
    expect(result.kind === 'failed' && result.message).toMatch(/retry after 3600 s, longer than the 5 s citedocs waits/);
    expect(waits).toEqual([]);
  });

  it('gives up after the configured retries and says what failed', async () => {
    const server = await site({ '/p': { status: 500 } });
    expect(await fetchPage(`${server.base}/p`, options())).toEqual({ kind: 'failed', url: `${server.base}/p`, status: 500, message: `GET ${server.base}/p returned HTTP 500` });
    expect(waits).toHaveLength(2);
  });

  it('follows redirects and reports the chain', async () => {
    const server = await site({ '/a': { status: 301, location: '/b' }, '/b': { status: 302, location: '/c' }, '/c': htmlPage('C') });
    expect(await fetchPage(`${server.base}/a`, options())).toMatchObject({ kind: 'document', url: `${server.base}/c`, redirects: [`${server.base}/b`, `${server.base}/c`] });
  });

  it('detects a redirect loop instead of following it', async () => {
    const server = await site({ '/a': { status: 302, location: '/b' }, '/b': { status: 302, location: '/a' } });
    const result = await fetchPage(`${server.base}/a`, options());
    expect(result.kind === 'failed' && result.message).toBe(`GET ${server.base}/a is a redirect loop (${server.base}/a → ${server.base}/b → ${server.base}/a)`);
  });

  it('stops after the maximum number of redirects', async () => {
    const routes = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`/r${index}`, { status: 302, location: `/r${index + 1}` }]));
    const server = await site(routes);
    const result = await fetchPage(`${server.base}/r0`, options({ maxRedirects: 3 }));
    expect(result.kind === 'failed' && result.message).toMatch(/redirects more than 3 times/);
  });

  it('sends the stored validators and reports a 304 as not modified', async () => {
    const server = await site({ '/p': (request, response) => void response.writeHead(request.headers['if-none-match'] === '"v1"' ? 304 : 200, { 'content-type': 'text/html' }).end() });
    const result = await fetchPage(`${server.base}/p`, options({ validators: { etag: '"v1"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' } }));
    expect(result).toEqual({ kind: 'not-modified', url: `${server.base}/p` });
    expect(server.requests[0]).toMatchObject({ ifNoneMatch: '"v1"', ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT', userAgent: 'citedocs-test/1.0' });
  });

  it('accepts Markdown and plain text, and reads a .md served as text/plain as Markdown', async () => {
    const server = await site({
      '/a.md': { status: 200, type: 'text/plain; charset=utf-8', body: '# A' },
      '/b': { status: 200, type: 'text/markdown', body: '# B' },
      '/c.txt': { status: 200, type: 'text/plain', body: 'C' },
    });
    expect(await fetchPage(`${server.base}/a.md`, options())).toMatchObject({ kind: 'document', format: 'markdown', body: '# A' });
    expect(await fetchPage(`${server.base}/b`, options())).toMatchObject({ format: 'markdown' });
    expect(await fetchPage(`${server.base}/c.txt`, options())).toMatchObject({ format: 'text' });
  });

  it('decodes a non-UTF-8 page by its <meta charset> when the header says nothing', async () => {
    const body = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"><title>x</title></head><body><p>'), Buffer.from([0x93, 0x63, 0x61, 0x66, 0xe9, 0x94]), Buffer.from('</p></body></html>')]);
    const server = await site({ '/p': { status: 200, type: 'text/html', body } });
    const result = await fetchPage(`${server.base}/p`, options());
    expect(result.kind === 'document' && result.body).toContain('“café”');
  });

  it('reads a 5 MB page under the size limit and skips one over it', async () => {
    const big = `<html><body><main><h1>Big</h1><p>${'word '.repeat(1_000_000)}</p></main></body></html>`;
    const server = await site({ '/big': { status: 200, type: 'text/html', body: big } });
    expect((await fetchPage(`${server.base}/big`, options())).kind).toBe('document');
    const limited = await fetchPage(`${server.base}/big`, options({ maxBytes: 1024 * 1024 }));
    expect(limited.kind === 'failed' && limited.message).toMatch(/over the 1048576-byte limit; skipped/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
