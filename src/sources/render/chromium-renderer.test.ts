/**
 * The Chromium renderer against pages on 127.0.0.1 (Debian's chromium, as the chat-page test
 * uses). A second server on another port stands for another host: it counts TCP connections,
 * so a request that slipped past the router (preconnect, WebSocket, image, fetch) shows.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import { createChromiumRenderer, playwrightMissing, RendererUnavailableError } from './chromium-renderer.js';
import type { PageRenderer, ResourceAnswer } from './page-renderer.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium with apt.`);

const SHELL = '<!doctype html><html><head><title>App</title><script defer src="/app.js"></script></head><body><div id="root"></div></body></html>';

describe.skipIf(!available)('Chromium renderer', { timeout: 60_000 }, () => {
  let site: SiteServer;
  let other: { server: Server; url: string; connections: number };
  let renderer: PageRenderer;
  let fetched: string[];

  /** What the crawler does: its own origin fetched, any other host refused. */
  const sameOriginOnly = async (url: string, abortSignal: AbortSignal): Promise<ResourceAnswer> => {
    fetched.push(url);
    if (new URL(url).origin !== site.base) return { kind: 'refused', reason: `${new URL(url).host} is another host` };
    const response = await fetch(url, { signal: abortSignal });
    return { kind: 'response', status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'text/plain' }, body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    const connections = { count: 0 };
    const server = createServer((socket) => {
      connections.count += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    other = {
      server,
      url: otherUrl,
      get connections() {
        return connections.count;
      },
    };
    site = await serveSite({
      '/app.js': {
        status: 200,
        type: 'text/javascript',
        body: `document.getElementById('root').innerHTML = '<h1 id="start">Getting started</h1><p>Install the widget frobnicator with one command.</p><a href="/guide.html">Guide</a>';`,
      },
      '/leaky.js': {
        status: 200,
        type: 'text/javascript',
        body: `
          document.getElementById('root').innerHTML = '<h1 id="leaky">Leaky page</h1><p>This page tries to reach another host in every way it can.</p><img src="${otherUrl}/pixel.png">';
          fetch('${otherUrl}/api').catch(() => {});
          navigator.sendBeacon && navigator.sendBeacon('${otherUrl}/beacon', 'x');
          try { new WebSocket('${otherUrl.replace('http', 'ws')}/socket'); } catch {}
          fetch('/save', { method: 'POST', body: 'x' }).catch(() => {});`,
      },
      '/never.js': { status: 200, type: 'text/javascript', body: `setInterval(() => fetch('/poll').catch(() => {}), 100);` },
      '/poll': { status: 200, type: 'application/json', body: '{}' },
    });
    renderer = createChromiumRenderer({ executablePath: CHROMIUM, concurrency: 2, timeoutMs: 5_000, maxBytes: 1024 * 1024 });
  });

  afterAll(async () => {
    await renderer.close();
    await site.close();
    await new Promise<void>((resolve) => other.server.close(() => resolve()));
  });

  it('returns the document the page scripts built, its links included, from the HTML it is given', async () => {
    fetched = [];
    const rendered = await renderer.render(`${site.base}/`, { html: SHELL, fetchResource: sameOriginOnly });
    expect(rendered.html).toContain('<h1 id="start">Getting started</h1>');
    expect(rendered.html).toContain('href="/guide.html"');
    // The page's own document is the crawler's copy: only its script was requested.
    expect(site.requests.map((request) => request.path)).not.toContain('/');
    expect(fetched).toEqual([`${site.base}/app.js`]);
  });

  it('never reaches another host: images, fetch, beacons, WebSockets and preconnects are refused or fail closed', async () => {
    fetched = [];
    const html = `<!doctype html><html><head><link rel="preconnect" href="${other.url}"><link rel="dns-prefetch" href="${other.url}"><script defer src="/leaky.js"></script></head><body><div id="root"></div></body></html>`;
    const rendered = await renderer.render(`${site.base}/leaky.html`, { html, fetchResource: sameOriginOnly });
    expect(rendered.html).toContain('Leaky page');
    expect(other.connections).toBe(0);
    const refusedUrls = rendered.refused.map((entry) => entry.url);
    expect(refusedUrls).toContain(`${other.url}/pixel.png`);
    expect(refusedUrls).toContain(`${other.url}/api`);
    // A POST never goes out, even to the page's own host.
    expect(rendered.refused).toContainEqual({ url: `${site.base}/save`, reason: 'a POST request' });
    expect(site.requests.map((request) => request.path)).not.toContain('/save');
  });

  it('keeps what a page that never goes idle built within its time budget', async () => {
    const polling = createChromiumRenderer({ executablePath: CHROMIUM, concurrency: 1, timeoutMs: 1_500, maxBytes: 1024 * 1024 });
    try {
      const html = '<!doctype html><html><head><script src="/never.js"></script></head><body><h1 id="poll">Polling page</h1></body></html>';
      const rendered = await polling.render(`${site.base}/poll.html`, { html, fetchResource: sameOriginOnly });
      expect(rendered.html).toContain('Polling page');
    } finally {
      await polling.close();
    }
  });

  it('stops an interrupted render and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(renderer.render(`${site.base}/`, { html: SHELL, fetchResource: sameOriginOnly, abortSignal: controller.signal })).rejects.toMatchObject({ interrupted: true });
  });
});

describe('Chromium renderer without playwright-core', () => {
  it('names the command that installs the optional package where citedocs is installed', () => {
    expect(playwrightMissing({ kind: 'global', prefix: '/opt/tools' })).toBe(
      '--render needs the optional npm package playwright-core, which is not installed: install it with `npm install -g --prefix /opt/tools playwright-core@^1.65.1`.',
    );
    expect(playwrightMissing({ kind: 'dependency', project: '/srv/app' })).toMatch(/`npm install playwright-core@\^1\.65\.1` in \/srv\/app\.$/);
  });
});

describe('Chromium renderer without Chromium', () => {
  it('fails with how to install it, naming the path it looked at', async () => {
    const renderer = createChromiumRenderer({ executablePath: '/nonexistent/chromium', concurrency: 1, timeoutMs: 1_000, maxBytes: 1024 });
    const rendering = renderer.render('http://127.0.0.1:1/', { html: SHELL, fetchResource: () => Promise.resolve({ kind: 'refused', reason: 'test' }) });
    await expect(rendering).rejects.toBeInstanceOf(RendererUnavailableError);
    await expect(rendering).rejects.toThrow(/not at \/nonexistent\/chromium: install it \(`apt-get install chromium`/);
    await renderer.close();
  });
});
