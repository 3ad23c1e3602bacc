import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SourceError } from '../../core/errors.js';
import type { SourceItem } from '../../core/types.js';
import { extractHtml } from '../../extract/extract-html.js';
import { crawl, type CrawlOptions } from './crawler.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(handler: Handler): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const html = (title: string, links: string[] = [], extra = '') =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>About ${title}.</p>${extra}${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</main></body></html>`;

/** A site from a map of path → [status, content-type, body] or a redirect location. */
function site(pages: Record<string, string | { status: number; type?: string; body?: string; location?: string }>, requests: string[] = []): Handler {
  return (request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const page = pages[path];
    if (page === undefined) return void response.writeHead(404).end('missing');
    if (typeof page === 'string') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    response.writeHead(page.status, { ...(page.type ? { 'content-type': page.type } : {}), ...(page.location ? { location: page.location } : {}) }).end(page.body ?? '');
  };
}

const options = (startUrl: string, overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  startUrl, maxPages: 100, concurrency: 4, delayMs: 0, timeoutMs: 5000, maxPageBytes: 1_000_000, maxRedirects: 10,
  retries: 0, retryBaseDelayMs: 10, maxRetryAfterMs: 1000, userAgent: 'citedocs-test/1.0',
  extract: (document, url) => extractHtml(document.body, url), ...overrides,
});

async function collect(items: AsyncIterable<SourceItem>) {
  const pages: string[] = [];
  const errors: string[] = [];
  for await (const item of items) {
    if (item.kind === 'page') pages.push(item.page.url);
    else if (item.kind === 'error') errors.push(item.message);
  }
  return { pages: pages.sort(), errors };
}

