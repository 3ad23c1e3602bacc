import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { docsWorkspace } from '../../src/testing/workspace.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASE = 'https://d.example/';
const PAGES = 300;

describe('searching an index while another process ingests into it', () => {
  it('answers every search run in a loop while `citedocs ingest` writes the same SQLite file, and then answers as a fresh engine does', async () => {
    const first: Record<string, string> = { 'index.md': '# Home\n\nThe vacuum command reclaims storage.' };
    const { docs, dbPath } = docsWorkspace(first);
    const writer = createEngine({ dbPath, embed: { embedder: 'none' } });
    await writer.ingest(docs, { baseUrl: BASE });
    await writer.close();
    // Every new page mentions vacuum, so each search reads what the other process is writing.
    const more: Record<string, string> = {};
    for (let page = 0; page < PAGES; page += 1) more[`page-${page}.md`] = `# Page ${page}\n\n## Vacuum ${page}\n\nVacuum step ${page} frees space in table t${page}.`;
    const { docs: bigger } = docsWorkspace({ ...first, ...more });

    const reader = createEngine({ dbPath, embed: { embedder: 'none' } });
    expect((await reader.search('vacuum storage', { limit: 3 })).results.length).toBeGreaterThan(0);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'ingest', bigger, '--base-url', BASE, '--db', dbPath, '--embedder', 'none', '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let running = true;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))).finally(() => (running = false));
    const failures: unknown[] = [];
    let searches = 0;
    while (running && searches < 100_000) {
      try {
        const { results } = await reader.search('vacuum storage', { limit: 3 });
        if (results.length === 0) failures.push(new Error('no result'));
      } catch (error) {
        failures.push(error);
      }
      searches += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await exited, stderr).toBe(0);
    expect(failures).toEqual([]);
    expect(searches).toBeGreaterThan(1);

    const query = 'vacuum step 77 table t77';
    const seen = await reader.search(query, { limit: 5 });
    await reader.close();
    const fresh = createEngine({ dbPath, embed: { embedder: 'none' } });
    const expected = await fresh.search(query, { limit: 5 });
    await fresh.close();
    expect(seen.results[0]?.url).toBe(`${BASE}page-77#vacuum-77`);
    expect(seen).toEqual(expected);
  }, 120_000);
});
