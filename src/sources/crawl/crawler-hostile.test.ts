import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceItem } from '../../core/types.js';
import { extractHtml } from '../../extract/extract-html.js';
import { htmlPage as page, type Route, serveSite, type SiteServer } from '../../testing/http-site.js';
import { crawl, type CrawlOptions } from './crawler.js';
import type { CrawlFrontier } from './frontier.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function site(routes: Record<string, Route>) {
  const server = await serveSite(routes);
  servers.push(server);
  return server;
}

const options = (startUrl: string, overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  startUrl, maxPages: 100, concurrency: 2, delayMs: 0, timeoutMs: 5000, maxPageBytes: 1_000_000, maxRedirects: 5,
  retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 100, userAgent: 'citedocs/0.1',
  extract: (document, url) => extractHtml(document.body, url), ...overrides,
});

async function run(items: AsyncIterable<SourceItem>) {
  const all: SourceItem[] = [];
  for await (const item of items) all.push(item);
  return {
    all,
    pages: all.flatMap((item) => (item.kind === 'page' ? [item.page.url] : [])).sort(),
    errors: all.flatMap((item) => (item.kind === 'error' ? [item.message] : [])),
  };
}
const paths = (server: SiteServer) => server.requests.map((request) => request.path);
const text = (body: string) => ({ status: 200, type: 'text/plain', body });

describe('crawl on hostile input', () => {
  it('stops a trap that grows its path at the repeated-segment limit, saying so once', async () => {
    // Every page links to `x/` relative to itself: /docs/x/, /docs/x/x/, … without end.
    const server = await site({});
    const trap = await site(Object.fromEntries(['/docs/', ...Array.from({ length: 6 }, (_, depth) => `/docs/${'x/'.repeat(depth + 1)}`)].map((path) => [path, page(`Trap ${path}`, ['x/'])])));
    servers.push(server);
    const { pages, errors } = await run(crawl(options(`${trap.base}/docs/`, { useSitemaps: false })));
    expect(pages).toEqual([`${trap.base}/docs/`, `${trap.base}/docs/x/`, `${trap.base}/docs/x/x/`, `${trap.base}/docs/x/x/x/`]);
    expect(paths(trap).some((path) => path.includes('x/x/x/x/'))).toBe(false);
    expect(errors).toEqual([`Links like ${trap.base}/docs/x/x/x/x/ were not followed: its path repeats the segment "x" 4 times, over crawl.maxRepeatedSegments (3). The site may be a crawler trap; others like it are skipped without notice`]);
  });

  it('never requests a URL over the length limit', async () => {
    const long = `${'a'.repeat(3000)}.html`;
    const server = await site({ '/': page('Home', [long, 'ok.html']), '/ok.html': page('OK') });
    const { pages, errors } = await run(crawl(options(`${server.base}/`, { useSitemaps: false })));
    expect(pages).toEqual([`${server.base}/`, `${server.base}/ok.html`]);
    expect(paths(server).every((path) => path.length < 2048)).toBe(true);
    expect(errors[0]).toMatch(/^Links like .* were not followed: its URL has 3\d{3} characters, over crawl\.maxUrlLength \(2048\)/);
  });

  it('resolves a relative Sitemap line against robots.txt and skips one that is no URL, with a warning', async () => {
    const server = await site({
      '/robots.txt': text('User-agent: *\nDisallow:\nSitemap: /maps/sitemap.xml\nSitemap: http://[not-a-host\n'),
      '/maps/sitemap.xml': (request, response) => void response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>http://${request.headers.host}/listed.html</loc></url></urlset>`),
      '/': page('Home'),
      '/listed.html': page('Listed'),
    });
    const { pages, errors } = await run(crawl(options(`${server.base}/`)));
    expect(pages).toEqual([`${server.base}/`, `${server.base}/listed.html`]);
    expect(errors).toEqual([`${server.base}/robots.txt names a sitemap "http://[not-a-host" that is not an http(s) URL; skipped`]);
  });

  it('never follows a same-origin sitemap that redirects to another host', async () => {
    const other = await site({ '/sitemap.xml': '<urlset></urlset>' });
    const server = await site({ '/sitemap.xml': { status: 302, location: `${other.base}/sitemap.xml` }, '/': page('Home') });
    const { pages, errors } = await run(crawl(options(`${server.base}/`)));
    expect(pages).toEqual([`${server.base}/`]);
    expect(paths(other)).toEqual([]);
    expect(errors.join('\n')).toMatch(/sitemap\.xml redirects to .*, which was not followed: .* is another host/);
  });

  it('skips random bytes served as text/html with a reason, and reads a Latin-1 page with no declared charset', async () => {
    let seed = 3;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
    const server = await site({
      '/': page('Home', ['noise.html', 'latin.html']),
      '/noise.html': { status: 200, type: 'text/html', body: random },
      '/latin.html': { status: 200, type: 'text/html', body: iconv.encode(page('Café crème brûlée', [], '<p>Les élèves étudient à l’école.</p>').replace('’', "'"), 'latin1') },
    });
    const { all, errors } = await run(crawl(options(`${server.base}/`, { useSitemaps: false })));
    expect(errors).toEqual([`GET ${server.base}/noise.html is served as text/html but it holds NUL bytes, so it is binary data, not text; skipped`]);
    const latin = all.find((item) => item.kind === 'page' && item.page.url.endsWith('/latin.html'));
    expect(latin?.kind === 'page' && latin.page.title).toBe('Café crème brûlée');
  });

  it('ends a run stopped by its request budget with a limited item saying how many URLs are left', async () => {
    const links = ['a.html', 'b.html', 'c.html', 'd.html', 'e.html'];
    const server = await site(Object.fromEntries([['/', page('Home', links)], ...links.map((link) => [`/${link}`, page(link)])]));
    const { all } = await run(crawl(options(`${server.base}/`, { maxPages: 3, concurrency: 1, useSitemaps: false })));
    expect(all.at(-1)).toEqual({ kind: 'limited', limit: 'maxPages', value: 3, remaining: 3 });
  });
});

describe('crawl interrupted by its signal', () => {
  it('reports no failure for the page in flight and leaves it queued for the next run', async () => {
    const controller = new AbortController();
    const server = await site({
      '/': page('Home', ['slow.html']),
      // Answers only after the crawl is interrupted (the socket then is gone).
      '/slow.html': (_request, response) => {
        controller.abort();
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow')), 200);
      },
    });
    const done: string[] = [];
    const frontier: CrawlFrontier = { resume: () => ({ queued: [], seen: [] }), add: () => undefined, done: (url) => void done.push(url), finish: () => void done.push('finished') };
    const { all, pages } = await run(crawl(options(`${server.base}/`, { frontier, useSitemaps: false, signal: controller.signal })));
    expect(pages).toEqual([`${server.base}/`]);
    expect(all.filter((item) => item.kind === 'error' || item.kind === 'limited' || item.kind === 'stopped')).toEqual([]);
    expect(done).toEqual([`${server.base}/`]);
  });
});