describe('crawl', () => {
  it('follows links breadth-first under the start folder on the same origin only', async () => {
    const requests: string[] = [];
    const base = await serve(site({
      '/docs/': html('Home', ['a.html', 'sub/', '/blog/x.html', 'https://elsewhere.example/y.html', 'image.png', 'mailto:a@b.c']),
      '/docs/a.html': html('A', ['../docs/sub/b.html#frag', 'missing.html']),
      '/docs/sub/': html('Sub', ['b.html']),
      '/docs/sub/b.html': html('B'),
      '/blog/x.html': html('Blog'),
    }, requests));
    const result = await collect(crawl(options(`${base}/docs/`)));
    expect(result.pages).toEqual([`${base}/docs/`, `${base}/docs/a.html`, `${base}/docs/sub/`, `${base}/docs/sub/b.html`]);
    expect(result.errors).toEqual([`GET ${base}/docs/missing.html returned HTTP 404`]);
    expect(requests).not.toContain('/blog/x.html');
    expect(requests).not.toContain('/docs/image.png');
    expect(requests.filter((path) => path === '/docs/sub/b.html')).toHaveLength(1);
  });

  it('takes its scope from where the start URL redirects to, and records pages at their final URL', async () => {
    const base = await serve(site({
      '/docs': { status: 301, location: '/docs/' },
      '/docs/': html('Home', ['old.html']),
      '/docs/old.html': { status: 302, location: '/docs/new.html' },
      '/docs/new.html': html('New'),
    }));
    const result = await collect(crawl(options(`${base}/docs`)));
    expect(result.pages).toEqual([`${base}/docs/`, `${base}/docs/new.html`]);
  });

  it('scopes to the folder of the URL as given when the start page only gained a trailing slash and links to nothing inside its own folder (Docusaurus: /docs/intro -> /docs/intro/)', async () => {
    const requests: string[] = [];
    const pages = {
      '/docs/intro': { status: 301, location: '/docs/intro/' },
      '/docs/intro/': html('Intro', ['/docs/guide/', '/docs/api/', '/blog/']),
      '/docs/guide/': html('Guide', ['/docs/intro/']),
      '/docs/api/': html('API'),
      '/blog/': html('Blog'),
      // A folder URL that holds its own pages keeps its scope.
      '/manual': { status: 301, location: '/manual/' },
      '/manual/': html('Manual', ['one.html', '/docs/guide/']),
      '/manual/one.html': html('One'),
    };
    const base = await serve(site(pages, requests));
    expect((await collect(crawl(options(`${base}/docs/intro`)))).pages).toEqual([`${base}/docs/api/`, `${base}/docs/guide/`, `${base}/docs/intro/`]);
    expect(requests).not.toContain('/blog/');
    expect((await collect(crawl(options(`${base}/manual`)))).pages).toEqual([`${base}/manual/`, `${base}/manual/one.html`]);
  });

  it('widens that way only to a folder that holds the start page, never to the whole site, and reads a link to the page itself as no sign', async () => {
    const base = await serve(site({
      '/docs/intro?ref=x': { status: 301, location: '/docs/intro/?ref=x' },
      '/docs/intro/?ref=x': html('Intro', ['/docs/intro/', 'index.html', '/docs/guide/']),
      '/docs/intro': { status: 301, location: '/docs/intro/' },
      '/docs/intro/': html('Intro', ['/docs/guide/']),
      '/docs/guide/': html('Guide'),
      // A landing page at /docs/ that links only elsewhere on the site keeps /docs/.
      '/docs': { status: 301, location: '/docs/' },
      '/docs/': html('Docs', ['/api/a.html', '/blog/']),
      '/api/a.html': html('A'),
      '/blog/': html('Blog'),
    }));
    expect((await collect(crawl(options(`${base}/docs/intro?ref=x`)))).pages).toEqual([`${base}/docs/guide/`, `${base}/docs/intro/`, `${base}/docs/intro/?ref=x`]);
    expect((await collect(crawl(options(`${base}/docs`)))).pages).toEqual([`${base}/docs/`]);
    // --include that leaves the start page out of the wider folder keeps the folder it is in.
    expect((await collect(crawl(options(`${base}/docs/intro`, { include: ['/docs/guide/**'] })))).pages).toEqual([`${base}/docs/intro/`]);
  });

  it('records the URLs that redirect to a page as its aliases', async () => {
    const base = await serve(site({ '/': html('Home', ['old.html']), '/old.html': { status: 301, location: '/mid.html' }, '/mid.html': { status: 302, location: '/new.html' }, '/new.html': html('New') }));
    const aliases: Record<string, string[] | undefined> = {};
    for await (const item of crawl(options(`${base}/`))) if (item.kind === 'page') aliases[item.page.url] = item.page.aliases;
    expect(aliases[`${base}/new.html`]?.sort()).toEqual([`${base}/mid.html`, `${base}/old.html`]);
  });

  it('never requests where a redirect leaves the scope, and says so', async () => {
    const requests: string[] = [];
    const base = await serve(site({ '/docs/': html('Home', ['out.html']), '/docs/out.html': { status: 302, location: '/private/' }, '/private/': html('Private') }, requests));
    const result = await collect(crawl(options(`${base}/docs/`)));
    expect(result.pages).toEqual([`${base}/docs/`]);
    expect(result.errors[0]).toBe(`GET ${base}/docs/out.html redirects to ${base}/private/, which was not followed: it is outside the crawl's scope (${base}/docs/)`);
    expect(requests).not.toContain('/private/');
  });

  it('stores a page served at two URLs once (folder and its index.html)', async () => {
    const home = html('Home', ['index.html', './']);
    const base = await serve(site({ '/docs/': home, '/docs/index.html': home }));
    expect((await collect(crawl(options(`${base}/docs/`)))).pages).toEqual([`${base}/docs/`]);
  });

  it('stores guide/index.html under its folder URL guide/, whichever link comes first', async () => {
    const guide = html('Guide');
    const requests: string[] = [];
    const base = await serve(site({ '/docs/': html('Home', ['guide/index.html', 'guide/']), '/docs/guide/': guide, '/docs/guide/index.html': guide }, requests));
    expect((await collect(crawl(options(`${base}/docs/`)))).pages).toEqual([`${base}/docs/`, `${base}/docs/guide/`]);
    expect(requests).not.toContain('/docs/guide/index.html');
  });

  it('falls back to the index file when the server has no folder index', async () => {
    const base = await serve(site({ '/docs/': html('Home', ['guide/index.html']), '/docs/guide/index.html': html('Guide') }));
    const result = await collect(crawl(options(`${base}/docs/`)));
    expect(result.pages).toEqual([`${base}/docs/`, `${base}/docs/guide/index.html`]);
    expect(result.errors).toEqual([]);
  });

  it('stops at maxPages requests and never has more than `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const pageRequests: string[] = [];
    const links = Array.from({ length: 30 }, (_, index) => `p${index}.html`);
    const base = await serve((request, response) => {
      if (request.url?.endsWith('.html') === true || request.url === '/') pageRequests.push(request.url);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.writeHead(200, { 'content-type': 'text/html' }).end(html(`Page ${request.url}`, links));
      }, 5);
    });
    const result = await collect(crawl(options(`${base}/`, { maxPages: 12, concurrency: 3 })));
    expect(result.pages).toHaveLength(12);
    // Twelve page requests, no more (robots.txt and sitemaps aside), at most three at a time, and really in parallel.
    expect(pageRequests).toHaveLength(12);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(3);
  });

  it('skips binary and oversized responses with an error naming the URL', async () => {
    const base = await serve(site({
      '/': html('Home', ['data.bin', 'big.html']),
      '/data.bin': { status: 200, type: 'application/octet-stream', body: 'binary' },
      '/big.html': { status: 200, type: 'text/html', body: 'x'.repeat(5000) },
    }));
    const result = await collect(crawl(options(`${base}/`, { maxPageBytes: 4000 })));
    expect(result.pages).toEqual([`${base}/`]);
    const [big, text] = result.errors.sort();
    expect(big).toMatch(new RegExp(`^GET ${base}/big.html is (5000 bytes, )?over the 4000-byte limit; skipped$`));
    expect(text).toBe(`GET ${base}/data.bin is application/octet-stream, not HTML, Markdown or text; skipped`);
  });

  it('decodes a page in the charset its headers declare', async () => {
    const latin1 = Buffer.from(html('Café crème'), 'latin1');
    const base = await serve((_, response) => response.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(latin1));
    const titles: string[] = [];
    for await (const item of crawl(options(`${base}/`))) if (item.kind === 'page') titles.push(item.page.title);
    expect(titles).toEqual(['Café crème']);
  });

  it('fails with one clear error when the start URL cannot be reached', async () => {
    const base = await serve(site({}));
    const closed = await serve(site({}));
    servers.pop()?.close(); // nothing listens on this port any more
    await expect(collect(crawl(options(`${closed}/docs/`)))).rejects.toThrow(SourceError);
    await expect(collect(crawl(options(`${closed}/docs/`)))).rejects.toThrow(new RegExp(`^Could not crawl ${closed}/docs/: GET ${closed}/robots.txt failed: ECONNREFUSED.*Check the URL`));
    await expect(collect(crawl(options(`${base}/nothing/`)))).rejects.toThrow(/returned HTTP 404/);
  });
});
