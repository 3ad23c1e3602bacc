import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chunk, LexicalRanking, Page } from '../../core/types.js';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../testing/postgres-server.js';
import { createSqliteStore } from '../sqlite/sqlite-store.js';
import type { Store } from '../store.js';
import { connectPool } from './connection.js';
import { migrate } from './migrate.js';
import { lazyPostgresStore } from './lazy-postgres-store.js';
import { createPostgresStore } from './postgres-store.js';
import { SCHEMA_VERSION } from './schema.js';

const skip = postgresSkipReason();
const ranking: LexicalRanking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0.5, pagePrior: 0.5, quotedWeight: 1 };
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'vacuum', 'index', 'table', 'lock'];
const PAGES = 6;
const urlOf = (page: number) => `https://d.example/p${page}.html`;

interface ChunkSpec {
  words: string[];
  anchor: number | null;
  api: boolean;
  link: { page: number; anchor: number } | null;
}
type Operation = { kind: 'upsert'; page: number; chunks: ChunkSpec[] } | { kind: 'remove'; page: number };

function pageOf(page: number, specs: readonly ChunkSpec[], version: number): { page: Page; chunks: Chunk[] } {
  const url = urlOf(page);
  const stored: Page = {
    url, canonicalUrl: url, title: `Page ${page} ${WORDS[page % WORDS.length] ?? ''}`, markdown: `v${version}`, headings: [], anchors: specs.flatMap((spec) => (spec.anchor === null ? [] : [`a${spec.anchor}`])),
    contentHash: `hash:${version}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl',
  };
  const chunks = specs.map((spec, index): Chunk => {
    const text = `${spec.words.join(' ')}${spec.link === null ? '' : ` see [it](p${spec.link.page}.html#a${spec.link.anchor})`}`;
    return {
      id: `${url}:${index}:${version}`, pageUrl: url, pageTitle: stored.title, headingPath: ['Page', spec.api ? `mod${page}.f${spec.anchor ?? 0}(x)` : 'Section'],
      text, tokenCount: spec.words.length, contentHash: `c:${version}:${index}`, ...(spec.anchor === null ? {} : { anchor: `a${spec.anchor}` }),
    };
  });
  return { page: stored, chunks };
}

const chunkSpec = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
  anchor: fc.option(fc.integer({ min: 0, max: 3 })),
  api: fc.boolean(),
  link: fc.option(fc.record({ page: fc.integer({ min: 0, max: PAGES - 1 }), anchor: fc.integer({ min: 0, max: 3 }) })),
});
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('upsert' as const), page: fc.integer({ min: 0, max: PAGES - 1 }), chunks: fc.array(chunkSpec, { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), page: fc.integer({ min: 0, max: PAGES - 1 }) }) },
);

const QUESTIONS = [...WORDS, 'alpha beta', 'vacuum index lock', 'mod1.f2', 'page table'];
const answers = async (store: Store) => {
  const out: unknown[] = [];
  for (const text of QUESTIONS) out.push((await store.searchText({ text, limit: 10, ranking, explain: true })).map((hit) => ({ id: hit.chunk.id, score: hit.bm25, fields: hit.fields, prior: hit.prior })));
  out.push(await store.termStats(['alpha', 'vacuum', 'nothing']));
  return out;
};

describe.skipIf(skip !== undefined)(`the PostgreSQL store${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ranks exactly as the SQLite store after any inserts, updates and deletes (the same BM25F over the same segments)', async () => {
    let version = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), fc.boolean(), async (operations, flushEach) => {
        const sqlite = createSqliteStore(join(mkdtempSync(join(tmpdir(), 'citedocs-pg-vs-')), 'index.db'), 'write');
        const postgres = await createPostgresStore(await server.createDatabase(), { mode: 'write' });
        try {
          for (const step of operations) {
            version += 1;
            for (const store of [sqlite, postgres] as Store[]) {
              if (step.kind === 'upsert') {
                const { page, chunks } = pageOf(step.page, step.chunks, version);
                await store.upsertPage(page, chunks);
              } else await store.removePage(urlOf(step.page));
            }
            if (flushEach) await postgres.searchText({ text: 'alpha', limit: 1, ranking });
          }
          expect(await answers(postgres)).toEqual(await answers(sqlite));
        } finally {
          await postgres.close();
          await sqlite.close();
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('stores vectors and finds the nearest chunks by the in-process 1-bit scan (no pgvector), scoped by source, one model at a time', async () => {
    const store = await createPostgresStore(await server.createDatabase(), { mode: 'write' });
    try {
      const python = await store.catalog.upsertSource({ library: 'python', version: '3', rootUrl: 'https://d.example/', kind: 'crawl', createdAt: '2026-01-01T00:00:00.000Z' });
      const specs = [0, 1, 2].map((page) => pageOf(page, [{ words: ['alpha'], anchor: null, api: false, link: null }, { words: ['beta'], anchor: 1, api: false, link: null }], page));
      for (const [index, { page, chunks }] of specs.entries()) await store.upsertPage(page, chunks, index === 0 ? { sourceId: python.id } : {});
      const unit = (values: number[]) => {
        const norm = Math.hypot(...values);
        return Float32Array.from(values, (value) => value / norm);
      };
      const directions = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0], [0, 1, 1, 0]];
      expect(await store.vectors.useModel('test-model', 4)).toEqual({});
      expect(await store.vectors.pendingChunks(100)).toHaveLength(6);
      const chunks = specs.flatMap((spec) => spec.chunks);
      await store.vectors.putVectors('test-model', chunks.map((chunk, index) => ({ chunkId: chunk.id, inputHash: `h${index}`, vector: unit(directions[index] as number[]) })));
      expect(await store.vectors.info()).toEqual({ modelId: 'test-model', dimension: 4, embedded: 6, pending: 0 });
      const nearest = await store.vectors.searchVectors(unit([0, 0.9, 1, 0]), { limit: 2, coarseK: 6 });
      expect(nearest.map((hit) => hit.chunk.id)).toEqual([chunks[5]?.id, chunks[2]?.id]);
      const scoped = await store.vectors.searchVectors(unit([0, 0, 1, 0]), { limit: 1, coarseK: 1, sourceIds: [python.id] });
      expect(scoped.map((hit) => hit.chunk.pageUrl)).toEqual([urlOf(0)]);
      expect([...(await store.vectors.cachedVectors('test-model', ['h3'])).values()].map((vector) => [...vector])).toEqual([[0, 0, 0, 1]]);
      // A changed page's chunks lose their vectors; the cache keeps them by input hash.
      await store.upsertPage(pageOf(2, [{ words: ['gamma'], anchor: null, api: false, link: null }], 9).page, pageOf(2, [{ words: ['gamma'], anchor: null, api: false, link: null }], 9).chunks);
      expect((await store.vectors.searchVectors(unit([0, 1, 1, 0]), { limit: 10, coarseK: 10 })).map((hit) => hit.chunk.pageUrl)).not.toContain(urlOf(2));
      expect(await store.vectors.useModel('other-model', 8)).toEqual({ switchedFrom: 'test-model' });
      expect(await store.vectors.info()).toEqual({ modelId: 'other-model', dimension: 8, embedded: 0, pending: 5 });
      expect(await store.vectors.cachedDimension('test-model')).toBe(4);
      await expect(store.vectors.putVectors('test-model', [])).rejects.toThrow(/holds vectors of other-model, not test-model/);
    } finally {
      await store.close();
    }
  });

  it('migrates once when several processes open the database at once, and each finds the schema current', async () => {
    const url = await server.createDatabase();
    const pools = await Promise.all([0, 1, 2].map(() => connectPool(url)));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool, url)));
      expect(results.filter((result) => result.from === 0)).toHaveLength(1);
      expect(results.map((result) => result.to)).toEqual([SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION]);
      expect((await migrate(pools[0] as pg.Pool, url)).from).toBe(SCHEMA_VERSION);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('shows a page stored by one process to another once the writer pauses, without a restart', async () => {
    const url = await server.createDatabase();
    const writer = await createPostgresStore(url, { mode: 'write', idleFlushMs: 50 });
    const reader = await createPostgresStore(url, { mode: 'read' });
    try {
      expect(await reader.searchText({ text: 'vacuum', limit: 5, ranking })).toEqual([]);
      const { page, chunks } = pageOf(1, [{ words: ['vacuum', 'lock'], anchor: 1, api: false, link: null }], 1);
      await writer.upsertPage(page, chunks);
      const before = reader.indexGeneration();
      let hits: unknown[] = [];
      for (let attempt = 0; attempt < 100 && hits.length === 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        hits = await reader.searchText({ text: 'vacuum', limit: 5, ranking });
      }
      expect(hits).toHaveLength(1);
      expect(reader.indexGeneration()).toBeGreaterThan(before);
      await expect(reader.upsertPage(page, chunks)).rejects.toThrow(/read-only/);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('makes a handle at once that connects at its first call, with every method of the store', async () => {
    const url = await server.createDatabase();
    const real = await createPostgresStore(url, { mode: 'write' });
    const lazy = lazyPostgresStore(url, { mode: 'write' });
    const shape = (store: object) =>
      Object.entries(store)
        .flatMap(([key, value]) => (typeof value === 'function' ? [key] : Object.keys(value as object).map((inner) => `${key}.${inner}`)))
        .sort();
    try {
      expect(shape(lazy)).toEqual(shape(real));
      const { page, chunks } = pageOf(3, [{ words: ['delta'], anchor: null, api: false, link: null }], 1);
      expect(await lazy.upsertPage(page, chunks)).toBe('added');
      expect((await lazy.searchText({ text: 'delta', limit: 5, ranking })).map((hit) => hit.chunk.id)).toEqual([chunks[0]?.id]);
      expect(lazy.indexGeneration()).toBeGreaterThan(0);
      expect(await real.catalog.listSources()).toEqual(await lazy.catalog.listSources());
    } finally {
      await lazy.close();
      await real.close();
    }
    await lazyPostgresStore(url, { mode: 'write' }).close();
  });

  it('shows pages to another process while the writer goes on writing, not only once it pauses', async () => {
    const url = await server.createDatabase();
    const writer = await createPostgresStore(url, { mode: 'write', idleFlushMs: 500 });
    const reader = await createPostgresStore(url, { mode: 'read' });
    try {
      const first = pageOf(0, [{ words: ['vacuum'], anchor: null, api: false, link: null }], 1);
      await writer.upsertPage(first.page, first.chunks);
      let seenWhileWriting = false;
      // Writes come faster than the flush delay: a flush pushed back by each write would never come.
      const deadline = Date.now() + 5_000;
      for (let page = 1; Date.now() < deadline && !seenWhileWriting; page += 1) {
        const next = pageOf(page, [{ words: ['lock'], anchor: null, api: false, link: null }], page + 1);
        await writer.upsertPage(next.page, next.chunks);
        seenWhileWriting = (await reader.searchText({ text: 'vacuum', limit: 1, ranking })).length === 1;
      }
      expect(seenWhileWriting).toBe(true);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('refuses to read a database citedocs never wrote, saying what to run', async () => {
    const url = await server.createDatabase();
    await expect(createPostgresStore(url, { mode: 'read' })).rejects.toThrow(/No citedocs index in postgres:\/\/citedocs@127\.0\.0\.1:\d+\/test_\w+\. Run `citedocs ingest/);
  });

  it('retries a refused connection with backoff, then names the URL without its password and what to check', async () => {
    const delays: number[] = [];
    const url = `postgres://citedocs:secret@127.0.0.1:${server.port + 1}/postgres`;
    const failure = connectPool(url, { retries: 2, retryBaseDelayMs: 100, sleep: async (ms) => void delays.push(ms) });
    await expect(failure).rejects.toThrow(/Could not connect to PostgreSQL at postgres:\/\/citedocs:\*\*\*@127\.0\.0\.1:\d+\/postgres \(3 attempts\): .*Check that the server runs/);
    await expect(failure).rejects.not.toThrow(/secret/);
    expect(delays).toEqual([100, 200]);
  });
});
