import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../../core/errors.js';
import type { JudgementCache } from '../../core/judgement-cache.js';
import type { FetchedPage } from '../crawl/fetch-page.js';
import type { SearchHit } from './search-backend.js';

/** A fetched page or failure as cached: what the fetch gave, and when. */
export type CachedFetch = Extract<FetchedPage, { kind: 'document' | 'failed' }>;

export interface WebCacheOptions {
  /** Search results and pages younger than this are used without asking the network. */
  ttlSeconds: number;
  /** A failed fetch (timeout, 5xx) is remembered this long, so a dead site is not waited for again at once. */
  failureTtlSeconds: number;
  now?: () => number;
}

export interface WebCache {
  /** The hits stored for this search key while they are fresh. */
  search(key: string): SearchHit[] | undefined;
  putSearch(key: string, hits: readonly SearchHit[]): void;
  /**
   * The page or failure stored for a URL; `fresh` while within its TTL (a stale page may still be
   * revalidated). A `guarded` reader (private hosts refused) never gets a row an unguarded fetch stored.
   */
  fetched(url: string, guarded: boolean): { page: CachedFetch; fresh: boolean } | undefined;
  putFetched(url: string, page: CachedFetch, guarded: boolean): void;
  /** A 304 answer: the stored page is current for another TTL. */
  refresh(url: string): void;
  /** LLM relevance judgements, kept across runs so the same question never costs twice. */
  readonly judgements: JudgementCache;
  /** Embeddings of queries and fragments, by model, mode and text, so a repeated query calls no embedding API. */
  readonly vectors: { get(key: string): Float32Array | undefined; set(key: string, vector: Float32Array): void };
  close(): void;
}

const FORMAT = 2;
/** Rows are deleted this long after they were stored (stale pages are kept a while for revalidation). */
const KEEP_MS = 30 * 86_400_000;
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS searches (key TEXT PRIMARY KEY, hits TEXT NOT NULL, stored_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS fetches (url TEXT PRIMARY KEY, page TEXT NOT NULL, failed INTEGER NOT NULL, guarded INTEGER NOT NULL, stored_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS judgements (key TEXT PRIMARY KEY, reply TEXT NOT NULL, stored_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL, stored_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS cache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/**
 * The web finder's cache in its own SQLite file: search results, fetched pages (with their
 * ETag / Last-Modified, for revalidation once stale) and LLM judgements. A file that is not a
 * citedocs web cache is refused, never modified.
 */
export function openWebCache(path: string, options: WebCacheOptions): WebCache {
  const now = options.now ?? Date.now;
  let database: Database.Database | undefined;
  try {
    if (!existsSync(path)) mkdirSync(dirname(resolve(path)), { recursive: true });
    database = new Database(path);
    const tables = database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (tables.length > 0 && !tables.includes('cache_meta')) {
      database.close();
      throw new StoreError(`${path} is not a citedocs web cache (it holds other tables). Set web.cache.path to another file.`, path);
    }
    const format = tables.includes('cache_meta') ? (database.prepare("SELECT value FROM cache_meta WHERE key = 'format'").pluck().get() as string | undefined) : undefined;
    if (format !== undefined && Number(format) > FORMAT) {
      database.close();
      throw new StoreError(`The web cache ${path} was written by a newer citedocs. Upgrade citedocs, or delete the file (it is only a cache).`, path);
    }
    database.pragma('journal_mode = WAL');
    // An older cache is only a cache: emptied, not migrated.
    if (format !== undefined && Number(format) < FORMAT) database.exec('DROP TABLE IF EXISTS searches; DROP TABLE IF EXISTS fetches; DROP TABLE IF EXISTS judgements; DROP TABLE IF EXISTS vectors;');
    database.exec(SCHEMA);
    database.prepare("INSERT OR REPLACE INTO cache_meta (key, value) VALUES ('format', ?)").run(String(FORMAT));
    const oldest = now() - KEEP_MS;
    for (const table of ['searches', 'fetches', 'judgements', 'vectors']) database.prepare(`DELETE FROM ${table} WHERE stored_at < ?`).run(oldest);
  } catch (error) {
    if (database?.open === true) database.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`Could not open the web cache ${path}: ${error instanceof Error ? error.message : String(error)}. Check the path, or set web.cache.path.`, path, { cause: error });
  }
  const opened = database as Database.Database;
  const ttl = options.ttlSeconds * 1000;
  const failureTtl = options.failureTtlSeconds * 1000;
  const statements = {
    search: opened.prepare('SELECT hits, stored_at FROM searches WHERE key = ?'),
    putSearch: opened.prepare('INSERT OR REPLACE INTO searches (key, hits, stored_at) VALUES (?, ?, ?)'),
    fetched: opened.prepare('SELECT page, failed, guarded, stored_at FROM fetches WHERE url = ?'),
    putFetched: opened.prepare('INSERT OR REPLACE INTO fetches (url, page, failed, guarded, stored_at) VALUES (?, ?, ?, ?, ?)'),
    vector: opened.prepare('SELECT vector FROM vectors WHERE key = ?').pluck(),
    putVector: opened.prepare('INSERT OR REPLACE INTO vectors (key, vector, stored_at) VALUES (?, ?, ?)'),
    refresh: opened.prepare('UPDATE fetches SET stored_at = ? WHERE url = ?'),
    judgement: opened.prepare('SELECT reply FROM judgements WHERE key = ?').pluck(),
    putJudgement: opened.prepare('INSERT OR REPLACE INTO judgements (key, reply, stored_at) VALUES (?, ?, ?)'),
  };
  return {
    search(key) {
      const row = statements.search.get(key) as { hits: string; stored_at: number } | undefined;
      return row !== undefined && now() - row.stored_at < ttl ? (JSON.parse(row.hits) as SearchHit[]) : undefined;
    },
    putSearch(key, hits) {
      statements.putSearch.run(key, JSON.stringify(hits), now());
    },
    fetched(url, guarded) {
      const row = statements.fetched.get(url) as { page: string; failed: number; guarded: number; stored_at: number } | undefined;
      if (row === undefined || (guarded && row.guarded !== 1)) return undefined;
      return { page: JSON.parse(row.page) as CachedFetch, fresh: now() - row.stored_at < (row.failed === 1 ? failureTtl : ttl) };
    },
    putFetched(url, page, guarded) {
      statements.putFetched.run(url, JSON.stringify(page), page.kind === 'failed' ? 1 : 0, guarded ? 1 : 0, now());
    },
    refresh(url) {
      statements.refresh.run(now(), url);
    },
    judgements: {
      get: (key) => statements.judgement.get(key) as string | undefined,
      set: (key, reply) => void statements.putJudgement.run(key, reply, now()),
    },
    vectors: {
      get: (key) => {
        const blob = statements.vector.get(key) as Buffer | undefined;
        return blob === undefined ? undefined : new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
      },
      set: (key, vector) => void statements.putVector.run(key, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), now()),
    },
    close() {
      opened.close();
    },
  };
}
