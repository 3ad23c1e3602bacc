import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../core/errors.js';
import type { Chunk, Page } from '../../core/types.js';
import { openSqliteConnection } from './sqlite-connection.js';
import { createSqliteStore } from './sqlite-store.js';

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-store-')), 'index.db');
const ranking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };

function pageOf(url: string, markdown: string, anchors: string[] = []): Page {
  return {
    url, canonicalUrl: url, title: `Title of ${url}`, markdown, headings: [], anchors,
    contentHash: `hash:${markdown}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl',
  };
}

function chunkOf(page: Page, text: string, anchor?: string, headingPath: string[] = []): Chunk {
  return { id: `${page.url}:${text}`, pageUrl: page.url, pageTitle: page.title, ...(anchor ? { anchor } : {}), headingPath, text, tokenCount: text.split(' ').length, contentHash: `c:${text}` };
}

describe('SQLite store', () => {
  it('stores pages, chunks and anchors, and finds chunks by BM25 with stemming', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const page = pageOf('https://d.example/a.html', 'a', ['install', 'other-id']);
    expect(store.upsertPage(page, [chunkOf(page, 'Creating indexes concurrently avoids locks', 'install', ['Guide', 'Install']), chunkOf(page, 'Unrelated text about tables')])).toBe('added');
    const hits = store.searchText({ text: 'create index', limit: 10, ranking });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.chunk).toMatchObject({ pageUrl: page.url, anchor: 'install', headingPath: ['Guide', 'Install'], pageTitle: page.title });
    expect(hits[0]?.bm25).toBeGreaterThan(0);
    expect([...store.anchorsOf(page.url)].sort()).toEqual(['install', 'other-id']);
    expect(store.pagesWithAnchor('install')).toEqual([page.url]);
    expect(store.getPage(page.url)).toMatchObject({ url: page.url, chunkCount: 2 });
    store.close();
  });

  it('ranks a match in the heading path above the same match in body text', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const one = pageOf('https://d.example/1.html', '1');
    const two = pageOf('https://d.example/2.html', '2');
    store.upsertPage(one, [chunkOf(one, 'Some words and then vacuum appears here once')]);
    store.upsertPage(two, [chunkOf(two, 'Some words and nothing else appears here once', undefined, ['Vacuum'])]);
    const hits = store.searchText({ text: 'vacuum', limit: 10, ranking });
    expect(hits.map((hit) => hit.chunk.pageUrl)).toEqual([two.url, one.url]);
    store.close();
  });

  it('treats query terms as data: quotes and FTS operators cannot break the query', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const page = pageOf('https://d.example/q.html', 'q');
    store.upsertPage(page, [chunkOf(page, 'NEAR AND OR quote"d text')]);
    // The operator words are searched as the words they are, and find the passage that has them.
    expect(store.searchText({ text: '" near( and *', limit: 5, ranking }).map((hit) => hit.chunk.pageUrl)).toEqual([page.url]);
    expect(store.searchText({ text: 'quote"d', limit: 5, ranking }).map((hit) => hit.chunk.pageUrl)).toEqual([page.url]);
    store.close();
  });

  it('reports an unchanged page without rewriting it, and replaces a changed page’s chunks and anchors', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    const first = pageOf('https://d.example/p.html', 'v1', ['old']);
    store.upsertPage(first, [chunkOf(first, 'alpha version one')]);
    expect(store.upsertPage(first, [])).toBe('unchanged');
    expect(store.getPage(first.url)?.chunkCount).toBe(1);
    const second = pageOf(first.url, 'v2', ['new']);
    expect(store.upsertPage(second, [chunkOf(second, 'beta version two')])).toBe('changed');
    expect(store.searchText({ text: 'alpha', limit: 5, ranking })).toEqual([]);
    expect(store.searchText({ text: 'beta', limit: 5, ranking })).toHaveLength(1);
    expect([...store.anchorsOf(first.url)]).toEqual(['new']);
    expect(store.stats()).toMatchObject({ pages: 1, chunks: 1, anchors: 1 });
    store.close();
  });

  it('writes a page atomically: a failing write leaves the previous version intact', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const page = pageOf('https://d.example/p.html', 'v1');
    store.upsertPage(page, [chunkOf(page, 'original text')]);
    const broken = { ...chunkOf(page, 'new text'), headingPath: undefined as unknown as string[], tokenCount: null as unknown as number };
    expect(() => store.upsertPage(pageOf(page.url, 'v2'), [broken])).toThrow();
    expect(store.getPage(page.url)?.contentHash).toBe('hash:v1');
    expect(store.searchText({ text: 'original', limit: 5, ranking })).toHaveLength(1);
    store.close();
  });

  it('resolves a recorded alias (a URL that redirects) to its page, and forgets it with the page', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const page = { ...pageOf('https://d.example/new.html', 'n'), aliases: ['https://d.example/old.html'] };
    store.upsertPage(page, [chunkOf(page, 'text')]);
    expect(store.resolvePageUrl('https://d.example/old.html')).toBe(page.url);
    expect(store.resolvePageUrl(page.url)).toBe(page.url);
    expect(store.resolvePageUrl('https://d.example/other.html')).toBeUndefined();
    store.removePage(page.url);
    expect(store.resolvePageUrl('https://d.example/old.html')).toBeUndefined();
    store.close();
  });

  it('upgrades an index written by an older schema in place, keeping its pages', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    const page = pageOf('https://d.example/p.html', 'v1');
    store.upsertPage(page, [chunkOf(page, 'kept words')]);
    store.close();
    const raw = new Database(path);
    raw.exec(
      'DROP INDEX pages_by_source; ALTER TABLE pages DROP COLUMN source_id; DROP TABLE sources; DROP TABLE jobs; DROP TABLE page_aliases; ALTER TABLE pages DROP COLUMN chunking; ALTER TABLE crawl_runs DROP COLUMN outcome; ALTER TABLE crawl_runs DROP COLUMN ended_at; ALTER TABLE crawl_runs DROP COLUMN detail; PRAGMA user_version = 2;',
    );
    raw.close();
    expect(() => openSqliteConnection(path, 'read')).toThrow(/older index format \(schema 2\)/);
    const upgraded = openSqliteConnection(path, 'write');
    expect(upgraded.searchText({ text: 'kept', limit: 5, ranking })).toHaveLength(1);
    expect(upgraded.resolvePageUrl('https://d.example/none')).toBeUndefined();
    // Its pages become one source named by their host, at version latest.
    expect(upgraded.catalog.listSources()).toEqual([expect.objectContaining({ library: 'd.example', version: 'latest', rootUrl: 'https://d.example/', pages: 1, passages: 1 })]);
    expect(upgraded.catalog.sourceLabels(['https://d.example/p.html']).get('https://d.example/p.html')).toEqual({ library: 'd.example', version: 'latest' });
    upgraded.close();
  });

  it('keeps the lexical index in the file: rebuilt once after the chunks change, then read as stored', () => {
    const path = dbPath();
    const writer = openSqliteConnection(path, 'write');
    const page = pageOf('https://d.example/p.html', 'v1');
    writer.upsertPage(page, [chunkOf(page, 'stored words')]);
    expect(writer.flush()).toBe(true);
    expect(writer.flush()).toBe(false);
    const next = pageOf('https://d.example/q.html', 'v2');
    writer.upsertPage(next, [chunkOf(next, 'fresh words')]);
    // A search after a change sees it, without an explicit refresh.
    expect(writer.searchText({ text: 'fresh', limit: 5, ranking })).toHaveLength(1);
    expect(writer.flush()).toBe(false);
    writer.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT documents FROM lexical_stats').pluck().get()).toBe(2);
    expect(raw.prepare('SELECT count(*) FROM lexical_pending').pluck().get()).toBe(0);
    raw.close();
  });

  it('keeps the page links in the stored lexical index: a reader of the file ranks by them', () => {
    const path = dbPath();
    const writer = openSqliteConnection(path, 'write');
    const a = pageOf('https://d.example/a.html', 'a');
    const b = pageOf('https://d.example/b.html', 'b');
    const guide = pageOf('https://d.example/guide.html', 'guide');
    writer.upsertPage(a, [chunkOf(a, 'shared words', 'x')]);
    writer.upsertPage(b, [chunkOf(b, 'shared words', 'y')]);
    writer.upsertPage(guide, [chunkOf(guide, 'See [b](b.html#y).', 'g')]);
    expect(writer.flush()).toBe(true);
    writer.close();
    const reader = openSqliteConnection(path, 'read');
    const first = (pagePrior: number) => reader.searchText({ text: 'shared words', limit: 1, ranking: { ...ranking, pagePrior } })[0]?.chunk.pageUrl;
    expect(first(0)).toBe(a.url);
    expect(first(1)).toBe(b.url);
    reader.close();
  });

  it('rebuilds a lexical index stored in an older layout, though the chunks did not change', () => {
    const path = dbPath();
    const writer = openSqliteConnection(path, 'write');
    const page = pageOf('https://d.example/p.html', 'v1');
    writer.upsertPage(page, [chunkOf(page, 'stored words')]);
    expect(writer.flush()).toBe(true);
    writer.close();
    const raw = new Database(path);
    raw.prepare(`UPDATE meta SET value = '1' WHERE key = 'lexical_format'`).run();
    raw.close();
    const reopened = openSqliteConnection(path, 'write');
    expect(reopened.flush()).toBe(true);
    expect(reopened.flush()).toBe(false);
    expect(reopened.searchText({ text: 'stored', limit: 5, ranking })).toHaveLength(1);
    reopened.close();
  });

  it('creates the folder of a new index file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'citedocs-store-')), 'nested', 'deeper', 'index.db');
    const store = openSqliteConnection(path, 'write');
    expect(store.stats().pages).toBe(0);
    store.close();
    expect(existsSync(path)).toBe(true);
  });

  it('refuses to read an index that does not exist, without creating it', () => {
    const path = dbPath();
    expect(() => openSqliteConnection(path, 'read')).toThrow(new StoreError(`No index at ${path}. Run \`citedocs ingest <url|folder>\` first, or pass --db with the path of an existing index.`, path));
  });

  it('refuses a file that is not SQLite and leaves it byte for byte unchanged', () => {
    const path = dbPath();
    writeFileSync(path, 'this is my thesis, not a database\n'.repeat(200));
    const before = readFileSync(path);
    for (const mode of ['read', 'write'] as const) expect(() => openSqliteConnection(path, mode)).toThrow(/is not a citedocs index/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a SQLite database of another application and does not touch its tables', () => {
    const path = dbPath();
    const other = new Database(path);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5);");
    other.close();
    expect(() => openSqliteConnection(path, 'write')).toThrow(/a SQLite database that citedocs did not create/);
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT name FROM sqlite_schema WHERE type = ?').pluck().all('table')).toEqual(['invoices']);
    check.close();
  });

  it('reopens its own file read-only and sees what was written', () => {
    const path = dbPath();
    const writer = openSqliteConnection(path, 'write');
    const page = pageOf('https://d.example/p.html', 'v1');
    writer.upsertPage(page, [chunkOf(page, 'persisted words')]);
    writer.close();
    const reader = openSqliteConnection(path, 'read');
    expect(reader.searchText({ text: 'persisted', limit: 5, ranking })).toHaveLength(1);
    expect(() => reader.upsertPage(page, [])).toThrow(/read-?only/i);
    reader.close();
  });
});

describe('SQLite store handle', () => {
  it('makes a page another process reads visible while the writer keeps writing without a pause', async () => {
    const path = dbPath();
    const writer = createSqliteStore(path, 'write', { flushDelayMs: 100 });
    const reader = createSqliteStore(path, 'read');
    const wanted = pageOf('https://d.example/wanted.html', 'wanted');
    await writer.upsertPage(wanted, [chunkOf(wanted, 'the zanzibarite calibration guide')]);
    let seenAfterWrites = -1;
    // A crawl never pauses: other pages keep arriving (bounded), and the first one must show up meanwhile.
    for (let write = 0; write < 400 && seenAfterWrites < 0; write += 1) {
      const filler = pageOf(`https://d.example/filler-${write}.html`, `filler ${write}`);
      await writer.upsertPage(filler, [chunkOf(filler, `filler passage number ${write}`)]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if ((await reader.searchText({ text: 'zanzibarite', limit: 5, ranking })).length > 0) seenAfterWrites = write;
    }
    expect(seenAfterWrites).toBeGreaterThanOrEqual(0);
    await writer.close();
    await reader.close();
  });
});
