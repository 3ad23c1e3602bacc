/**
 * `citedocs web` end to end, offline: a server on 127.0.0.1 plays DuckDuckGo with a real captured
 * results page whose links lead to local sites (host names resolved to 127.0.0.1 by an injected
 * lookup, so domain weights see real host names).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { WebResponse } from '../../src/engine/web-types.js';
import { capturedResultsPage, capturedTargets, type FakeWeb, rewriteTargets, startFakeWeb } from '../../src/testing/fake-web.js';
import { FLATMAP_PAGES, flatmapSites } from '../../src/testing/flatmap-sites.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { loadTokenizer } from '../../src/tokenize/tokenizer.js';

const captured = capturedResultsPage();
const targets = capturedTargets(captured);
let fake: FakeWeb | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The fake web: the captured page's ten results lead, in rank order, to the scenario's ten pages. */
async function flatmapWeb(rename: (url: string, port: number) => string = (url, port) => withPort(url, port)): Promise<{ web: FakeWeb; url: (page: keyof typeof FLATMAP_PAGES) => string }> {
  let port = 0;
  const pages = Object.values(FLATMAP_PAGES);
  const web = await startFakeWeb(() => ({ status: 200, body: rewriteTargets(captured, new Map(targets.map((target, index) => [target, rename(pages[index] as string, port)]))) }), flatmapSites());
  port = web.sitePort;
  fake = web;
  return { web, url: (page) => rename(FLATMAP_PAGES[page], port) };
}

function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.href;
}

function engineFor(web: FakeWeb, dir = mkdtempSync(join(tmpdir(), 'citedocs-web-'))) {
  return createEngine({ dbPath: join(dir, 'index.db'), web: { timeoutMs: 1500, maxTotalTokens: 3000, cache: { path: join(dir, 'web-cache.db') } } }, { lookup: web.lookup });
}

