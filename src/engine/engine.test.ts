import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError, UsageError } from '../core/errors.js';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const workspace = (files: Record<string, string>) => docsWorkspace(files);

const files = {
  'index.md': '# Home\n\nWelcome to the widget docs. Read the [setup guide](guide/setup.md#install-the-cli).',
  'guide/setup.md': '# Setup\n\n## Install the CLI\n\nRun `npm install widget` to install the command line tool.\n\n## Configure timeouts\n\nSet `timeoutMs` in the config file to change how long a request may take. The default timeout is 30 seconds.',
  'guide/index.md': '# Guide\n\nThe guide explains setup and usage.',
};

describe('engine over a folder of Markdown', () => {
  it('ingests, then finds the right section with its published URL#anchor', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    const report = await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    expect(report).toMatchObject({ pages: 3, added: 3, errors: [], interrupted: false });
    const { results, warnings } = await engine.search('how do I change the request timeout');
    expect(warnings).toEqual([]);
    expect(results[0]).toMatchObject({ url: 'https://widget.example/docs/guide/setup#configure-timeouts', title: 'Setup', headingPath: ['Setup', 'Configure timeouts'] });
    await engine.close();
  });

  it('answers with cited sentences whose URLs are the pages and anchors in the index', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const answer = await engine.ask('what is the default timeout');
    expect(answer.answer).toContain('The default timeout is 30 seconds. [1]');
    expect(answer.answer).toMatch(/\n\nSources:\n\[1\] Setup › Configure timeouts — https:\/\/widget\.example\/docs\/guide\/setup#configure-timeouts$/);
    expect(answer.citations[0]).toEqual({ n: 1, url: 'https://widget.example/docs/guide/setup#configure-timeouts', anchor: 'configure-timeouts', title: 'Setup › Configure timeouts', library: 'widget', version: 'latest' });
    expect(answer.selection.sources.map((source) => source.url)).toContain('https://widget.example/docs/guide/setup#configure-timeouts');
    expect(answer.selection.totalTokens).toBe(answer.selection.sources.reduce((sum, source) => sum + source.tokenCount, 0));
    expect(answer.selection.dropped).toBeUndefined();
    expect(answer.warnings).toEqual([]);
    await engine.close();
  });

  it('links to the files themselves when no base URL is given', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs);
    expect((await engine.search('install the CLI')).results[0]?.url).toMatch(/^file:\/\/.*\/docs\/guide\/setup\.md#install-the-cli$/);
    await engine.close();
  });

  it('re-ingests unchanged pages without rewriting them and replaces a changed page', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    const first = await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const again = await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    expect(again).toMatchObject({ pages: 3, added: 0, changed: 0, unchanged: 3, chunks: first.chunks });
    writeFileSync(join(docs, 'guide/setup.md'), '# Setup\n\n## Proxies\n\nSet `proxyUrl` to route requests through a proxy.');
    const changed = await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    expect(changed).toMatchObject({ changed: 1, unchanged: 2 });
    expect((await engine.search('timeout')).results.some((result) => result.url.includes('configure-timeouts'))).toBe(false);
    expect((await engine.search('proxy')).results[0]?.url).toBe('https://widget.example/docs/guide/setup#proxies');
    await engine.close();
  });

  it('chunks every page again when the chunking settings change, once', async () => {
    const long = Array.from({ length: 40 }, (_, index) => `Sentence ${index} explains the widget option number ${index}.`).join(' ');
    const { docs, dbPath } = workspace({ 'a.md': `# A\n\n## Options\n\n${long}`, 'b.md': '# B\n\nShort.' });
    const first = createEngine({ dbPath });
    const before = await first.ingest(docs);
    await first.close();
    const smaller = createEngine({ dbPath, chunk: { maxTokens: 64 } });
    const again = await smaller.ingest(docs);
    expect(again).toMatchObject({ changed: 2, unchanged: 0 });
    expect(again.chunks).toBeGreaterThan(before.chunks);
    expect(await smaller.ingest(docs)).toMatchObject({ changed: 0, unchanged: 2, chunks: again.chunks });
    await smaller.close();
  });

  it('re-chunks each source whose pages were chunked with other settings, not only the first one ingested', async () => {
    const long = Array.from({ length: 40 }, (_, index) => `Sentence ${index} explains the widget option number ${index}.`).join(' ');
    const one = workspace({ 'a.md': `# A\n\n${long}` });
    const two = workspace({ 'b.md': `# B\n\n${long}` });
    const first = createEngine({ dbPath: one.dbPath });
    await first.ingest(one.docs, { baseUrl: 'https://one.example/' });
    await first.ingest(two.docs, { baseUrl: 'https://two.example/' });
    await first.close();
    const smaller = createEngine({ dbPath: one.dbPath, chunk: { maxTokens: 64 } });
    expect(await smaller.ingest(one.docs, { baseUrl: 'https://one.example/' })).toMatchObject({ changed: 1 });
    expect(await smaller.ingest(two.docs, { baseUrl: 'https://two.example/' })).toMatchObject({ changed: 1 });
    await smaller.close();
  });

  it('removes the page of a file deleted from the folder, and only from that folder', async () => {
    const { docs, dbPath } = workspace(files);
    const other = workspace({ 'x.md': '# X\n\nOther site.' });
    const engine = createEngine({ dbPath });
    await engine.ingest(other.docs, { baseUrl: 'https://other.example/' });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    rmSync(join(docs, 'guide/setup.md'));
    // index.md links to the deleted page, so it changes too.
    expect(await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' })).toMatchObject({ removed: 1, pages: 2 });
    expect((await engine.search('timeout')).results.some((result) => result.url.includes('guide/setup'))).toBe(false);
    expect(await engine.inspect('https://other.example/x')).toBeDefined();
    await engine.close();
  });

  it('honours the token budget and the limit of a search', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const all = (await engine.search('setup install timeout guide', { limit: 10 })).results;
    expect(all.length).toBeGreaterThan(2);
    expect((await engine.search('setup install timeout guide', { limit: 2 })).results).toHaveLength(2);
    const budget = (all[0]?.tokenCount ?? 0) + 1;
    const limited = (await engine.search('setup install timeout guide', { maxTokens: budget })).results;
    expect(limited.reduce((sum, result) => sum + result.tokenCount, 0)).toBeLessThanOrEqual(budget);
    await engine.close();
  });
});

