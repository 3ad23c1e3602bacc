import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/interfaces/cli/main.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

/** Debian's postgresql-doc-15 (installed by .ci/run): 1,100+ DocBook pages, ids on wrapping divs. */
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const available = existsSync(DOCS);
if (!available && process.env['CI'] === 'true') throw new Error(`${DOCS} is missing: .ci/run installs postgresql-doc-15 with apt.`);

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {}, cwd: tmpdir(), interactive: false });
  return { code, stdout, stderr };
}

describe.skipIf(!available)('crawling the PostgreSQL 15 documentation from 127.0.0.1', () => {
  let server: StaticServer;
  const db = join(mkdtempSync(join(tmpdir(), 'citedocs-pg-')), 'pg.db');
  let ingest: { pages: number; chunks: number; errors: { input: string; message: string }[] };

  beforeAll(async () => {
    server = await startStaticServer(DOCS);
    const result = await cli(['ingest', server.url, '--db', db, '--json']);
    expect(result.code).toBe(0);
    ingest = JSON.parse(result.stdout) as typeof ingest;
  }, 300_000);
  afterAll(() => server?.close());

  it('ingests every reachable page', () => {
    const htmlFiles = readdirSync(DOCS).filter((file) => file.endsWith('.html')).length;
    // Every page is linked from the table of contents; a missing one would be a 404 in errors.
    expect(ingest.pages + ingest.errors.length).toBeGreaterThanOrEqual(htmlFiles - 5);
    expect(ingest.errors.every((error) => /HTTP 404/.test(error.message))).toBe(true);
    expect(ingest.chunks).toBeGreaterThan(ingest.pages);
  });

  it('finds "create an index concurrently" in sql-createindex.html within the top 3, with an anchor the page really has', async () => {
    const result = await cli(['search', 'create an index concurrently', '--db', db, '--json', '--limit', '3']);
    expect(result.code).toBe(0);
    const { results } = JSON.parse(result.stdout) as { results: { url: string }[] };
    const hit = results.find((entry) => entry.url.startsWith(`${server.url}sql-createindex.html`));
    expect(hit, JSON.stringify(results.map((entry) => entry.url))).toBeDefined();
    const anchor = new URL(hit?.url ?? '').hash.slice(1);
    expect(anchor).not.toBe('');
    const page = cheerio.load(await (await fetch(`${server.url}sql-createindex.html`)).text());
    expect(page(`[id="${anchor}"]`).length).toBe(1);
  });

  it('cites only pages and anchors that exist in the served HTML', async () => {
    const questions = ['how do I create an index concurrently', 'what does VACUUM FULL do', 'how to set up streaming replication', 'what is a partial index'];
    for (const question of questions) {
      const result = await cli(['ask', question, '--db', db, '--json']);
      expect(result.code).toBe(0);
      const answer = JSON.parse(result.stdout) as { answer: string; citations: { n: number; url: string }[] };
      expect(answer.citations.length).toBeGreaterThan(0);
      for (const citation of answer.citations) {
        const url = new URL(citation.url);
        const response = await fetch(url);
        expect(response.status, citation.url).toBe(200);
        if (url.hash !== '') {
          const page = cheerio.load(await response.text());
          const id = decodeURIComponent(url.hash.slice(1));
          expect(page(`[id="${id}"], a[name="${id}"]`).length, citation.url).toBeGreaterThan(0);
        } else {
          await response.body?.cancel();
        }
      }
    }
  });

  it('keeps navigation chrome (Prev/Up/Next tables) out of the passages', async () => {
    const result = await cli(['search', 'Prev Up Home Next', '--db', db, '--json', '--limit', '20']);
    const { results } = JSON.parse(result.stdout) as { results: { text: string }[] };
    for (const entry of results) expect(entry.text).not.toMatch(/\bPrev\b.*\bUp\b.*\bNext\b/s);
  });
});
