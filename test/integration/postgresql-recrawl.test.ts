/**
 * Re-crawling a real documentation site: a copy of the PostgreSQL 15 docs is served from
 * 127.0.0.1 by a server that answers conditional requests with 304 (like nginx). A second
 * ingest downloads nothing; after one file changes, only that page is downloaded and
 * re-indexed; after one file is deleted, its page leaves the index.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/interfaces/cli/main.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

/** Debian's postgresql-doc-15 (installed by .ci/run): 1,100+ DocBook pages. */
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const available = existsSync(DOCS);
if (!available && process.env['CI'] === 'true') throw new Error(`${DOCS} is missing: .ci/run installs postgresql-doc-15 with apt.`);

/** The page edited between two crawls, and a word found nowhere else in the docs. */
const CHANGED_FILE = 'sql-createindex.html';
const UNIQUE_WORD = 'quorblefraxity';
/** The page deleted between two crawls, and a query it answers. */
const DELETED_FILE = 'sql-dropindex.html';
const DELETED_QUERY = 'DROP INDEX CONCURRENTLY';

interface IngestJson {
  pages: number;
  chunks: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  fetched: number;
  errors: { input: string; message: string }[];
  interrupted: boolean;
}

interface SearchJson {
  results: { url: string; text: string }[];
}

async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {}, cwd, interactive: false });
  return { code, stdout, stderr };
}

describe.skipIf(!available)('re-crawling a copy of the PostgreSQL 15 documentation', () => {
  let workDir: string;
  let site: string;
  let db: string;
  let server: StaticServer;
  let first: IngestJson;

  const ingest = async (): Promise<IngestJson> => {
    const result = await cli(['ingest', server.url, '--db', db, '--json'], workDir);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as IngestJson;
  };
  const search = async (query: string, limit: number): Promise<string[]> => {
    const result = await cli(['search', query, '--db', db, '--json', '--limit', String(limit)], workDir);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as SearchJson).results.map((entry) => entry.url);
  };
  const stats = async (): Promise<{ pages: number; chunks: number }> => {
    const result = await cli(['stats', '--db', db, '--json'], workDir);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as { pages: number; chunks: number };
  };
  const pageOf = (url: string) => url.split('#')[0];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'citedocs-pg-recrawl-'));
    site = join(workDir, 'html');
    cpSync(DOCS, site, { recursive: true });
    db = join(workDir, 'pg.db');
    server = await startStaticServer(site);
    first = await ingest();
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it('the first crawl indexes the copied docs', () => {
    expect(first.pages).toBeGreaterThan(1000);
    expect(first.added).toBe(first.pages);
    expect(first.fetched).toBe(first.pages);
  });

  it('a second crawl of the unchanged site downloads nothing and confirms every page as unchanged', async () => {
    const second = await ingest();
    expect(second).toMatchObject({ fetched: 0, added: 0, changed: 0, removed: 0, unchanged: first.pages, pages: first.pages, chunks: first.chunks, interrupted: false });
  }, 60_000);

  it('after one file changes, the next crawl downloads and re-indexes only that page, and search finds its new word first', async () => {
    const file = join(site, CHANGED_FILE);
    const html = readFileSync(file, 'utf8');
    const edited = html.replace('<h2>Description</h2>', `<h2>Description</h2><p>Recrawl marker: the ${UNIQUE_WORD} option is described here.</p>`);
    expect(edited).not.toBe(html);
    writeFileSync(file, edited);
    const later = new Date(statSync(file).mtimeMs + 3_600_000);
    utimesSync(file, later, later);

    const third = await ingest();
    expect(third).toMatchObject({ fetched: 1, changed: 1, added: 0, removed: 0, unchanged: first.pages - 1, pages: first.pages });

    const urls = await search(UNIQUE_WORD, 3);
    expect(urls.length).toBeGreaterThan(0);
    expect(pageOf(urls[0] ?? '')).toBe(`${server.url}${CHANGED_FILE}`);
  }, 60_000);

  it('after one file is deleted, the next crawl removes its page from the index, the search results and the stats', async () => {
    const deletedUrl = `${server.url}${DELETED_FILE}`;
    const before = await stats();
    expect((await search(DELETED_QUERY, 10)).map(pageOf)).toContain(deletedUrl);

    unlinkSync(join(site, DELETED_FILE));
    const fourth = await ingest();
    expect(fourth).toMatchObject({ removed: 1, fetched: 0, added: 0, changed: 0, unchanged: first.pages - 1 });

    expect((await search(DELETED_QUERY, 10)).map(pageOf)).not.toContain(deletedUrl);
    const after = await stats();
    expect(after.pages).toBe(before.pages - 1);
    expect(after.chunks).toBeLessThan(before.chunks);
  }, 60_000);
});
