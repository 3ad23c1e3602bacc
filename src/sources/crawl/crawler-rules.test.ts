import { afterEach, describe, expect, it } from 'vitest';
import { SourceError } from '../../core/errors.js';
import type { SourceItem } from '../../core/types.js';
import { extractHtml } from '../../extract/extract-html.js';
import { htmlPage as page, type Route, serveSite, type SiteServer } from '../../testing/http-site.js';
import { crawl, type CrawlOptions } from './crawler.js';
import type { CrawlFrontier, FrontierEntry } from './frontier.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function site(routes: Record<string, Route>) {
  const server = await serveSite(routes);
  servers.push(server);
  return server;
}

const options = (startUrl: string, overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  startUrl, maxPages: 100, concurrency: 2, delayMs: 0, timeoutMs: 5000, maxPageBytes: 1_000_000, maxRedirects: 5,
  retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 100, userAgent: 'citedocs/0.1 (+https://example.com)',
  extract: (document, url) => extractHtml(document.body, url), ...overrides,
});

async function run(items: AsyncIterable<SourceItem>) {
  const all: SourceItem[] = [];
  for await (const item of items) all.push(item);
  const pages = all.flatMap((item) => (item.kind === 'page' ? [item.page.url] : [])).sort();
  return { all, pages };
}
const paths = (server: SiteServer) => server.requests.map((request) => request.path);
const text = (body: string) => ({ status: 200, type: 'text/plain', body });

