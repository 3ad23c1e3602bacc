import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import { parseLlmsFullTxt, parseLlmsTxt, readSitemaps } from './sitemaps.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
const xml = (body: string) => ({ status: 200, type: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>${body}` });

describe('readSitemaps', () => {
  it('follows a sitemap index to the page URLs of its sitemaps', async () => {
    // Sitemaps name absolute URLs: each file is written with the address it is served from.
    const xmlAt = (body: (base: string) => string) => (request: IncomingMessage, response: ServerResponse) =>
      void response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?>${body(`http://${request.headers.host}`)}`);
    const server = await serveSite({
      '/sitemap-index.xml': xmlAt((base) => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/s1.xml</loc></sitemap><sitemap><loc>/s2.xml</loc></sitemap></sitemapindex>`),
      '/s1.xml': xmlAt((base) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/docs/a.html</loc><lastmod>2024-01-01</lastmod></url></urlset>`),
      '/s2.xml': xmlAt((base) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> ${base}/docs/b.html </loc></url><url><loc>${base}/docs/c.html</loc></url></urlset>`),
    });
    servers.push(server);
    const result = await readSitemaps([`${server.base}/sitemap-index.xml`], {
      fetch: (input, init) => fetch(input, init), userAgent: 't', timeoutMs: 2000, maxBytes: 1e6, maxRedirects: 3, retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 1, maxUrls: 100,
    });
    expect(result.urls).toEqual([`${server.base}/docs/a.html`, `${server.base}/docs/b.html`, `${server.base}/docs/c.html`]);
    expect(result.problems).toEqual([]);
  });

  it('reports an invalid sitemap and ignores a missing one', async () => {
    const server = await serveSite({ '/bad.xml': xml('<urlset><url><loc>x</loc></url') });
    servers.push(server);
    const result = await readSitemaps([`${server.base}/bad.xml`, `${server.base}/missing.xml`], {
      fetch: (input, init) => fetch(input, init), userAgent: 't', timeoutMs: 2000, maxBytes: 1e6, maxRedirects: 3, retries: 0, retryBaseDelayMs: 1, maxRetryAfterMs: 1, maxUrls: 100,
    });
    expect(result.urls).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(/bad.xml is not valid XML/);
  });
});

describe('parseLlmsFullTxt', () => {
  it('lists the Source: and URL: lines of the concatenated documents and their links, without fragments, http(s) only', () => {
    const text = '# Guide\nSource: https://d.example/docs/guide\n\nText with [a link](/docs/api.html.md).\n\n# API\nURL: <https://d.example/docs/api#top>\nsource: mailto:x@d.example\n';
    expect(parseLlmsFullTxt(text, 'https://d.example/llms-full.txt')).toEqual(['https://d.example/docs/api.html', 'https://d.example/docs/guide', 'https://d.example/docs/api']);
  });
});

describe('parseLlmsTxt', () => {
  it('lists the linked pages, mapping page.html.md to page.html', () => {
    const text = '# Project\n\n> Summary\n\n## Docs\n\n- [Guide](https://d.example/docs/guide.html.md): the guide\n- [API](/docs/api/ "API reference")\n- [Notes](notes.md)\n';
    expect(parseLlmsTxt(text, 'https://d.example/llms.txt')).toEqual(['https://d.example/docs/guide.html', 'https://d.example/docs/api/', 'https://d.example/notes.md']);
  });
});
