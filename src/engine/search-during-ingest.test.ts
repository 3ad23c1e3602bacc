import { describe, expect, it } from 'vitest';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const PAGES = 120;

describe('engine searching while it ingests', () => {
  it('answers every search run in a loop during an ingest in the same process, and finds the new pages once it is done', async () => {
    const first: Record<string, string> = { 'index.md': '# Home\n\nThe vacuum command reclaims storage.' };
    const { docs, dbPath } = docsWorkspace(first);
    const engine = createEngine({ dbPath, embed: { embedder: 'none' } });
    await engine.ingest(docs, { baseUrl: 'https://d.example/' });
    // More pages to ingest: every one mentions vacuum, so a search touches the segments being written.
    const more: Record<string, string> = {};
    for (let page = 0; page < PAGES; page += 1) more[`page-${page}.md`] = `# Page ${page}\n\n## Vacuum ${page}\n\nVacuum step ${page} frees space in table t${page}.`;
    const { docs: bigger } = docsWorkspace({ ...first, ...more });
    let ingesting = true;
    let searches = 0;
    const failures: unknown[] = [];
    // Searches already under way when the ingest starts, then one after another until it ends.
    const underWay = Array.from({ length: 4 }, () => engine.search('vacuum storage', { limit: 3 }).catch((error: unknown) => failures.push(error)));
    const ingest = engine.ingest(bigger, { baseUrl: 'https://d.example/' }).finally(() => (ingesting = false));
    await Promise.all(underWay);
    while (ingesting && searches < 10_000) {
      try {
        const { results } = await engine.search('vacuum storage', { limit: 3 });
        if (results.length === 0) failures.push(new Error('no result'));
      } catch (error) {
        failures.push(error);
      }
      searches += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = await ingest;
    expect(report).toMatchObject({ errors: [], interrupted: false });
    expect(failures).toEqual([]);
    expect(searches).toBeGreaterThan(1);
    const seen = await engine.search('vacuum step 77 table t77', { limit: 5 });
    expect(seen.results[0]?.url).toBe('https://d.example/page-77#vacuum-77');
    // The same answers as an engine opened on the file afterwards (this one's search indexed what waited).
    const fresh = createEngine({ dbPath, embed: { embedder: 'none' } });
    expect(await fresh.search('vacuum step 77 table t77', { limit: 5 })).toEqual(seen);
    await fresh.close();
    await engine.close();
  });
});
