import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { type SiteServer, serveSite } from '../../src/testing/http-site.js';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../src/testing/postgres-server.js';

const skip = postgresSkipReason();
const PAGES = 40;

/** A page answered after a short pause, so a crawl is still under way when a worker is stopped. */
const slowPage = (title: string, links: readonly string[]) => (_request: unknown, response: ServerResponse) => {
  setTimeout(() => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<html><head><title>${title}</title></head><body><main><h1 id="top">${title}</h1><p>Topic ${title} explained in words.</p>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</main></body></html>`);
  }, 15);
};

describe.skipIf(skip !== undefined)(`ingest workers sharing one crawl on PostgreSQL${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  let site: SiteServer;
  beforeAll(async () => {
    server = await startPostgresServer();
    const routes: Parameters<typeof serveSite>[0] = { '/docs/': slowPage('Home', Array.from({ length: PAGES }, (_, page) => `p${page}.html`)) };
    for (let page = 0; page < PAGES; page += 1) routes[`/docs/p${page}.html`] = slowPage(`Page${page}`, [`p${(page + 1) % PAGES}.html`]);
    site = await serveSite(routes);
  });
  afterAll(async () => {
    await site?.close();
    await server?.stop();
  });

  it("store every page once, fetch each body once but for the stopped worker's held URLs, and finish the crawl", async () => {
    const url = await server.createDatabase();
    const config = { dbPath: url, crawl: { leaseMs: 1_000, concurrency: 2, useSitemaps: false } };
    const workers = [0, 1, 2].map(() => createEngine(config));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const start = `${site.base}/docs/`;
    const reports = await Promise.all(workers.map((engine, index) => engine.ingest(start, index === 2 ? { signal: stop.signal } : {})));
    await Promise.all(workers.map((engine) => engine.close()));
    expect(reports[2]?.interrupted).toBe(true);

    const reader = createEngine({ dbPath: url });
    try {
      const stats = await reader.stats();
      expect(stats.pages).toBe(PAGES + 1);
      expect(stats.ingests[0]).toMatchObject({ outcome: 'complete' });
      const found = await reader.search('Topic Page17 explained', { limit: 1 });
      expect(found.results[0]?.url).toBe(`${site.base}/docs/p17.html#top`);
    } finally {
      await reader.close();
    }
    const fetches = new Map<string, number>();
    for (const request of site.requests) fetches.set(request.path, (fetches.get(request.path) ?? 0) + 1);
    for (let page = 0; page < PAGES; page += 1) expect(fetches.get(`/docs/p${page}.html`), `p${page}`).toBeGreaterThanOrEqual(1);
    // Each worker starts at the start page; a body is fetched again only when the stopped worker held it (at most its concurrency).
    const twice = [...fetches].filter(([path, count]) => path.startsWith('/docs/p') && count > 1);
    expect(twice.length).toBeLessThanOrEqual(config.crawl.concurrency);
    expect(twice.every(([, count]) => count === 2)).toBe(true);
  }, 120_000);
});