describe('crawl rules', () => {
  it('never requests what robots.txt disallows for citedocs, and identifies itself', async () => {
    const server = await site({
      '/robots.txt': text('User-agent: citedocs\nDisallow: /docs/internal/\n'),
      '/docs/': page('Home', ['a.html', 'internal/secret.html']),
      '/docs/a.html': page('A'),
      '/docs/internal/secret.html': page('Secret'),
    });
    const { pages } = await run(crawl(options(`${server.base}/docs/`)));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/a.html`]);
    expect(paths(server)).not.toContain('/docs/internal/secret.html');
    expect(server.requests.every((request) => request.userAgent === 'citedocs/0.1 (+https://example.com)')).toBe(true);
  });

  it('never follows a link the page marks rel="nofollow" (Sphinx\'s "Show Source" text of every page)', async () => {
    const server = await site({
      '/docs/': page('Home', ['a.html'], '<a href="_sources/index.rst.txt" rel="nofollow">Show Source</a> <a href="b.html" rel="noopener NoFollow">B</a>'),
      '/docs/a.html': page('A'),
      '/docs/b.html': page('B'),
      '/docs/_sources/index.rst.txt': text('Home\n====\n\nAbout Home.\n'),
    });
    const { pages } = await run(crawl(options(`${server.base}/docs/`)));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/a.html`]);
    expect(paths(server)).not.toContain('/docs/_sources/index.rst.txt');
  });

  it('follows the links of a page that asks not to be indexed (mdBook\'s print.html) but stores none of it, and removes it when it was stored', async () => {
    const noindex = (title: string, links: string[], content = 'noindex, follow') => `<html><head><title>${title}</title><meta name="ROBOTS" content="${content}"></head><body><main><h1>${title}</h1><p>All chapters again.</p>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</main></body></html>`;
    const server = await site({
      '/book/': page('Home', ['print.html', 'search.html']),
      '/book/print.html': noindex('Print', ['ch1.html']),
      '/book/ch1.html': page('Chapter 1'),
      '/book/search.html': noindex('Search', ['hidden.html'], 'none'),
      '/book/hidden.html': page('Only linked from a page that says nofollow'),
    });
    const stored = [`${server.base}/book/print.html`];
    const { all, pages } = await run(crawl(options(`${server.base}/book/`, { known: (url) => (stored.includes(url) ? { links: [] } : undefined), useSitemaps: false })));
    expect(pages).toEqual([`${server.base}/book/`, `${server.base}/book/ch1.html`]);
    expect(paths(server)).not.toContain('/book/hidden.html');
    expect(all).toContainEqual({ kind: 'gone', url: `${server.base}/book/print.html`, reason: 'asks robots not to index it (<meta name="robots" content="noindex">)' });
    expect(all.filter((item) => item.kind === 'gone')).toHaveLength(1);
    expect(all.flatMap((item) => (item.kind === 'warning' ? [[item.code, item.input]] : []))).toEqual([
      ['crawl.noindex', `${server.base}/book/print.html`],
      ['crawl.noindex', `${server.base}/book/search.html`],
    ]);
  });

  it('reads the same from an X-Robots-Tag header: noindex stores nothing, nofollow follows nothing, another robot\'s directives do not apply', async () => {
    const html = (title: string, links: string[]) => page(title, links);
    const server = await site({
      '/docs/': page('Home', ['a.html', 'b.html', 'c.html']),
      '/docs/a.html': { status: 200, type: 'text/html', body: html('A', ['from-a.html']), headers: { 'x-robots-tag': 'noindex' } },
      '/docs/b.html': { status: 200, type: 'text/html', body: html('B', ['from-b.html']), headers: { 'x-robots-tag': 'citedocs: nofollow' } },
      '/docs/c.html': { status: 200, type: 'text/html', body: html('C', []), headers: { 'x-robots-tag': 'otherbot: noindex' } },
      '/docs/from-a.html': page('From A'),
      '/docs/from-b.html': page('From B'),
    });
    const { all, pages } = await run(crawl(options(`${server.base}/docs/`, { useSitemaps: false })));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/b.html`, `${server.base}/docs/c.html`, `${server.base}/docs/from-a.html`]);
    expect(paths(server)).not.toContain('/docs/from-b.html');
    expect(all.flatMap((item) => (item.kind === 'warning' ? [item.message] : []))).toEqual([`${server.base}/docs/a.html asks robots not to index it (X-Robots-Tag: noindex): its links were followed, its text was not stored`]);
  });

  it('refuses to start where robots.txt disallows the start page', async () => {
    const server = await site({ '/robots.txt': text('User-agent: *\nDisallow: /\n'), '/docs/': page('Home') });
    const failure = run(crawl(options(`${server.base}/docs/`)));
    await expect(failure).rejects.toBeInstanceOf(SourceError);
    await expect(failure).rejects.toThrow(`Could not crawl ${server.base}/docs/: the site's robots.txt disallows it for the user agent "citedocs/0.1 (+https://example.com)".`);
    expect(paths(server)).toEqual(['/robots.txt']);
  });

  it('obeys the robots.txt of the origin the start URL redirects to, and reads no sitemap of another host', async () => {
    const other = await site({ '/private/list.xml': '<urlset></urlset>' });
    const target = await site({
      '/robots.txt': text(`User-agent: *\nDisallow: /docs/secret.html\nSitemap: ${other.base}/private/list.xml\n`),
      '/docs/': page('Home', ['secret.html', 'open.html']),
      '/docs/secret.html': page('Secret'),
      '/docs/open.html': page('Open'),
    });
    const start = await site({ '/docs/': { status: 301, location: `${target.base}/docs/` } });
    // Another port is another host: followed only because the user allows it.
    const { pages } = await run(crawl(options(`${start.base}/docs/`, { allowedHosts: [new URL(target.base).host] })));
    expect(pages).toEqual([`${target.base}/docs/`, `${target.base}/docs/open.html`]);
    expect(paths(target)).not.toContain('/docs/secret.html');
    expect(paths(other)).toEqual([]);
  });

  it('refuses a start URL that redirects to another host without requesting anything there, saying how to allow it', async () => {
    const target = await site({ '/docs/': page('Elsewhere') });
    const start = await site({ '/docs/': { status: 301, location: `${target.base}/docs/` } });
    const failure = run(crawl(options(`${start.base}/docs/`)));
    await expect(failure).rejects.toBeInstanceOf(SourceError);
    await expect(failure).rejects.toThrow(
      `Could not crawl ${start.base}/docs/: GET ${start.base}/docs/ redirects to ${target.base}/docs/, which was not followed: ${new URL(target.base).host} is another host than the start URL's (${new URL(start.base).host}); a crawl stays on the host it was started on (start at ${target.base}/ instead, or allow the host with --allow-host ${new URL(target.base).host}).`,
    );
    expect(paths(target)).toEqual([]);
  });

  it('finds pages nothing links to through the sitemap named in robots.txt and llms.txt, keeping only in-scope ones', async () => {
    const server = await site({
      '/robots.txt': (request, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: http://${request.headers.host}/maps/docs.xml\n`),
      '/maps/docs.xml': (request, response) =>
        void response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>http://${request.headers.host}/docs/orphan.html</loc></url><url><loc>http://${request.headers.host}/blog/post.html</loc></url></urlset>`),
      '/llms.txt': text('# Site\n\n- [Listed](/docs/listed.html.md)\n'),
      '/docs/': page('Home'),
      '/docs/orphan.html': page('Orphan'),
      '/docs/listed.html': page('Listed'),
      '/blog/post.html': page('Blog'),
    });
    const { pages } = await run(crawl(options(`${server.base}/docs/`)));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/listed.html`, `${server.base}/docs/orphan.html`]);
    expect(paths(server)).not.toContain('/blog/post.html');
  });

  it('finds pages through llms-full.txt when a site offers only that, reading each page itself (its real anchors), never the file as a page', async () => {
    const server = await site({
      '/llms-full.txt': (request, response) =>
        void response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`# Listed\nSource: http://${request.headers.host}/docs/listed.html\n\nListed text, as the file copies it.\n\n# Linked\n\nSee [linked](/docs/linked.html#part).\n\n# Elsewhere\nSource: http://${request.headers.host}/blog/post.html\n`),
      '/docs/': page('Home'),
      '/docs/listed.html': '<html><head><title>Listed</title></head><body><main><h1 id="listed-heading">Listed</h1><p>Its own text.</p></main></body></html>',
      '/docs/linked.html': page('Linked'),
      '/blog/post.html': page('Blog'),
    });
    const { all, pages } = await run(crawl(options(`${server.base}/docs/`)));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/linked.html`, `${server.base}/docs/listed.html`]);
    const listed = all.flatMap((item) => (item.kind === 'page' && item.page.url.endsWith('/listed.html') ? [item.page] : []))[0];
    expect(listed?.headings.map((heading) => heading.anchor)).toEqual(['listed-heading']);
    expect(listed?.markdown).toContain('Its own text.');
    expect(paths(server)).toContain('/llms.txt');
    expect(paths(server)).not.toContain('/blog/post.html');
  });

  it('reads llms-full.txt only where no llms.txt is offered', async () => {
    const server = await site({ '/llms.txt': text('# Site\n\n- [A](/docs/a.html)\n'), '/docs/': page('Home'), '/docs/a.html': page('A') });
    expect((await run(crawl(options(`${server.base}/docs/`)))).pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/a.html`]);
    expect(paths(server)).not.toContain('/llms-full.txt');
  });

  it('applies include and exclude globs to URL paths, e.g. to skip a language mirror', async () => {
    const server = await site({
      '/docs/': page('Home', ['en/a.html', 'ja/a.html', 'en/api/b.html']),
      '/docs/en/a.html': page('EN A'),
      '/docs/ja/a.html': page('JA A'),
      '/docs/en/api/b.html': page('EN API B'),
    });
    expect((await run(crawl(options(`${server.base}/docs/`, { exclude: ['/docs/ja/**'] })))).pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/en/a.html`, `${server.base}/docs/en/api/b.html`]);
    expect((await run(crawl(options(`${server.base}/docs/`, { include: ['/docs/en/api/**'] })))).pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/en/api/b.html`]);
  });

  it('follows links at most maxDepth steps from the start page', async () => {
    const server = await site({ '/': page('Zero', ['one.html']), '/one.html': page('One', ['two.html']), '/two.html': page('Two', ['three.html']), '/three.html': page('Three') });
    expect((await run(crawl(options(`${server.base}/`, { maxDepth: 1 })))).pages).toEqual([`${server.base}/`, `${server.base}/one.html`]);
    expect(paths(server)).not.toContain('/two.html');
  });

  it('spaces requests by the robots.txt Crawl-delay', async () => {
    // A clock only the crawl's own sleeps advance: the spacing is what the crawl waited, whatever the machine's load.
    let now = 0;
    const startedAt: number[] = [];
    const recorded = (title: string): Route => (_request, response) => {
      startedAt.push(now);
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(title));
    };
    const server = await site({ '/robots.txt': text('User-agent: citedocs\nCrawl-delay: 0.15\n'), '/': page('Home', ['a.html', 'b.html']), '/a.html': recorded('A'), '/b.html': recorded('B') });
    const sleep = async (ms: number) => void (now += ms);
    await run(crawl(options(`${server.base}/`, { concurrency: 4, useSitemaps: false, clock: () => now, sleep })));
    expect(startedAt).toHaveLength(2);
    expect((startedAt[1] ?? 0) - (startedAt[0] ?? 0)).toBeGreaterThanOrEqual(150);
  });

  it('stops with a clear reason when most requests fail, keeping what it found', async () => {
    const links = Array.from({ length: 20 }, (_, index) => `p${index}.html`);
    const failing = Object.fromEntries(links.slice(2).map((link) => [`/${link}`, { status: 503, type: 'text/plain', body: 'down for maintenance' }]));
    const server = await site({ '/': page('Home', links), '/p0.html': page('P0'), '/p1.html': page('P1'), ...failing });
    const { all } = await run(crawl(options(`${server.base}/`, { useSitemaps: false })));
    const stopped = all.find((item) => item.kind === 'stopped');
    expect(stopped).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/^\d+ of \d+ requests to http:\/\/127\.0\.0\.1:\d+ failed, so the crawl stopped/) });
    expect(all.filter((item) => item.kind === 'error').length).toBeLessThan(20);
  });

  it('never stops for broken links: a site that answers 404 for most links still has every page it does have stored, each broken link reported', async () => {
    // Docs built from Markdown often link `Client.md` beside the published `client/`.
    const links = Array.from({ length: 20 }, (_, index) => `p${index}.md`);
    const server = await site({ '/': page('Home', [...links, 'p0.html', 'p1.html']), '/p0.html': page('P0', ['p2.html']), '/p1.html': page('P1'), '/p2.html': page('P2') });
    const { all, pages } = await run(crawl(options(`${server.base}/`, { useSitemaps: false })));
    expect(all.find((item) => item.kind === 'stopped')).toBeUndefined();
    expect(pages).toEqual([`${server.base}/`, `${server.base}/p0.html`, `${server.base}/p1.html`, `${server.base}/p2.html`]);
    expect(all.filter((item) => item.kind === 'error')).toHaveLength(20);
  });

  it('still stops for a failing site behind its broken links: those count neither way', async () => {
    const broken = Array.from({ length: 30 }, (_, index) => `p${index}.md`);
    const down = Array.from({ length: 30 }, (_, index) => `q${index}.html`);
    const failing = Object.fromEntries(down.map((link) => [`/${link}`, { status: 503, type: 'text/plain', body: 'down' }]));
    const server = await site({ '/': page('Home', [...broken, ...down]), ...failing });
    const { all } = await run(crawl(options(`${server.base}/`, { useSitemaps: false })));
    expect(all.find((item) => item.kind === 'stopped')).toBeDefined();
    expect(paths(server).filter((path) => path.startsWith('/q')).length).toBeLessThan(30);
  });

  it('stops when the pages it stored before answer 404 all at once (a broken deploy), instead of removing them all', async () => {
    const stored = Array.from({ length: 20 }, (_, index) => `p${index}.html`);
    const server = await site({ '/': page('Home', stored) });
    const known = new Set(stored.map((link) => `${server.base}/${link}`));
    const { all } = await run(crawl(options(`${server.base}/`, { useSitemaps: false, known: async (url) => (known.has(url) ? { contentHash: url, links: [] } : undefined) })));
    expect(all.find((item) => item.kind === 'stopped')).toBeDefined();
    expect(all.filter((item) => item.kind === 'gone').length).toBeLessThan(20);
  });

  it('names a page by its canonical URL when that is inside the scope', async () => {
    const server = await site({
      '/docs/': page('Home', ['guide.html?ref=nav']),
      '/docs/guide.html?ref=nav': `<html><head><link rel="canonical" href="/docs/guide.html"></head><body><main><h1>Guide</h1><p>text</p></main></body></html>`,
    });
    expect((await run(crawl(options(`${server.base}/docs/`)))).pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/guide.html`]);
  });
});

describe('crawl against a stored index', () => {
  it('asks conditionally for stored pages, reports 304s as unchanged and follows their stored links', async () => {
    const notModified = (etag: string): Route => (request, response) =>
      void (request.headers['if-none-match'] === etag ? response.writeHead(304).end() : response.writeHead(200, { 'content-type': 'text/html', etag }).end(page('changed')));
    const server = await site({ '/': notModified('"home"'), '/a.html': notModified('"a"'), '/new.html': page('New') });
    const known: Record<string, { etag: string; links: string[] }> = {
      [`${server.base}/`]: { etag: '"home"', links: [`${server.base}/a.html`, `${server.base}/new.html`] },
      [`${server.base}/a.html`]: { etag: '"a"', links: [] },
    };
    const { all } = await run(crawl(options(`${server.base}/`, { known: (url) => known[url], useSitemaps: false })));
    expect(all.filter((item) => item.kind === 'unchanged').map((item) => item.kind === 'unchanged' && item.url).sort()).toEqual([`${server.base}/`, `${server.base}/a.html`]);
    expect(all.filter((item) => item.kind === 'page').map((item) => item.kind === 'page' && item.page.url)).toEqual([`${server.base}/new.html`]);
    expect(server.requests.find((request) => request.path === '/a.html')?.ifNoneMatch).toBe('"a"');
  });

  it('reports stored pages that now 404, left the scope, or that nothing links to but still exist', async () => {
    const server = await site({ '/docs/': page('Home', ['gone.html']), '/docs/orphan.html': page('Orphan'), '/docs/ja/old.html': page('Old') });
    const stored = [`${server.base}/docs/`, `${server.base}/docs/gone.html`, `${server.base}/docs/orphan.html`, `${server.base}/docs/ja/old.html`];
    const { all, pages } = await run(
      crawl(options(`${server.base}/docs/`, { known: (url) => (stored.includes(url) ? { links: [] } : undefined), knownUrls: () => stored, exclude: ['/docs/ja/**'], useSitemaps: false })),
    );
    const gone = all.flatMap((item) => (item.kind === 'gone' ? [[item.url, item.reason]] : []));
    expect(gone).toEqual(expect.arrayContaining([[`${server.base}/docs/gone.html`, 'HTTP 404'], [`${server.base}/docs/ja/old.html`, 'outside the crawl scope']]));
    expect(gone).toHaveLength(2);
    expect(pages).toContain(`${server.base}/docs/orphan.html`);
    expect(paths(server)).not.toContain('/docs/ja/old.html');
  });

  it('resumes from a stored frontier: fetches what was queued, not what was done', async () => {
    const server = await site({ '/': page('Home', ['a.html', 'b.html', 'c.html']), '/a.html': page('A'), '/b.html': page('B'), '/c.html': page('C') });
    const done: string[] = [];
    const frontier: CrawlFrontier = {
      resume: () => ({ queued: [{ url: `${server.base}/c.html`, depth: 1 }], seen: [`${server.base}/`, `${server.base}/a.html`, `${server.base}/b.html`, `${server.base}/c.html`], doneCount: 3 }),
      add: (_entries: readonly FrontierEntry[]) => undefined,
      done: (url) => void done.push(url),
      finish: () => void done.push('finished'),
    };
    const { pages } = await run(crawl(options(`${server.base}/`, { frontier, useSitemaps: false })));
    expect(pages).toEqual([`${server.base}/`, `${server.base}/c.html`]);
    expect(paths(server).filter((path) => path.endsWith('.html'))).toEqual(['/c.html']);
    expect(done).toEqual([`${server.base}/`, `${server.base}/c.html`, 'finished']);
  });
});

describe('crawl resumed from a stored frontier', () => {
  const resumeWith = (queued: FrontierEntry[], seen: string[]): CrawlFrontier => ({
    resume: () => ({ queued, seen, doneCount: seen.length - queued.length }),
    add: () => undefined,
    done: () => undefined,
    finish: () => undefined,
  });

  it('falls back to the index file for a queued folder URL the server does not serve', async () => {
    const server = await site({ '/docs/': page('Home', ['guide/index.html']), '/docs/guide/index.html': page('Guide') });
    const frontier = resumeWith([{ url: `${server.base}/docs/guide/`, depth: 1 }], [`${server.base}/docs/`, `${server.base}/docs/guide/`, `${server.base}/docs/guide/index.html`]);
    const { pages, all } = await run(crawl(options(`${server.base}/docs/`, { frontier, useSitemaps: false })));
    expect(pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/guide/index.html`]);
    expect(all.filter((item) => item.kind === 'error')).toEqual([]);
  });

  it('still reads the sitemaps, which the interrupted run may not have reached', async () => {
    const server = await site({
      '/sitemap.xml': (request, response) => void response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>http://${request.headers.host}/docs/orphan.html</loc></url></urlset>`),
      '/docs/': page('Home', ['a.html']),
      '/docs/a.html': page('A'),
      '/docs/orphan.html': page('Orphan'),
    });
    const frontier = resumeWith([{ url: `${server.base}/docs/a.html`, depth: 1 }], [`${server.base}/docs/`, `${server.base}/docs/a.html`]);
    expect((await run(crawl(options(`${server.base}/docs/`, { frontier })))).pages).toEqual([`${server.base}/docs/`, `${server.base}/docs/a.html`, `${server.base}/docs/orphan.html`]);
  });
});
