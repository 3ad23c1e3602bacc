import { existsSync } from 'node:fs';
import pLimit from 'p-limit';
import type { Browser, BrowserContext, BrowserType, Route } from 'playwright-core';
import { CitedocsError, describeCause } from '../../core/errors.js';
import { type InstallKind, installInstruction, installKind } from '../../core/install-hint.js';
import { optionalPackageSpec } from '../../core/package-info.js';
import { type PageRenderer, type RenderedPage, RenderError, type RenderOptions } from './page-renderer.js';

export interface ChromiumRendererOptions {
  /** Debian's `chromium` by default (`apt-get install chromium`). */
  executablePath: string;
  /** Pages rendering at once: each is a renderer process of its own. */
  concurrency: number;
  /** Budget of one page: loading, then waiting for its network to go idle. What is built by then is kept. */
  timeoutMs: number;
  /** A rendered document larger than this is refused, like a fetched one. */
  maxBytes: number;
}

/** Rendering cannot start at all (playwright-core or Chromium missing): the whole ingest stops with how to fix it. */
export class RendererUnavailableError extends CitedocsError {
  override readonly name = 'RendererUnavailableError';
}

/**
 * playwright-core (14 MB) is an optional peer dependency: only `--render` uses it. The message
 * names the command that installs it where this copy of citedocs imports from (a global prefix, a
 * project).
 */
export function playwrightMissing(where: InstallKind = installKind()): string {
  return `--render needs the optional npm package playwright-core, which is not installed: install it with ${installInstruction([optionalPackageSpec('playwright-core')], where)}.`;
}

/** Time given, past the page's budget, to read its DOM and close it before it is torn down. */
const CLOSE_GRACE_MS = 5_000;
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * Chromium cut off from the network: every request goes through the route handler (to the
 * crawler's `fetchResource`); anything that escapes it (preconnect, DNS prefetch, WebSocket,
 * WebRTC) meets a proxy nobody listens on and a resolver that resolves nothing. The V8 heap
 * of a page is bounded, so one page cannot take the machine's memory.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--mute-audio',
  // Port 9 (discard): nothing listens, so a request that bypassed the router fails at once.
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy',
  '--js-flags=--max-old-space-size=256',
];

/**
 * Renders pages in headless Chromium (driven by playwright-core, loaded on first use). One
 * browser for the renderer's life, launched on the first page; each page gets a fresh
 * context (its own cookies, storage and renderer process), closed when the page is read, so
 * memory stays bounded by `concurrency` pages at a time. The page's own document is the HTML
 * the crawler fetched; its other requests are GETs the crawler answers or refuses; any
 * navigation away is refused.
 */
export function createChromiumRenderer(options: ChromiumRendererOptions): PageRenderer {
  const limit = pLimit(options.concurrency);
  let browser: Promise<Browser> | undefined;
  const launch = () => (browser ??= launchChromium(options.executablePath));

  return {
    render: (url, renderOptions) => limit(() => renderPage(launch, url, renderOptions, options)),
    async close() {
      limit.clearQueue();
      const opened = await browser?.catch(() => undefined);
      await opened?.close().catch(() => undefined);
    },
  };
}

async function launchChromium(executablePath: string): Promise<Browser> {
  let chromium: BrowserType;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (error) {
    throw new RendererUnavailableError(playwrightMissing(), { cause: error });
  }
  if (!existsSync(executablePath)) {
    throw new RendererUnavailableError(`--render needs Chromium, which is not at ${executablePath}: install it (\`apt-get install chromium\` on Debian and Ubuntu), or set crawl.browserPath to where it is.`);
  }
  try {
    return await chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: LAUNCH_TIMEOUT_MS });
  } catch (error) {
    throw new RendererUnavailableError(`--render could not start Chromium at ${executablePath}: ${describeCause(error).split('\n')[0] ?? ''}`, { cause: error });
  }
}

async function renderPage(launch: () => Promise<Browser>, url: string, renderOptions: RenderOptions, options: ChromiumRendererOptions): Promise<RenderedPage> {
  const interrupted = () => renderOptions.abortSignal?.aborted === true;
  if (interrupted()) throw new RenderError(`Rendering ${url} was interrupted`, url, { interrupted: true });
  const browser = await launch();
  const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
  const started = Date.now();
  // Ends the page's outstanding resource fetches once it is read, or when the time is up or the user interrupts.
  const finished = new AbortController();
  const hardLimit = AbortSignal.timeout(options.timeoutMs + CLOSE_GRACE_MS);
  const signal = AbortSignal.any([finished.signal, hardLimit, ...(renderOptions.abortSignal === undefined ? [] : [renderOptions.abortSignal])]);
  const tearDown = () => void context.close().catch(() => undefined);
  signal.addEventListener('abort', tearDown, { once: true });
  const refused: RenderedPage['refused'] = [];
  try {
    await routeThroughCrawler(context, renderOptions, refused, signal);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs });
    const remaining = options.timeoutMs - (Date.now() - started);
    // A page that keeps polling never goes idle: what it built within its budget is kept.
    if (remaining > 0) await page.waitForLoadState('networkidle', { timeout: remaining }).catch(() => undefined);
    const html = await page.content();
    if (Buffer.byteLength(html) > options.maxBytes) throw new RenderError(`${url} rendered to more than ${options.maxBytes} bytes; skipped`, url);
    return { html, refused };
  } catch (error) {
    if (error instanceof RenderError) throw error;
    if (interrupted()) throw new RenderError(`Rendering ${url} was interrupted`, url, { cause: error, interrupted: true });
    if (hardLimit.aborted || /timeout/i.test(describeCause(error))) throw new RenderError(`Rendering ${url} timed out after ${options.timeoutMs} ms (crawl.renderTimeoutMs)`, url, { cause: error });
    throw new RenderError(`Could not render ${url}: ${describeCause(error).split('\n')[0] ?? ''}`, url, { cause: error });
  } finally {
    signal.removeEventListener('abort', tearDown);
    finished.abort();
    await context.close().catch(() => undefined);
  }
}

/** Every request of the context: the page's own document from the crawler's copy, GETs through the crawler, the rest refused. */
async function routeThroughCrawler(context: BrowserContext, renderOptions: RenderOptions, refused: RenderedPage['refused'], signal: AbortSignal): Promise<void> {
  let documentServed = false;
  const refuse = async (route: Route, reason: string) => {
    refused.push({ url: route.request().url(), reason });
    await route.abort('blockedbyclient');
  };
  await context.route('**/*', async (route) => {
    const request = route.request();
    try {
      if (request.isNavigationRequest()) {
        if (!documentServed && request.frame().parentFrame() === null) {
          documentServed = true;
          await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: renderOptions.html });
          return;
        }
        await refuse(route, 'a navigation away from the page being rendered');
        return;
      }
      // Rendering reads a page; it never sends data to the site.
      if (request.method() !== 'GET') return await refuse(route, `a ${request.method()} request`);
      const answer = await renderOptions.fetchResource(request.url(), signal).catch((error: unknown) => ({ kind: 'refused' as const, reason: describeCause(error) }));
      if (answer.kind === 'refused') return await refuse(route, answer.reason);
      await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body });
    } catch {
      // The page was closed while this request was in flight: nothing is waiting for it.
    }
  });
}