describe('engine.inspect', () => {
  it('shows the anchors and chunks the index holds for a page, in reading order', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const page = (await engine.inspect('https://widget.example/docs/guide/setup#install-the-cli'));
    expect(page).toMatchObject({ url: 'https://widget.example/docs/guide/setup', title: 'Setup', anchors: ['configure-timeouts', 'install-the-cli', 'setup'] });
    expect(page?.chunks.map((chunk) => [chunk.anchor, chunk.headingPath])).toEqual([
      ['install-the-cli', ['Setup', 'Install the CLI']],
      ['configure-timeouts', ['Setup', 'Configure timeouts']],
    ]);
    expect(page?.chunks[0]?.tokenCount).toBeGreaterThan(0);
    expect(await engine.inspect('https://widget.example/docs/missing')).toBeUndefined();
    await engine.close();
  });
});

describe('engine errors', () => {
  it('refuses to search before any ingest, without creating the index file', async () => {
    const { dbPath } = workspace({});
    const engine = createEngine({ dbPath });
    await expect(engine.search("anything")).rejects.toThrow(StoreError);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('refuses an empty question as a usage error', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    await expect(engine.ask("   ")).rejects.toThrow(UsageError);
    await engine.close();
  });

  it('refuses a source that is neither a URL nor a folder, and a non-http base URL, creating nothing', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await expect(engine.ingest('./no/such/folder')).rejects.toThrow(/neither an http\(s\) URL nor an existing folder/);
    await expect(engine.ingest('ftp://example.com/docs')).rejects.toThrow(UsageError);
    await expect(engine.ingest(docs, { baseUrl: 'widget.example/docs' })).rejects.toThrow(/--base-url widget.example\/docs is not a URL/);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('says so when passages match but the budget is below even the best one\'s heading', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const { results, warnings } = await engine.search('timeout', { maxTokens: 3 });
    expect(results).toEqual([]);
    expect(warnings[0]).toMatch(/^\d+ passages? match(es)?, but the budget of 3 tokens is below even the best one's heading; raise --max-tokens\.$/);
    await engine.close();
  });

  it('never demotes the best passage for a small budget: it is cut to its most relevant part, same URL#anchor, and says so', async () => {
    const long = {
      'guide/retry.md': `# Retries\n\n## Backoff\n\n${'Unrelated words about colours and shapes fill this paragraph. '.repeat(12)}\n\nThe exponential backoff doubles the retry delay after each failed request.\n\n${'More unrelated text on fonts and margins goes here. '.repeat(12)}`,
      'guide/other.md': '# Other\n\n## Delay\n\nA short note on the retry delay.',
    };
    const { docs, dbPath } = workspace(long);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    const unbudgeted = await engine.search('exponential backoff retry delay');
    const budgeted = await engine.search('exponential backoff retry delay', { maxTokens: 60 });
    expect(budgeted.results[0]?.url).toBe(unbudgeted.results[0]?.url);
    expect(budgeted.results[0]).toMatchObject({ trimmed: true, headingPath: ['Retries', 'Backoff'] });
    expect(budgeted.results[0]?.text).toContain('The exponential backoff doubles the retry delay after each failed request.');
    expect(budgeted.results[0]?.tokenCount).toBeLessThanOrEqual(60);
    expect(budgeted.warnings.join(' ')).toMatch(/was cut to its most relevant part to fit the budget of 60 tokens/);
    await engine.close();
  });

  it('keeps the first result of any budget the first of the unbudgeted search, possibly cut, or says the budget is below its heading (property)', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    for (const question of ['timeout', 'install the command line tool', 'widget docs guide']) {
      const first = (await engine.search(question)).results[0];
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (maxTokens) => {
          const { results, warnings } = await engine.search(question, { maxTokens });
          if (results.length === 0) expect(warnings.join(' ')).toMatch(/below even the best one's heading/);
          else {
            expect(results[0]?.url).toBe(first?.url);
            expect(results.reduce((sum, result) => sum + result.tokenCount, 0)).toBeLessThanOrEqual(maxTokens);
          }
        }),
        { numRuns: 25 },
      );
    }
    await engine.close();
  });

  it('refuses an unknown configuration key, naming it and the file', () => {
    expect(() => createEngine({ crawl: { maxpages: 1 } } as never, { configOrigin: 'citedocs.config.json' })).toThrow(/Invalid citedocs.config.json at "crawl".*maxpages/);
  });

  it('refuses a start URL that cannot be parsed as a usage error', async () => {
    const { dbPath } = workspace({});
    const engine = createEngine({ dbPath });
    await expect(engine.ingest('https://exa mple.com/docs/')).rejects.toThrow(new UsageError('Cannot ingest https://exa mple.com/docs/: it is not a valid URL. Give a start URL like https://example.com/docs/.'));
  });

  it('reports a page that cannot be chunked and ingests the others', async () => {
    const { docs, dbPath } = workspace({ 'a.md': '# A\n\nFine.', 'b.md': `${'> '.repeat(5000)}deep`, 'c.md': '# C\n\nAlso fine.' });
    const engine = createEngine({ dbPath });
    const report = await engine.ingest(docs);
    expect(report.pages).toBe(2);
    expect(report.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Could not chunk file:.*b\.md: /) })]);
    await engine.close();
  });

  it('says when nothing matches', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine({ dbPath });
    await engine.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    expect(await engine.search("kubernetes helm")).toEqual({
      results: [],
      warnings: ['No passage in the index matches "kubernetes helm".'],
      diagnostics: [{ code: 'retrieve.no-match', stage: 'retrieve', message: 'No passage in the index matches "kubernetes helm".' }],
      retrieval: { lists: ["bm25:original"] },
      usage: { llm: { calls: 0, promptTokens: 0, completionTokens: 0, ms: 0 }, embedding: { calls: 0, tokens: 0, ms: 0 } },
    });
    expect((await engine.ask('kubernetes helm')).citations).toEqual([]);
    await engine.close();
  });
});
