import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../testing/http-site.js';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

/** JSDoc's entry for `debounce`, whose "Source:" line links to the listing of lodash.js. */
const entryPage = `<html><head><title>JSDoc: Class: _</title></head><body><div id="main"><h1 class="page-title">Class: _</h1><section><article>
  <h4 class="name" id=".debounce">debounce<span class="signature">(func, wait)</span></h4><div class="description">Creates a debounced function that delays invoking func until after wait milliseconds.</div>
  <dl class="details"><dt class="tag-source">Source:</dt><dd class="tag-source"><a href="lodash.js.html">lodash.js</a>, <a href="lodash.js.html#line10377">line 10377</a></dd></dl>
  </article></section></div><nav><a href="index.html">Home</a></nav><script src="scripts/linenumber.js"></script></body></html>`;
/** JSDoc's listing of the source: the same doc comment again, in a file of code; its link goes on to the README. */
const listingPage = `<html><head><title>JSDoc: Source: lodash.js</title></head><body><div id="main"><h1 class="page-title">Source: lodash.js</h1><section><article>
  <pre class="prettyprint source linenums"><code>/**
 * Creates a debounced function that delays invoking func until after wait milliseconds.
 */
function debounce(func, wait) {}</code></pre></article></section></div><nav><a href="readme.html">Readme</a></nav><script src="scripts/linenumber.js"></script></body></html>`;
const readmePage = `<html><head><title>Readme</title></head><body><main><h1 id="readme">Readme</h1><p>The modern utility library.</p></main></body></html>`;

describe("ingest of a documentation generator's listing of the source code", () => {
  it('follows its links, stores none of its text, says so once for the run: the entry is found, not the listing', async () => {
    const server = await serveSite({ '/docs/': entryPage, '/docs/lodash.js.html': listingPage, '/docs/readme.html': readmePage });
    servers.push(server);
    const engine = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-listing-')), 'index.db'), crawl: { retries: 0 } });
    const report = await engine.ingest(`${server.base}/docs/`, { allowPrivateHosts: true });
    expect(report).toMatchObject({ added: 2, sourceListings: { count: 1, examples: [`${server.base}/docs/lodash.js.html`] } });
    expect(report.diagnostics).toEqual([expect.objectContaining({ code: 'crawl.source-listing', message: expect.stringContaining(`1 page is the documentation generator's listing of the source code (${server.base}/docs/lodash.js.html)`) })]);
    const urls = (await engine.search('debounced function delays invoking')).results.map((result) => result.url);
    expect(urls[0]).toBe(`${server.base}/docs/#.debounce`);
    expect(urls.some((url) => url.includes('lodash.js.html'))).toBe(false);
    expect((await engine.search('modern utility library')).results.map((result) => result.url)).toEqual([`${server.base}/docs/readme.html#readme`]);
    await engine.close();
  });

  it('removes a listing an older extraction stored, though the site answers 304 for it: a page read by an older extraction is read again in full', async () => {
    const bodies = new Map([['/docs/', entryPage], ['/docs/lodash.js.html', readmePage.replace(/Readme/g, 'Source')]]);
    // Every page answers 304 to its ETag, whatever it serves now: the site says nothing changed.
    const server = await serveSite(Object.fromEntries([...bodies.keys()].map((path) => [path, (request: IncomingMessage, response: ServerResponse) => {
      if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
      response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(bodies.get(path));
    }])));
    servers.push(server);
    const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-listing-')), 'index.db');
    const start = `${server.base}/docs/`;
    const first = createEngine({ dbPath, crawl: { retries: 0 } });
    expect(await first.ingest(start, { allowPrivateHosts: true })).toMatchObject({ added: 2 });
    await first.close();
    bodies.set('/docs/lodash.js.html', listingPage);
    const second = createEngine({ dbPath, crawl: { retries: 0 } });
    expect(await second.ingest(start, { allowPrivateHosts: true })).toMatchObject({ unchanged: 2, fetched: 0, removed: 0 });
    await second.close();
    // As an index of the version before: each page's key without the extraction's version.
    const db = new Database(dbPath);
    db.prepare("UPDATE pages SET chunking = json_remove(chunking, '$.extraction')").run();
    db.close();
    const third = createEngine({ dbPath, crawl: { retries: 0 } });
    expect(await third.ingest(start, { allowPrivateHosts: true })).toMatchObject({ removed: 1, sourceListings: { count: 1 } });
    expect((await third.search('debounced function delays invoking')).results.map((result) => result.url)).toEqual([`${server.base}/docs/#.debounce`]);
    expect(await third.ingest(start, { allowPrivateHosts: true })).toMatchObject({ fetched: 0, unchanged: 1 });
    await third.close();
  });

  it('reads a folder the same way, and removes a page stored before it became a listing', async () => {
    const { docs, dbPath } = docsWorkspace({ 'index.html': entryPage, 'lodash.js.html': readmePage.replace(/Readme/g, 'Source') });
    const engine = createEngine({ dbPath });
    expect(await engine.ingest(docs, { baseUrl: 'https://lodash.example/' })).toMatchObject({ added: 2 });
    writeFileSync(join(docs, 'lodash.js.html'), listingPage);
    const report = await engine.ingest(docs, { baseUrl: 'https://lodash.example/' });
    expect(report).toMatchObject({ removed: 1, sourceListings: { count: 1, examples: ['lodash.js.html'] } });
    expect((await engine.search('debounced function delays invoking')).results.map((result) => result.url)).toEqual(['https://lodash.example/#.debounce']);
    await engine.close();
  });
});
