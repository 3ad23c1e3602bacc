import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Chunk, Page } from '../../core/types.js';
import { normalise } from '../../core/vectors.js';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.js';
import { signBits } from '../dense/binary-codes.js';

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-vectors-')), 'index.db');

function pageWith(url: string, texts: string[]): { page: Page; chunks: Chunk[] } {
  const page: Page = { url, canonicalUrl: url, title: url, markdown: texts.join('\n'), headings: [], anchors: [], contentHash: `h:${texts.join()}`, fetchedAt: '2026-01-01T00:00:00Z', source: 'crawl' };
  const chunks = texts.map((text) => ({ id: `${url}#${text}`, pageUrl: url, pageTitle: url, headingPath: [], text, tokenCount: 3, contentHash: `c:${text}` }));
  return { page, chunks };
}

/** A unit vector pointing mostly along one axis of 16. */
const axis = (index: number, noise = 0.1) => normalise(Float32Array.from({ length: 16 }, (_, position) => (position === index ? 1 : noise * Math.sin(position + index))));

function embedAll(store: SqliteConnection, model: string, vectorOf: (text: string) => Float32Array) {
  const pending = store.vectors.pendingChunks(1000);
  store.vectors.putVectors(model, pending.map((chunk) => ({ chunkId: chunk.id, inputHash: `${chunk.text}`, vector: vectorOf(chunk.text) })));
  return pending.length;
}

/** A writable index at `path` whose page holds "zero" and "one", embedded by model "m" along axes 0 and 1. */
function embeddedZeroOne(path: string) {
  const writer = openSqliteConnection(path, 'write');
  const { page, chunks } = pageWith('https://d.example/a', ['zero', 'one']);
  writer.upsertPage(page, chunks);
  writer.vectors.useModel('m', 16);
  embedAll(writer, 'm', (text) => axis(text === 'zero' ? 0 : 1));
  return writer;
}

