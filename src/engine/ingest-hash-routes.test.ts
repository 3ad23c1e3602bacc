import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../testing/http-site.js';
import { createEngine } from './engine.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

/** A Docsify home page as it reads once rendered: its sidebar links each page by a route in the fragment. */
const home = `<html><head><title>pino</title></head><body><aside class="sidebar"><ul>
  <li><a href="#/">Home</a></li><li><a href="#/api">API</a></li><li><a href="#/api?id=logger-instance">Logger instance</a></li><li><a href="#/transports">Transports</a></li>
  </ul></aside><section class="content"><article class="markdown-section" id="main"><h1 id="pino">pino</h1><p>Very low overhead JavaScript logger.</p>
  <p>See <a href="#/?id=install">Install</a> below.</p><h2 id="install">Install</h2><p>npm install pino</p></article></section></body></html>`;

describe('ingest of a site whose pages are routes in the URL fragment (Docsify)', () => {
  it('stores the page it can read and says once, with the page, that the pages it routes to by #/… were not read and what to ingest instead', async () => {
    const server = await serveSite({ '/docs/': home });
    servers.push(server);
    const engine = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-routes-')), 'index.db'), crawl: { retries: 0 } });
    const report = await engine.ingest(`${server.base}/docs/`, { allowPrivateHosts: true });
    expect(report).toMatchObject({ added: 1, hashRoutes: { count: 1, examples: [`${server.base}/docs/`] } });
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ code: 'crawl.hash-routes', message: expect.stringMatching(/^1 page links other pages by a route in the URL's fragment \(http:\/\/127\.0\.0\.1:\d+\/docs\/: #\/api.*Ingest the site's Markdown sources instead/) }),
    ]);
    await engine.close();
  });

  it('says nothing of a page whose fragment links go to places on it, even ids that start with a slash (Nim\'s `/` proc), or to a doubled slash (Vim\'s broken `#//`)', async () => {
    const page = home.replace(/href="#\/api[^"]*"/g, 'href="#/,Uri,string"').replace('href="#/transports"', 'href="#//"').replace('<h2 id="install">', '<h2 id="/,Uri,string">/(uri, path)</h2><h2 id="install">');
    const server = await serveSite({ '/docs/': page });
    servers.push(server);
    const engine = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-routes-')), 'index.db'), crawl: { retries: 0 } });
    const report = await engine.ingest(`${server.base}/docs/`, { allowPrivateHosts: true });
    expect(report.hashRoutes).toBeUndefined();
    expect(report.diagnostics).toEqual([]);
    await engine.close();
  });
});
