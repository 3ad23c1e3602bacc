import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import type { FetchPageOptions } from './fetch-page.js';
import { loadRobots } from './robots.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function robotsFor(routes: Parameters<typeof serveSite>[0], userAgent = 'citedocs/0.1 (+https://example.com)') {
  const server = await serveSite(routes);
  servers.push(server);
  const options: FetchPageOptions = {
    fetch: (input, init) => fetch(input, init), userAgent, timeoutMs: 2000, maxBytes: 1_000_000, maxRedirects: 5, retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 10,
  };
  return { robots: await loadRobots(`${server.base}/docs/`, options), base: server.base };
}
const text = (body: string) => ({ status: 200, type: 'text/plain', body });

describe('loadRobots (RFC 9309)', () => {
  it('applies the group of our product token, the longest match winning, Allow on a tie', async () => {
    const { robots, base } = await robotsFor({
      '/robots.txt': text(['User-agent: *', 'Disallow: /', '', 'User-agent: citedocs', 'Disallow: /docs/private/', 'Allow: /docs/private/public-note.html', 'Disallow: /*.pdf$', 'Allow: /docs/x', 'Disallow: /docs/x'].join('\n')),
    });
    expect(robots.isAllowed(`${base}/docs/guide.html`)).toBe(true);
    expect(robots.isAllowed(`${base}/docs/private/secret.html`)).toBe(false);
    expect(robots.isAllowed(`${base}/docs/private/public-note.html`)).toBe(true);
    expect(robots.isAllowed(`${base}/docs/file.pdf`)).toBe(false);
    expect(robots.isAllowed(`${base}/docs/file.pdf?download=1`)).toBe(true);
    expect(robots.isAllowed(`${base}/docs/x`)).toBe(true);
  });

  it('falls back to the * group for an agent it does not name', async () => {
    const { robots, base } = await robotsFor({ '/robots.txt': text('User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /docs/drafts/\n') }, 'citedocs/0.1');
    expect(robots.isAllowed(`${base}/docs/a.html`)).toBe(true);
    expect(robots.isAllowed(`${base}/docs/drafts/b.html`)).toBe(false);
  });

  it('reads Crawl-delay and Sitemap lines', async () => {
    const { robots } = await robotsFor({ '/robots.txt': text('User-agent: citedocs\nCrawl-delay: 2\nDisallow:\n\nSitemap: https://docs.example/sitemap.xml\n') });
    expect(robots.crawlDelayMs).toBe(2000);
    expect(robots.sitemaps).toEqual(['https://docs.example/sitemap.xml']);
  });

  it('reads robots.txt whatever its Content-Type, and governs its own origin only', async () => {
    const { robots, base } = await robotsFor({ '/robots.txt': { status: 200, type: 'application/octet-stream', body: 'User-agent: *\nDisallow: /docs/private/\n' } });
    expect(robots.blocked).toBeUndefined();
    expect(robots.isAllowed(`${base}/docs/private/a.html`)).toBe(false);
    expect(robots.isAllowed(`${base}/docs/public.html`)).toBe(true);
    expect(robots.isAllowed('http://other.example/docs/public.html')).toBe(false);
  });

  it('treats a robots.txt that redirects too often as unavailable: no restrictions', async () => {
    const hops = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [index === 0 ? '/robots.txt' : `/r${index}`, { status: 302, location: `/r${index + 1}` }]));
    const { robots, base } = await robotsFor(hops);
    expect(robots.blocked).toBeUndefined();
    expect(robots.isAllowed(`${base}/docs/a.html`)).toBe(true);
  });

  it('allows everything when robots.txt is missing (4xx)', async () => {
    const { robots, base } = await robotsFor({});
    expect(robots.blocked).toBeUndefined();
    expect(robots.isAllowed(`${base}/docs/anything.html`)).toBe(true);
  });

  it('disallows everything, and says why, when robots.txt answers 5xx', async () => {
    const { robots, base } = await robotsFor({ '/robots.txt': { status: 503 } });
    expect(robots.isAllowed(`${base}/docs/a.html`)).toBe(false);
    expect(robots.blocked).toMatch(/returned HTTP 503; until robots.txt can be read the site counts as disallowed/);
  });
});
