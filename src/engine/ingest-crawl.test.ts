import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../interfaces/cli/main.js';
import { htmlPage, type Route, serveSite, type SiteServer } from '../testing/http-site.js';
import { createEngine } from './engine.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

/** A site whose pages can be edited between crawls; answers conditional GETs like a real server. */
async function editableSite(initial: Record<string, string>) {
  const pages = new Map(Object.entries(initial));
  const versions = new Map<string, number>();
  const route = (path: string): Route => (request, response) => {
    const body = pages.get(path);
    if (body === undefined) return void response.writeHead(404).end();
    const etag = `"${path}-${versions.get(path) ?? 0}"`;
    if (request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag }).end();
    response.writeHead(200, { 'content-type': 'text/html', etag }).end(body);
  };
  const server = await serveSite(Object.fromEntries(Object.keys(initial).map((path) => [path, route(path)])));
  servers.push(server);
  return {
    server,
    edit: (path: string, body: string) => {
      pages.set(path, body);
      versions.set(path, (versions.get(path) ?? 0) + 1);
    },
    remove: (path: string) => pages.delete(path),
  };
}

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-ingest-')), 'index.db');

describe('ingest of a site, then again', () => {
  it('downloads no body for unchanged pages, re-indexes a changed one and removes a deleted one', async () => {
    const site = await editableSite({
      '/docs/': htmlPage('Home', ['a.html', 'b.html']),
      '/docs/a.html': htmlPage('Alpha page'),
      '/docs/b.html': htmlPage('Beta page'),
    });
    const engine = createEngine({ dbPath: dbPath(), crawl: { retries: 0 } });
    const start = `${site.server.base}/docs/`;
    expect(await engine.ingest(start)).toMatchObject({ pages: 3, added: 3, fetched: 3, removed: 0 });
    expect(await engine.ingest(start)).toMatchObject({ pages: 3, added: 0, changed: 0, unchanged: 3, fetched: 0, removed: 0 });

    site.edit('/docs/a.html', htmlPage('Alpha page', [], '<p>Now with zeppelins.</p>'));
    site.remove('/docs/b.html');
    const third = await engine.ingest(start);
    expect(third).toMatchObject({ added: 0, changed: 1, unchanged: 1, removed: 1, fetched: 1 });
    expect((await engine.search('zeppelins')).results[0]?.url).toBe(`${site.server.base}/docs/a.html`);
    expect((await engine.search('beta')).results).toEqual([]);
    expect((await engine.stats()).pages).toBe(2);
    await engine.close();
  });

  it('writes every page read to --export as JSON lines', async () => {
    const site = await editableSite({ '/docs/': htmlPage('Home', ['a.html']), '/docs/a.html': htmlPage('Alpha') });
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-export-'));
    let stdout = '';
    const code = await runCli(['ingest', `${site.server.base}/docs/`, '--db', join(folder, 'index.db'), '--export', join(folder, 'pages.jsonl'), '--json'], {
      stdout: (text) => (stdout += text), stderr: () => undefined, env: {}, cwd: folder, interactive: false,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ pages: 2, added: 2, changed: 0, unchanged: 0, removed: 0, fetched: 2 });
    const lines = readFileSync(join(folder, 'pages.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['url']).sort()).toEqual([`${site.server.base}/docs/`, `${site.server.base}/docs/a.html`]);
    expect(Object.keys(lines[0] ?? {})).toEqual(['url', 'title', 'markdown', 'headings', 'fetchedAt', 'etag', 'lastModified']);
  });

  it('passes --include, --exclude, --max-depth and --user-agent to the crawl', async () => {
    const site = await editableSite({
      '/docs/': htmlPage('Home', ['en/a.html', 'ja/a.html']),
      '/docs/en/a.html': htmlPage('EN', ['deep.html']),
      '/docs/en/deep.html': htmlPage('Deep'),
      '/docs/ja/a.html': htmlPage('JA'),
    });
    let stdout = '';
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-flags-'));
    const code = await runCli(['ingest', `${site.server.base}/docs/`, '--db', join(folder, 'i.db'), '--json', '--exclude', '/docs/ja/**', '--max-depth', '1', '--user-agent', 'docsbot/2.0', '--concurrency', '1'], {
      stdout: (text) => (stdout += text), stderr: () => undefined, env: {}, cwd: folder, interactive: false,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ pages: 2 });
    expect(site.server.requests.map((request) => request.path)).not.toContain('/docs/ja/a.html');
    expect(site.server.requests.map((request) => request.path)).not.toContain('/docs/en/deep.html');
    expect(site.server.requests.every((request) => request.userAgent === 'docsbot/2.0')).toBe(true);
  });
});

describe('ingest in several runs', () => {
  it('continues a crawl stopped at --max-pages on the next run, saying how much is left', async () => {
    const links = ['a.html', 'b.html', 'c.html', 'd.html'];
    const site = await editableSite(Object.fromEntries([['/docs/', htmlPage('Home', links)], ...links.map((link) => [`/docs/${link}`, htmlPage(link)])]));
    const engine = createEngine({ dbPath: dbPath(), crawl: { retries: 0, useSitemaps: false } });
    const start = `${site.server.base}/docs/`;
    const first = await engine.ingest(start, { maxPages: 3 });
    expect(first).toMatchObject({ pages: 3, added: 3, queued: 2 });
    const second = await engine.ingest(start, { maxPages: 3 });
    expect(second).toMatchObject({ added: 2 });
    expect(second.queued).toBeUndefined();
    expect((await engine.stats()).pages).toBe(5);
    await engine.close();
  });

  it('keeps one page for content served at two URLs, also when a re-crawl meets the second URL first', async () => {
    const same = htmlPage('Same content');
    const site = await editableSite({ '/docs/': htmlPage('Home', ['a.html', 'alias.html']), '/docs/a.html': same, '/docs/alias.html': same });
    const engine = createEngine({ dbPath: dbPath(), crawl: { retries: 0, useSitemaps: false } });
    const start = `${site.server.base}/docs/`;
    expect(await engine.ingest(start)).toMatchObject({ duplicates: 1 });
    expect((await engine.stats()).pages).toBe(2);
    const again = await engine.ingest(start);
    expect(again).toMatchObject({ added: 0, changed: 0 });
    expect((await engine.stats()).pages).toBe(2);
    await engine.close();
  });
});

describe('the library name an ingest gives a site on an address', () => {
  it('names it by the site’s part of the start page title, a man page without its section, and by the URL folder when the title is a folder listing', async () => {
    const site = await editableSite({
      '/git/': htmlPage('git(1) Manual Page', ['a.html']),
      '/git/a.html': htmlPage('Alpha'),
      '/widgetlib/': htmlPage('Directory listing for /widgetlib/', ['b.html']),
      '/widgetlib/b.html': htmlPage('Beta'),
      '/cmake/': '<html><head><title>Introduction — CMake 3.25.1 Documentation</title></head><body><main><h1>Introduction</h1><p>About CMake.</p><a href="c.html">c</a></main></body></html>',
      '/cmake/c.html': htmlPage('Gamma'),
    });
    const engine = createEngine({ dbPath: dbPath() });
    try {
      expect(await engine.ingest(`${site.server.base}/git/`)).toMatchObject({ library: 'git', version: 'latest' });
      // The site's part of <title>, not the start page's own ("Introduction").
      expect(await engine.ingest(`${site.server.base}/cmake/`)).toMatchObject({ library: 'cmake', version: '3.25.1' });
      expect(await engine.ingest(`${site.server.base}/widgetlib/`)).toMatchObject({ library: 'widgetlib', version: 'latest' });
    } finally {
      await engine.close();
    }
  });
});

describe('the version an ingest gives a site', () => {
  it('is the one the start page says it documents, unless the URL path or --version says one', async () => {
    const site = await editableSite({
      '/widget/': htmlPage('Home — Widgetlib 3.2 documentation', ['a.html']),
      '/widget/a.html': htmlPage('Alpha'),
      '/gadget/4.1/': htmlPage('Home — Gadget 4.0 documentation'),
      '/tool/': htmlPage('Home — Tool 1.5 documentation'),
      '/plain/': htmlPage('Plain docs home'),
    });
    const engine = createEngine({ dbPath: dbPath() });
    try {
      expect(await engine.ingest(`${site.server.base}/widget/`, { library: 'widget' })).toMatchObject({ library: 'widget', version: '3.2' });
      expect(await engine.ingest(`${site.server.base}/gadget/4.1/`, { library: 'gadget' })).toMatchObject({ version: '4.1' });
      expect(await engine.ingest(`${site.server.base}/tool/`, { library: 'tool', version: '2.0' })).toMatchObject({ version: '2.0' });
      expect(await engine.ingest(`${site.server.base}/plain/`, { library: 'plain' })).toMatchObject({ version: 'latest' });
      // Run again (its start page now answers 304 and says nothing), the source keeps the version it was stored under.
      expect(await engine.ingest(`${site.server.base}/widget/`)).toMatchObject({ library: 'widget', version: '3.2' });
      expect(await engine.ingest(`${site.server.base}/widget/`, { library: 'widget' })).toMatchObject({ library: 'widget', version: '3.2' });
      expect((await engine.listSources()).filter((source) => source.library === 'widget').map((source) => source.version)).toEqual(['3.2']);
    } finally {
      await engine.close();
    }
  });
});
