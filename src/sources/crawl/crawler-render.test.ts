/**
 * The crawl with and without a renderer, on a site whose pages are built by JavaScript.
 * Rendering runs in Debian's chromium; a second server on another port is another host: its
 * request log must stay empty whatever the pages ask for.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, SourceItem } from '../../core/types.js';
import { extractHtml } from '../../extract/extract-html.js';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import { createChromiumRenderer } from '../render/chromium-renderer.js';
import type { PageRenderer } from '../render/page-renderer.js';
import { crawl, type CrawlOptions } from './crawler.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium with apt.`);

const shell = (title: string) => `<!doctype html><html><head><title>${title}</title><script defer src="/app.js"></script></head><body><div id="root"></div></body></html>`;

/** Builds the page from its path; also tries another host, a path robots.txt disallows, and a POST. */
const appScript = (otherBase: string) => `
  const guide = location.pathname === '/guide.html';
  document.getElementById('root').innerHTML = guide
    ? '<main><h1 id="guide">Guide</h1><h2 id="theming">Theming widgets</h2><p>Colours come from the glimmerdust palette.</p></main>'
    : '<main><h1 id="home">Home</h1><h2 id="install">Installing</h2><p>Install it with the zorblax package manager.</p><a href="/guide.html">Guide</a></main>';
  fetch('${otherBase}/track').catch(() => {});
  const image = document.createElement('img');
  image.src = '${otherBase}/pixel.png';
  document.body.append(image);
  fetch('/private/data.json').catch(() => {});`;

const options = (startUrl: string, overrides: Partial<CrawlOptions> = {}): CrawlOptions => ({
  startUrl, maxPages: 20, concurrency: 2, delayMs: 0, timeoutMs: 5000, maxPageBytes: 1_000_000, maxRedirects: 10,
  retries: 0, retryBaseDelayMs: 10, maxRetryAfterMs: 1000, userAgent: 'citedocs-test/1.0', useSitemaps: false,
  extract: (document, url) => extractHtml(document.body, url), ...overrides,
});

async function collect(items: AsyncIterable<SourceItem>) {
  const pages: Page[] = [];
  const errors: string[] = [];
  const warnings: Extract<SourceItem, { kind: 'warning' }>[] = [];
  for await (const item of items) {
    if (item.kind === 'page') pages.push(item.page);
    else if (item.kind === 'error') errors.push(item.message);
    else if (item.kind === 'warning') warnings.push(item);
  }
  return { pages: pages.sort((a, b) => a.url.localeCompare(b.url)), errors, warnings };
}

describe('crawl of a site built by JavaScript', () => {
  let site: SiteServer;
  let other: SiteServer;

  beforeAll(async () => {
    other = await serveSite({ '/track': '{}', '/pixel.png': { status: 200, type: 'image/png', body: 'png' } });
    site = await serveSite({
      '/': shell('Home'),
      '/guide.html': shell('Guide'),
      '/app.js': { status: 200, type: 'text/javascript', body: appScript(other.base) },
      '/private/data.json': { status: 200, type: 'application/json', body: '{}' },
      '/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
    });
  });
  afterAll(async () => {
    await site.close();
    await other.close();
  });

  it('without a renderer, reports each empty page as needing --render', async () => {
    const { pages, warnings } = await collect(crawl(options(`${site.base}/`)));
    expect(pages.map((page) => page.url)).toEqual([`${site.base}/`]);
    expect(warnings).toEqual([{ kind: 'warning', code: 'crawl.needs-render', input: `${site.base}/`, message: expect.stringContaining('built by JavaScript'), needsRender: true }]);
  });

  it('reports what extraction cut (a giant word) as a warning on the page', async () => {
    const giant = await serveSite({ '/': `<html><body><main><h1 id="a">Giant</h1><p>${'x'.repeat(5000)}</p></main></body></html>` });
    try {
      const { pages, warnings } = await collect(crawl(options(`${giant.base}/`)));
      expect(pages).toHaveLength(1);
      expect(warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(/a word longer than 2000 characters was cut/)]);
      expect(warnings[0]?.needsRender).toBeUndefined();
    } finally {
      await giant.close();
    }
  });

  describe.skipIf(!available)('with the Chromium renderer', { timeout: 60_000 }, () => {
    let renderer: PageRenderer;
    beforeAll(() => {
      renderer = createChromiumRenderer({ executablePath: CHROMIUM, concurrency: 2, timeoutMs: 5_000, maxBytes: 1_000_000 });
    });
    afterAll(() => renderer.close());

    it('reads the built pages, follows links from the built document, and sends nothing to another host or where robots.txt forbids', async () => {
      const { pages, errors, warnings } = await collect(crawl(options(`${site.base}/`, { renderer })));
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
      expect(pages.map((page) => page.url)).toEqual([`${site.base}/`, `${site.base}/guide.html`]);
      expect(pages[0]?.headings).toContainEqual({ level: 2, text: 'Installing', anchor: 'install' });
      expect(pages[1]?.headings).toContainEqual({ level: 2, text: 'Theming widgets', anchor: 'theming' });
      expect(pages[1]?.markdown).toContain('glimmerdust palette');
      expect(other.requests).toEqual([]);
      const paths = site.requests.map((request) => request.path);
      expect(paths).not.toContain('/private/data.json');
      // Each page's document was fetched once, by the crawler; the browser asked for its script.
      expect(paths.filter((path) => path === '/guide.html')).toHaveLength(1);
      expect(paths).toContain('/app.js');
    });
  });
});
