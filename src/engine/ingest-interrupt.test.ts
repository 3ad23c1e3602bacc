import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlPage, serveSite, type SiteServer } from '../testing/http-site.js';
import { createEngine } from './engine.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

describe('an ingest interrupted (Ctrl-C) while a page is in flight', () => {
  it('reports no failure for that page, records the run as interrupted, and the next run fetches it', async () => {
    const controller = new AbortController();
    let interrupt = true;
    const server = await serveSite({
      '/docs/': htmlPage('Home', ['slow.html']),
      '/docs/slow.html': (_request, response) => {
        // The first time, the user presses Ctrl-C while this page is on its way.
        if (interrupt) controller.abort();
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Slow page')), interrupt ? 100 : 0);
      },
    });
    servers.push(server);
    const engine = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-interrupt-')), 'index.db'), crawl: { retries: 0, useSitemaps: false } });
    const start = `${server.base}/docs/`;
    const first = await engine.ingest(start, { signal: controller.signal });
    expect(first).toMatchObject({ interrupted: true, pages: 1, errors: [] });
    expect((await engine.stats()).ingests[0]).toMatchObject({ source: start, outcome: 'interrupted', complete: false });

    interrupt = false;
    const second = await engine.ingest(start);
    expect(second).toMatchObject({ interrupted: false, added: 1, errors: [] });
    expect((await engine.stats()).ingests[0]).toMatchObject({ outcome: 'complete', complete: true });
    expect((await engine.stats()).pages).toBe(2);
    await engine.close();
  });
});
