/**
 * The chat page in a real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * type a question, watch the cited answer arrive, click a citation and land on the exact
 * URL#anchor of the documentation site, served from 127.0.0.1. A screenshot of the answered
 * chat is saved to test-output/chat-page.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { Engine } from '../../src/engine/engine-types.js';
import { createHttpServer } from '../../src/interfaces/http/server.js';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import type { StaticServer } from '../../src/testing/static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium with apt.`);

const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

describe.skipIf(!available)('the chat page in headless Chromium', () => {
  let site: StaticServer;
  let engine: Engine;
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    const fixture = await indexFixtureSite('citedocs-chat-');
    site = fixture.site;
    engine = createEngine({ dbPath: fixture.dbPath });
    app = await createHttpServer(engine);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    // Root in CI containers: Chromium's sandbox needs user namespaces it may not have.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await engine?.close();
    await site?.close();
  });

  it('answers a typed question with citations; clicking one opens the cited section of the docs site', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByLabel('Question').fill('how do I drop a table');
    await page.keyboard.press('Enter');

    const answer = page.locator('.turn.assistant[data-done="true"]');
    await answer.waitFor({ timeout: 15_000 });
    await expect.poll(() => answer.locator('a.citation').count()).toBeGreaterThan(0);
    expect(await answer.innerText()).toMatch(/DROP TABLE/);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'chat-page.png'), fullPage: true });

    const citation = answer.locator('a.citation').filter({ hasText: '[1]' }).first();
    const href = (await citation.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^${site.url}docs/guide/tables/dropping\\.html#[\\w-]+$`));
    const [opened] = await Promise.all([context.waitForEvent('page'), citation.click()]);
    await opened.waitForLoadState('domcontentloaded');
    expect(opened.url()).toBe(href);
    const anchor = decodeURIComponent(new URL(href).hash.slice(1));
    expect(await opened.locator(`[id="${anchor}"]`).count()).toBe(1);
    await context.close();
  }, 60_000);

  it('keeps the conversation: a follow-up that points back is answered from the topic before it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const ask = async (question: string, turn: number) => {
      await page.getByLabel('Question').fill(question);
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.locator('.turn.assistant[data-done="true"]').nth(turn).waitFor({ timeout: 15_000 });
    };
    await ask('how do I drop a table', 0);
    await ask('what happens to its indexes?', 1);
    const href = await page.locator('.turn.assistant').nth(1).locator('a.citation').first().getAttribute('href');
    expect(href).toMatch(/dropping\.html#dropping-a-table$/);
    await context.close();
  }, 60_000);
});