describe('web documentation finder', () => {
  it('selects official docs over an equally relevant blog, one of two near-identical manual copies, a big page cut to its best sections, and reports a site that times out', async () => {
    const { web, url } = await flatmapWeb();
    const engine = engineFor(web);
    try {
      const response = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
      // Every search result, in rank order, with the metadata the search gave.
      expect(response.searched.map((hit) => hit.url)).toEqual(Object.keys(FLATMAP_PAGES).map((page) => url(page as keyof typeof FLATMAP_PAGES)));
      expect(response.searched.map((hit) => hit.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(response.searched[0]?.title).toBe('Home | Graphology');

      const selected = response.results.map((result) => result.url);
      const official = response.results.find((result) => result.url === url('official'));
      const blog = response.results.find((result) => result.url === url('blog'));
      expect(official).toBeDefined();
      expect(blog).toBeDefined();
      // Equal relevance (the blog even a little more), but the official host wins on its domain weight.
      expect(blog?.relevance ?? 0).toBeGreaterThanOrEqual((official?.relevance ?? 1) * 0.95);
      expect(selected.indexOf(url('official'))).toBeLessThan(selected.indexOf(url('blog')));
      expect(official?.snippet).toContain('Graphology');

      // One copy of the manual page; the other is a near-duplicate of it.
      const copies = [url('mirrorA'), url('mirrorB')];
      expect(selected.filter((selectedUrl) => copies.includes(selectedUrl))).toHaveLength(1);
      const duplicate = response.dropped.find((drop) => copies.includes(drop.url));
      expect(duplicate).toMatchObject({ reason: 'duplicate' });
      expect(copies).toContain(duplicate?.duplicateOf);

      // The big guide does not fit whole: its flatMap section does.
      const big = response.results.find((result) => result.url === url('big'));
      expect(big?.sections).toEqual([`${url('big')}#flatmap`]);
      expect(big?.text).toContain('flatMap()');
      expect(big?.text).not.toContain('Array.prototype.push()');

      // The site that never answers is reported, not fatal; so are the 404, the PDF and robots.txt's refusal.
      expect(response.dropped).toContainEqual(expect.objectContaining({ url: url('slow'), reason: 'fetch', message: expect.stringContaining('timed out') }));
      expect(response.warnings.some((warning) => warning.includes(url('slow')))).toBe(true);
      expect(response.dropped).toContainEqual(expect.objectContaining({ url: url('missing'), reason: 'fetch' }));
      expect(response.dropped).toContainEqual(expect.objectContaining({ url: url('pdf'), reason: 'fetch' }));
      expect(response.dropped).toContainEqual(expect.objectContaining({ url: url('disallowed'), reason: 'robots' }));
      expect(web.requests).not.toContain(`closed.example.test${new URL(url('disallowed')).pathname}`);
      expect(response.dropped).toContainEqual(expect.objectContaining({ url: url('unrelated'), reason: 'threshold' }));

      // Within the budget, counted with the target tokenizer on the Markdown output.
      expect(response.totalTokens).toBeLessThanOrEqual(3000);
      const tokenizer = await loadTokenizer('o200k_base');
      for (const result of response.results) expect(result.tokenCount).toBe(tokenizer.count(result.text));
    } finally {
      await engine.close();
    }
  });

  it('answers a second run of the same query from the cache with zero network requests', async () => {
    const { web } = await flatmapWeb();
    const engine = engineFor(web);
    try {
      const first = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
      const requestsAfterFirst = web.requests.length;
      expect(first.requests.search).toBe(1);
      expect(first.requests.pages).toBeGreaterThan(10);
      const second = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
      expect(web.requests.length).toBe(requestsAfterFirst);
      expect(second.requests).toEqual({ search: 0, pages: 0 });
      expect(second.results.map((result) => [result.url, result.score])).toEqual(first.results.map((result) => [result.url, result.score]));
      // Without the cache, the network is asked again.
      await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl, cache: false });
      expect(web.requests.length).toBeGreaterThan(requestsAfterFirst);
    } finally {
      await engine.close();
    }
  });

  it('searches with a SearchBackend given to the engine instead of DuckDuckGo, keeping its ranks, titles and snippets', async () => {
    const { web, url } = await flatmapWeb();
    const dir = mkdtempSync(join(tmpdir(), 'citedocs-web-backend-'));
    const hits = [
      { url: url('blog'), title: 'A blog', snippet: 'flatMap, explained', rank: 1 },
      { url: url('official'), title: 'MDN', snippet: 'The flatMap() method', rank: 2 },
    ];
    const queries: string[] = [];
    const engine = createEngine(
      { dbPath: join(dir, 'index.db'), web: { cache: { enabled: false } } },
      { lookup: web.lookup, searchBackend: { name: 'in-memory', endpoint: 'memory:', search: async (query) => (queries.push(query), { hits, warnings: [], requests: 1 }) } },
    );
    try {
      const response = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true });
      expect(queries).toEqual(['Array.prototype.flatMap']);
      expect(web.requests).not.toContain('search');
      expect(response.searched).toEqual(hits);
      expect(response.results.map((result) => [result.url, result.rank, result.snippet])).toEqual([
        [url('official'), 2, 'The flatMap() method'],
        [url('blog'), 1, 'flatMap, explained'],
      ]);
    } finally {
      await engine.close();
    }
  });

  it('with save, stores the selected pages in the index with their anchors, so ask cites them', async () => {
    const { web, url } = await flatmapWeb();
    const dir = mkdtempSync(join(tmpdir(), 'citedocs-web-save-'));
    const engine = engineFor(web, dir);
    try {
      const response = await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl, save: true });
      expect(response.saved).toMatchObject({ pages: response.results.length, dbPath: join(dir, 'index.db') });
      expect((await engine.inspect(url('official')))?.anchors).toEqual(expect.arrayContaining(['syntax', 'parameters', 'return-value']));
      const answer = await engine.ask('what does flatMap return?');
      // The answer follows the ranking (the blog leads here); whichever saved page it cites, it cites it at an anchor the page has.
      expect(answer.citations.length).toBeGreaterThan(0);
      const saved = new Set(response.results.map((result) => result.url.split('#')[0]));
      for (const citation of answer.citations) {
        const [page = '', anchor] = citation.url.split('#');
        expect(saved, citation.url).toContain(page);
        expect((await engine.inspect(page))?.anchors, citation.url).toContain(anchor);
      }
    } finally {
      await engine.close();
    }
  });

  it('refuses result URLs that resolve to private addresses unless allowPrivateHosts is set, never connects to them, and never serves them from the cache', async () => {
    const { web } = await flatmapWeb();
    const engine = engineFor(web);
    try {
      // Pages cached by a run that allowed private hosts are not served to one that does not.
      await engine.web('Array.prototype.flatMap', { allowPrivateHosts: true, searchUrl: web.searchUrl });
      web.requests.splice(0);
      const response = await engine.web('Array.prototype.flatMap', { searchUrl: web.searchUrl });
      expect(response.results).toEqual([]);
      expect(response.dropped.filter((drop) => drop.reason === 'refused')).toHaveLength(10);
      expect(response.dropped[0]?.message).toMatch(/resolves to 127\.0\.0\.1, which is a loopback address.*--allow-private-hosts/);
      expect(web.requests).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

describe('citedocs web (CLI)', () => {
  const setup = async () => {
    // Here the pages are on 127.0.0.1 itself: what a script sees with --allow-private-hosts.
    const { web, url } = await flatmapWeb((page, port) => `http://127.0.0.1:${port}/${new URL(page).hostname}${new URL(page).pathname}`);
    const dir = mkdtempSync(join(tmpdir(), 'citedocs-web-cli-'));
    const config = join(dir, 'citedocs.config.json');
    writeFileSync(config, JSON.stringify({ web: { timeoutMs: 1000, respectRobots: false, cache: { path: join(dir, 'cache.db') } } }));
    return { web, url, dir, config };
  };

  it('prints {results, searched, warnings} with --json, within --max-tokens, examining at most --max-results results', async () => {
    const { web, dir, config } = await setup();
    const run = await runCliCaptured(['web', 'Array.prototype.flatMap', '--json', '--search-url', web.searchUrl, '--max-tokens', '1500', '--max-results', '4', '--allow-private-hosts', '--config', config], { cwd: dir });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as WebResponse;
    expect(output.searched).toHaveLength(4);
    expect(output.searched[0]).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//), title: 'Home | Graphology', snippet: expect.any(String), rank: 1 });
    expect(output.results.length).toBeGreaterThan(0);
    for (const result of output.results) expect(result).toEqual(expect.objectContaining({ url: expect.any(String), title: expect.any(String), snippet: expect.any(String), score: expect.any(Number), tokenCount: expect.any(Number) }));
    expect(output.warnings).toEqual(expect.any(Array));
    expect(output.totalTokens).toBeLessThanOrEqual(1500);
  });

  it('prints Markdown for a prompt that stays within --max-tokens', async () => {
    const { web, dir, config } = await setup();
    const run = await runCliCaptured(['web', 'Array.prototype.flatMap', '--search-url', web.searchUrl, '--max-tokens', '800', '--allow-private-hosts', '--config', config], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^## \[1\] /);
    expect(run.stdout).toContain('Source: http://127.0.0.1:');
    const tokenizer = await loadTokenizer('o200k_base');
    expect(tokenizer.count(run.stdout)).toBeLessThanOrEqual(800);
    expect(run.stderr).toMatch(/results selected, \d+ of 800 tokens/);
  });

  it('exits 1 with a clear message when the search engine answers with its bot challenge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citedocs-web-cli-'));
    writeFileSync(join(dir, 'citedocs.config.json'), JSON.stringify({ web: { searchAttempts: 1, cache: { enabled: false } } }));
    fake = await startFakeWeb(() => ({ status: 202, body: capturedResultsPage('ddg_anomaly_challenge_202_clele.html') }), {});
    const run = await runCliCaptured(['web', 'flatMap', '--json', '--search-url', fake.searchUrl], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bot challenge.*rate limiting.*try again/i);
  });
});
