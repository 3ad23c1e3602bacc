import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Chunk, Page } from '../../core/types.js';
import { normalise } from '../../core/vectors.js';
import { createSqliteStore } from './sqlite-store.js';
import { signBits } from './sqlite-vectors.js';

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-vectors-')), 'index.db');

function pageWith(url: string, texts: string[]): { page: Page; chunks: Chunk[] } {
  const page: Page = { url, canonicalUrl: url, title: url, markdown: texts.join('\n'), headings: [], anchors: [], contentHash: `h:${texts.join()}`, fetchedAt: '2026-01-01T00:00:00Z', source: 'crawl' };
  const chunks = texts.map((text) => ({ id: `${url}#${text}`, pageUrl: url, pageTitle: url, headingPath: [], text, tokenCount: 3, contentHash: `c:${text}` }));
  return { page, chunks };
}

/** A unit vector pointing mostly along one axis of 16. */
const axis = (index: number, noise = 0.1) => normalise(Float32Array.from({ length: 16 }, (_, position) => (position === index ? 1 : noise * Math.sin(position + index))));

function embedAll(store: ReturnType<typeof createSqliteStore>, model: string, vectorOf: (text: string) => Float32Array) {
  const pending = store.vectors.pendingChunks(1000, 0);
  store.vectors.putVectors(model, pending.map(({ rowId, chunk }) => ({ rowId, inputHash: `${chunk.text}`, vector: vectorOf(chunk.text) })));
  return pending.length;
}

describe('SQLite vector store', () => {
  it('finds the nearest chunks by cosine similarity, exactly, best first', () => {
    const store = createSqliteStore(dbPath(), 'write');
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
    const store = createSqliteStore(dbPath(), 'write');
    const first = pageWith('https://d.example/a', ['zero', 'one']);
    store.upsertPage(first.page, first.chunks);
    store.vectors.useModel('m', 16);
    embedAll(store, 'm', (text) => axis(text === 'zero' ? 0 : 1));
    const changed = pageWith('https://d.example/a', ['one', 'two']);
    store.upsertPage(changed.page, changed.chunks);
    expect(store.vectors.info()).toMatchObject({ embedded: 0, pending: 2 });
    expect(store.vectors.pendingChunks(10, 0).map((pending) => pending.chunk.text)).toEqual(['one', 'two']);
    // "one" was embedded before: the cache has it under its input hash.
    expect([...store.vectors.cachedVectors('m', ['one', 'two']).keys()]).toEqual(['one']);
    // Deleted chunks leave no stale neighbour behind, even when a new chunk reuses a row id.
    expect(store.vectors.searchVectors(axis(0), { limit: 5, coarseK: 10 })).toEqual([]);
    store.close();
  });

  it('never mixes models: switching drops the old vectors and names the old model, its cache stays', () => {
    const store = createSqliteStore(dbPath(), 'write');
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
    const writer = createSqliteStore(path, 'write');
    const { page, chunks } = pageWith('https://d.example/a', ['zero', 'one']);
    writer.upsertPage(page, chunks);
    writer.vectors.useModel('m', 16);
    embedAll(writer, 'm', (text) => axis(text === 'zero' ? 0 : 1));
    writer.close();
    const reader = createSqliteStore(path, 'read');
    expect(reader.vectors.searchVectors(axis(1), { limit: 1, coarseK: 10 }).map((hit) => hit.chunk.text)).toEqual(['one']);
    reader.close();
  });

  it('has no vectors and no pending work on an index that was never embedded', () => {
    const store = createSqliteStore(dbPath(), 'write');
    expect(store.vectors.info()).toBeUndefined();
    expect(store.vectors.available).toBe(true);
    store.close();
  });

  it('codes a vector as one bit per positive component, padded to whole bytes', () => {
    expect([...signBits(Float32Array.from([1, -1, 0.5, 0, -2, 3, 1, 1, 1]))]).toEqual([0b11100101, 0b1]);
  });

  it('removes the codes of a changed page’s chunks, so re-crawls leave no dead neighbours crowding the search', () => {
    const store = createSqliteStore(dbPath(), 'write');
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
});