describe('SQLite vector store', () => {
  it('finds the nearest chunks by cosine similarity, exactly, best first', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const { page, chunks } = pageWith('https://d.example/a', ['zero', 'one', 'two', 'three']);
    store.upsertPage(page, chunks);
    store.vectors.useModel('test-model', 16);
    expect(embedAll(store, 'test-model', (text) => axis(['zero', 'one', 'two', 'three'].indexOf(text)))).toBe(4);
    const hits = store.vectors.searchVectors(axis(2, 0.05), { limit: 2, coarseK: 10 });
    expect(hits.map((hit) => hit.chunk.text)).toEqual(['two', expect.any(String)]);
    expect(hits[0]?.similarity).toBeGreaterThan(0.9);
    expect(hits[0]?.similarity).toBeGreaterThan(hits[1]?.similarity ?? 1);
    expect(store.vectors.info()).toEqual({ modelId: 'test-model', dimension: 16, embedded: 4, pending: 0 });
    store.close();
  });

  it('forgets the vectors of a changed page’s old chunks and lists its new ones as pending, keeping the cache', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const first = pageWith('https://d.example/a', ['zero', 'one']);
    store.upsertPage(first.page, first.chunks);
    store.vectors.useModel('m', 16);
    embedAll(store, 'm', (text) => axis(text === 'zero' ? 0 : 1));
    const changed = pageWith('https://d.example/a', ['one', 'two']);
    store.upsertPage(changed.page, changed.chunks);
    expect(store.vectors.info()).toMatchObject({ embedded: 0, pending: 2 });
    expect(store.vectors.pendingChunks(10).map((chunk) => chunk.text)).toEqual(['one', 'two']);
    // "one" was embedded before: the cache has it under its input hash.
    expect([...store.vectors.cachedVectors('m', ['one', 'two']).keys()]).toEqual(['one']);
    // Deleted chunks leave no stale neighbour behind, even when a new chunk reuses a row id.
    expect(store.vectors.searchVectors(axis(0), { limit: 5, coarseK: 10 })).toEqual([]);
    store.close();
  });

  it('never mixes models: switching drops the old vectors and names the old model, its cache stays', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const { page, chunks } = pageWith('https://d.example/a', ['zero']);
    store.upsertPage(page, chunks);
    expect(store.vectors.useModel('old', 16)).toEqual({});
    embedAll(store, 'old', () => axis(0));
    expect(store.vectors.useModel('old', 16)).toEqual({});
    expect(store.vectors.info()?.embedded).toBe(1);
    expect(store.vectors.useModel('new', 8)).toEqual({ switchedFrom: 'old' });
    expect(store.vectors.info()).toEqual({ modelId: 'new', dimension: 8, embedded: 0, pending: 1 });
    expect(store.vectors.cachedVectors('old', ['zero']).size).toBe(1);
    expect(() => store.vectors.putVectors('old', [])).toThrow(/vectors of new, not old/);
    store.close();
  });

  it('keeps vectors across reopening, and reads them from a read-only connection', () => {
    const path = dbPath();
    const writer = embeddedZeroOne(path);
    writer.close();
    const reader = openSqliteConnection(path, 'read');
    expect(reader.vectors.searchVectors(axis(1), { limit: 1, coarseK: 10 }).map((hit) => hit.chunk.text)).toEqual(['one']);
    reader.close();
  });

  it('has no vectors and no pending work on an index that was never embedded', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    expect(store.vectors.info()).toBeUndefined();
    store.close();
  });

  it('codes a vector as one bit per positive component, padded to whole 32-bit words', () => {
    expect([...signBits(Float32Array.from([1, -1, 0.5, 0, -2, 3, 1, 1, 1]))]).toEqual([0b11100101, 0b1, 0, 0]);
  });

  it('removes the codes of a changed page’s chunks, so re-crawls leave no dead neighbours crowding the search', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    store.vectors.useModel('m', 16);
    const stable = pageWith('https://d.example/stable', ['keep']);
    store.upsertPage(stable.page, stable.chunks);
    embedAll(store, 'm', () => axis(3));
    for (let round = 0; round < 10; round += 1) {
      const changing = pageWith('https://d.example/changing', [`version ${round}`, `other ${round}`]);
      store.upsertPage(changing.page, changing.chunks);
      embedAll(store, 'm', () => axis(5));
    }
    // Three live chunks; a shortlist of 3 must find the stable one.
    expect(store.vectors.searchVectors(axis(3), { limit: 1, coarseK: 3 }).map((hit) => hit.chunk.text)).toEqual(['keep']);
    store.close();
  });

  it('packs the codes at a flush and at close for readers to load in one look-up, and a read-only reader of a stale file still finds new vectors', () => {
    const path = dbPath();
    const writer = embeddedZeroOne(path);
    expect(writer.flush()).toBe(true);
    expect(writer.flush()).toBe(false);
    const later = pageWith('https://d.example/b', ['two']);
    writer.upsertPage(later.page, later.chunks);
    embedAll(writer, 'm', () => axis(2));
    // Not flushed yet after "two" was embedded: a reader packs the codes itself, in memory, and stores nothing.
    const reader = openSqliteConnection(path, 'read');
    expect(reader.vectors.searchVectors(axis(2), { limit: 1, coarseK: 1 }).map((hit) => hit.chunk.text)).toEqual(['two']);
    reader.close();
    const stored = new Database(path, { readonly: true });
    const packed = () => (stored.prepare('SELECT length(row_ids) FROM vector_codes').pluck().get() as number) / 8;
    expect(packed()).toBe(2);
    // The writer packs them as it lets go.
    writer.close();
    expect(packed()).toBe(3);
    stored.close();
  });

  it('drops a deleted page’s codes from the shortlist even before anything is re-embedded', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    store.vectors.useModel('m', 16);
    const gone = pageWith('https://d.example/gone', ['near one', 'near two']);
    const kept = pageWith('https://d.example/kept', ['far']);
    store.upsertPage(gone.page, gone.chunks);
    store.upsertPage(kept.page, kept.chunks);
    embedAll(store, 'm', (text) => (text === 'far' ? axis(9) : axis(4)));
    store.flush();
    expect(store.removePage('https://d.example/gone')).toBe(true);
    expect(store.vectors.searchVectors(axis(4), { limit: 1, coarseK: 1 }).map((hit) => hit.chunk.text)).toEqual(['far']);
    store.close();
  });

  it('upgrades an index whose codes lived in a sqlite-vec table: the codes are made from the stored vectors, nothing is re-embedded', () => {
    const path = dbPath();
    const writer = embeddedZeroOne(path);
    writer.close();
    // The layout citedocs 0.1 wrote: no code column, codes in a sqlite-vec vec0 table. The extension
    // is gone, so its table is written as sqlite-vec 0.1.9 leaves it: shadow tables and the schema row.
    const legacy = new Database(path);
    legacy.exec(`CREATE TABLE old_embeddings AS SELECT chunk_id, vector_id FROM chunk_embeddings; DROP TABLE chunk_embeddings; DROP TABLE vector_codes;
      CREATE TABLE chunk_embeddings (chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE, vector_id INTEGER NOT NULL REFERENCES embedding_cache(id));
      INSERT INTO chunk_embeddings SELECT * FROM old_embeddings; DROP TABLE old_embeddings;
      CREATE TABLE "chunk_codes_info" (key text primary key, value any);
      CREATE TABLE "chunk_codes_chunks"(chunk_id INTEGER PRIMARY KEY AUTOINCREMENT,size INTEGER NOT NULL,validity BLOB NOT NULL,rowids BLOB NOT NULL);
      CREATE TABLE "chunk_codes_rowids"(rowid INTEGER PRIMARY KEY AUTOINCREMENT,id,chunk_id INTEGER,chunk_offset INTEGER);
      CREATE TABLE "chunk_codes_vector_chunks00"(rowid PRIMARY KEY,vectors BLOB NOT NULL);`);
    legacy.unsafeMode(true);
    legacy.pragma('writable_schema = ON');
    legacy.prepare("INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES ('table', 'chunk_codes', 'chunk_codes', 0, 'CREATE VIRTUAL TABLE chunk_codes USING vec0(code bit[16])')").run();
    legacy.pragma('writable_schema = OFF');
    legacy.close();
    const reader = openSqliteConnection(path, 'read');
    expect(reader.vectors.searchVectors(axis(1), { limit: 1, coarseK: 1 }).map((hit) => hit.chunk.text)).toEqual(['one']);
    reader.close();
    const upgraded = openSqliteConnection(path, 'write');
    expect(upgraded.vectors.info()).toMatchObject({ modelId: 'm', embedded: 2, pending: 0 });
    expect(upgraded.vectors.searchVectors(axis(0), { limit: 1, coarseK: 1 }).map((hit) => hit.chunk.text)).toEqual(['zero']);
    upgraded.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'chunk_codes%'").pluck().get()).toBe(0);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });
});
