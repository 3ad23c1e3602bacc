import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord } from '../../lexical/stop-words.js';
import type { Chunk, LexicalRanking, Page } from '../../core/types.js';
import { queryTerms } from '../../lexical/analyze.js';
import { scoreBm25f } from '../lexical/bm25f.js';
import { buildSegment } from '../lexical/segment.js';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.js';

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-segments-')), 'index.db');
// Link priors on: the counts kept per commit must give the priors of a whole rebuild.
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
type Operation = { kind: 'upsert'; page: number; chunks: ChunkSpec[]; refresh: boolean } | { kind: 'remove'; page: number; refresh: boolean };

let version = 0;
function upsert(store: SqliteConnection, page: number, specs: readonly ChunkSpec[]): void {
  version += 1;
  const url = urlOf(page);
  const stored: Page = {
    url, canonicalUrl: url, title: `Page ${page} ${WORDS[page % WORDS.length] ?? ''}`, markdown: `v${version}`, headings: [], anchors: [],
    contentHash: `hash:${version}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl',
  };
  const chunks: Chunk[] = specs.map((spec, index) => {
    const text = `${spec.words.join(' ')}${spec.link === null ? '' : ` see [it](p${spec.link.page}.html#a${spec.link.anchor})`}`;
    return {
      id: `${url}:${index}:${version}`, pageUrl: url, pageTitle: stored.title, headingPath: ['Page', spec.api ? `mod${page}.f${spec.anchor ?? 0}(x)` : 'Section'],
      text, tokenCount: spec.words.length, contentHash: `c:${version}:${index}`, ...(spec.anchor === null ? {} : { anchor: `a${spec.anchor}` }),
    };
  });
  store.upsertPage(stored, chunks);
}

/** The scores of one segment rebuilt from every stored chunk: what the segmented index must give. */
function rebuiltScores(path: string, question: string) {
  const raw = new Database(path, { readonly: true });
  const rows = raw.prepare('SELECT c.id, c.chunk_key, p.url, p.title, c.anchor, c.heading_path, c.text FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY c.id').all() as {
    id: number; chunk_key: string; url: string; title: string; anchor: string | null; heading_path: string; text: string;
  }[];
  raw.close();
  const segment = buildSegment(
    rows.map((row) => ({
      rowId: row.id,
      chunk: { pageUrl: row.url, pageTitle: row.title, headingPath: JSON.parse(row.heading_path) as string[], text: row.text, ...(row.anchor === null ? {} : { anchor: row.anchor }) },
    })),
  );
  return scoreBm25f(segment, queryTerms(question, isStopWord, 1), ranking, 10).map((doc) => ({ id: rows[doc.ordinal]?.chunk_key, score: doc.score }));
}

const segmentedScores = (store: SqliteConnection, question: string) => store.searchText({ text: question, limit: 10, ranking }).map((hit) => ({ id: hit.chunk.id, score: hit.bm25 }));

const chunkSpec = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
  anchor: fc.option(fc.integer({ min: 0, max: 3 })),
  api: fc.boolean(),
  link: fc.option(fc.record({ page: fc.integer({ min: 0, max: PAGES - 1 }), anchor: fc.integer({ min: 0, max: 3 }) })),
});
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('upsert' as const), page: fc.integer({ min: 0, max: PAGES - 1 }), chunks: fc.array(chunkSpec, { minLength: 1, maxLength: 4 }), refresh: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), page: fc.integer({ min: 0, max: PAGES - 1 }), refresh: fc.boolean() }) },
);

describe('segmented lexical index', () => {
  it('gives exactly the scores of one segment rebuilt from the chunks, after any inserts, updates, deletes, flushes and merges', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 40 }), (operations) => {
        const path = dbPath();
        const store = openSqliteConnection(path, 'write');
        try {
          for (const step of operations) {
            if (step.kind === 'upsert') upsert(store, step.page, step.chunks);
            else store.removePage(urlOf(step.page));
            if (step.refresh) store.flush();
          }
          for (const question of [...WORDS, 'alpha beta', 'vacuum index lock', 'mod1.f2', 'page table']) {
            expect(segmentedScores(store, question), question).toEqual(rebuiltScores(path, question));
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 30 },
    );
  });

  it('adds a small segment per update and merges them by tiers, so segments stay few', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    for (let update = 0; update < 35; update += 1) {
      upsert(store, update, [{ words: ['alpha', WORDS[update % WORDS.length] ?? 'beta'], anchor: null, api: false, link: null }]);
      store.flush();
    }
    store.close();
    const raw = new Database(path, { readonly: true });
    // 35 one-page flushes: three merges of ten, five left in the lowest tier, one each above.
    expect(raw.prepare('SELECT count(*) FROM lexical_segments').pluck().get()).toBeLessThan(10);
    expect(raw.prepare('SELECT sum(doc_count - deleted_count) FROM lexical_segments').pluck().get()).toBe(35);
    raw.close();
  });

  it('marks a deleted chunk with a tombstone, and rewrites a segment once most of it is deleted', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    for (let page = 0; page < 4; page += 1) upsert(store, page, [{ words: ['alpha', 'beta'], anchor: null, api: false, link: null }]);
    store.flush();
    store.removePage(urlOf(0));
    const raw = new Database(path, { readonly: true });
    const segments = () => raw.prepare('SELECT doc_count, deleted_count FROM lexical_segments').all();
    expect(segments()).toEqual([{ doc_count: 4, deleted_count: 1 }]);
    expect(store.searchText({ text: 'alpha', limit: 10, ranking })).toHaveLength(3);
    store.removePage(urlOf(1));
    store.removePage(urlOf(2));
    store.flush();
    expect(segments()).toEqual([{ doc_count: 1, deleted_count: 0 }]);
    expect(store.termStats(['alpha'])).toEqual({ documents: 1, documentFrequency: new Map([['alpha', 1]]) });
    raw.close();
    store.close();
  });

  it('counts a page linked from ANOTHER page that changes: its page prior follows at once', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    upsert(store, 0, [{ words: ['vacuum'], anchor: 1, api: false, link: null }]);
    upsert(store, 1, [{ words: ['vacuum'], anchor: 1, api: false, link: null }]);
    upsert(store, 2, [{ words: ['lock'], anchor: null, api: false, link: { page: 1, anchor: 1 } }]);
    const first = () => store.searchText({ text: 'vacuum', limit: 1, ranking })[0]?.chunk.pageUrl;
    expect(first()).toBe(urlOf(1));
    // The linking page changes to link the other one: only page 2 is re-indexed, yet page 0 now ranks first.
    upsert(store, 2, [{ words: ['lock'], anchor: null, api: false, link: { page: 0, anchor: 1 } }]);
    expect(first()).toBe(urlOf(0));
    expect(segmentedScores(store, 'vacuum')).toEqual(rebuiltScores(path, 'vacuum'));
    store.close();
  });

  it('upgrades an index of the one-segment layout (schema 7) in place: read in memory until then, rebuilt once by the next writer', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    upsert(store, 0, [{ words: ['vacuum', 'alpha'], anchor: 1, api: true, link: null }]);
    upsert(store, 1, [{ words: ['vacuum'], anchor: null, api: false, link: { page: 0, anchor: 1 } }]);
    store.close();
    const expected = rebuiltScores(path, 'vacuum');
    const raw = new Database(path);
    raw.exec(`
      DROP TABLE lexical_segments; DROP TABLE lexical_postings; DROP TABLE lexical_pending; DROP TABLE lexical_stats; DROP TABLE lexical_keys; DROP TABLE lexical_page_links;
      CREATE TABLE lexical_terms (term TEXT PRIMARY KEY, postings BLOB NOT NULL) WITHOUT ROWID;
      CREATE TABLE lexical_docs (id INTEGER PRIMARY KEY CHECK (id = 1), built_version INTEGER NOT NULL, count INTEGER NOT NULL, row_ids BLOB NOT NULL, lengths BLOB NOT NULL, inlinks BLOB NOT NULL);
      UPDATE meta SET value = '3' WHERE key = 'lexical_format';
      PRAGMA user_version = 7;`);
    raw.close();
    const reader = openSqliteConnection(path, 'read');
    expect(segmentedScores(reader, 'vacuum')).toEqual(expected);
    const writer = openSqliteConnection(path, 'write');
    expect(writer.flush()).toBe(true);
    expect(writer.flush()).toBe(false);
    expect(segmentedScores(writer, 'vacuum')).toEqual(expected);
    // The reader opened before the upgrade reads the new layout from then on.
    expect(segmentedScores(reader, 'vacuum')).toEqual(expected);
    writer.close();
    reader.close();
    const upgraded = new Database(path, { readonly: true });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(8);
    expect(upgraded.prepare("SELECT value FROM meta WHERE key = 'lexical_format'").pluck().get()).toBe('4');
    upgraded.close();
  });
});
