import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../core/errors.js';
import type { SearchHit } from './search-backend.js';
import { type CachedFetch, openWebCache, type WebCache, type WebCacheOptions } from './web-cache.js';

const folders: string[] = [];
const opened: WebCache[] = [];
afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'citedocs-web-cache-'));
  folders.push(folder);
  return folder;
}

const HOUR = 3600;
const T0 = Date.UTC(2026, 0, 1);

/** A cache on a fresh file whose clock the test moves: `clock.at = …`. */
function cacheAt(path = join(tempFolder(), 'web-cache.db'), options: Partial<WebCacheOptions> = {}) {
  const clock = { at: T0 };
  const cache = openWebCache(path, { ttlSeconds: 24 * HOUR, failureTtlSeconds: HOUR, now: () => clock.at, ...options });
  opened.push(cache);
  return { cache, clock, path };
}

function reopen(path: string, now = T0): WebCache {
  const cache = openWebCache(path, { ttlSeconds: 24 * HOUR, failureTtlSeconds: HOUR, now: () => now });
  opened.push(cache);
  return cache;
}

function closeAll(): void {
  for (const cache of opened.splice(0)) cache.close();
}

const HITS: SearchHit[] = [
  { url: 'https://graphology.github.io/', title: 'Home | Graphology', snippet: 'graphology is a robust & multipurpose Graph object', rank: 1 },
  { url: 'https://www.cloudwego.io/zh/docs/eino/overview/', title: 'Eino: 概述 | CloudWeGo', snippet: '"i know"', rank: 2 },
];
const DOCUMENT: CachedFetch = { kind: 'document', url: 'https://docs.example/guide', format: 'html', body: '<h1>Guide</h1>', etag: '"v1"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT', redirects: [] };
const FAILURE: CachedFetch = { kind: 'failed', url: 'https://dead.example/', status: 503, message: 'GET https://dead.example/ returned HTTP 503' };

describe('openWebCache: search results', () => {
  it('returns the stored hits while younger than the TTL, and none from then on', () => {
    const { cache, clock } = cacheAt();
    cache.putSearch('duckduckgo-html|graphology', HITS);
    clock.at = T0 + 24 * HOUR * 1000 - 1;
    expect(cache.search('duckduckgo-html|graphology')).toEqual(HITS);
    clock.at = T0 + 24 * HOUR * 1000;
    expect(cache.search('duckduckgo-html|graphology')).toBeUndefined();
  });

  it('knows nothing of a key never stored', () => {
    const { cache } = cacheAt();
    cache.putSearch('a', HITS);
    expect(cache.search('b')).toBeUndefined();
  });

  it('replaces the hits of a key stored again, and restarts its TTL', () => {
    const { cache, clock } = cacheAt();
    cache.putSearch('q', HITS);
    clock.at = T0 + 20 * HOUR * 1000;
    cache.putSearch('q', HITS.slice(0, 1));
    clock.at = T0 + 30 * HOUR * 1000;
    expect(cache.search('q')).toEqual(HITS.slice(0, 1));
  });
});

describe('openWebCache: fetched pages and failures', () => {
  it('keeps a document fresh for ttlSeconds, then returns it stale (for revalidation) with its validators', () => {
    const { cache, clock } = cacheAt();
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    clock.at = T0 + 2 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: true });
    clock.at = T0 + 24 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: false });
  });

  it('keeps a failure fresh only for failureTtlSeconds, shorter than the document TTL', () => {
    const { cache, clock } = cacheAt();
    cache.putFetched(FAILURE.url, FAILURE, true);
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    clock.at = T0 + HOUR * 1000 - 1;
    expect(cache.fetched(FAILURE.url, true)?.fresh).toBe(true);
    clock.at = T0 + HOUR * 1000;
    expect(cache.fetched(FAILURE.url, true)).toEqual({ page: FAILURE, fresh: false });
    expect(cache.fetched(DOCUMENT.url, true)?.fresh).toBe(true);
  });

  it('returns undefined for a URL never fetched', () => {
    expect(cacheAt().cache.fetched('https://never.example/', true)).toBeUndefined();
  });

  it('refresh() makes a stale page fresh for another TTL, from the time of the refresh', () => {
    const { cache, clock } = cacheAt();
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    clock.at = T0 + 30 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)?.fresh).toBe(false);
    cache.refresh(DOCUMENT.url);
    clock.at = T0 + 53 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: true });
    clock.at = T0 + 54 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)?.fresh).toBe(false);
  });

  it('refresh() of an unknown URL stores nothing', () => {
    const { cache } = cacheAt();
    cache.refresh('https://never.example/');
    expect(cache.fetched('https://never.example/', true)).toBeUndefined();
  });

  it('replaces a failure with the document fetched later, under the document TTL', () => {
    const { cache, clock } = cacheAt();
    cache.putFetched(DOCUMENT.url, { ...FAILURE, url: DOCUMENT.url }, true);
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    clock.at = T0 + 2 * HOUR * 1000;
    expect(cache.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: true });
  });
});

describe('openWebCache: judgements and persistence', () => {
  it('gets the judgement set for a key, overwritten by a later set', () => {
    const { cache } = cacheAt();
    expect(cache.judgements.get('k')).toBeUndefined();
    cache.judgements.set('k', '{"relevant":true}');
    cache.judgements.set('k', '{"relevant":false}');
    expect(cache.judgements.get('k')).toBe('{"relevant":false}');
  });

  it('keeps search hits, pages and judgements across close and reopen', () => {
    const { cache, path } = cacheAt();
    cache.putSearch('q', HITS);
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    cache.judgements.set('judge-1', 'yes, relevant');
    closeAll();
    const again = reopen(path, T0 + 1000);
    expect(again.search('q')).toEqual(HITS);
    expect(again.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: true });
    expect(again.judgements.get('judge-1')).toBe('yes, relevant');
  });

  it('keeps judgements for 30 days, and deletes every row older than that when it opens', () => {
    const { cache, path } = cacheAt();
    cache.judgements.set('judge-1', 'yes');
    cache.putSearch('q', HITS);
    closeAll();
    expect(reopen(path, T0 + 29 * 24 * HOUR * 1000).judgements.get('judge-1')).toBe('yes');
    closeAll();
    const later = reopen(path, T0 + 31 * 24 * HOUR * 1000);
    expect(later.judgements.get('judge-1')).toBeUndefined();
    expect(later.search('q')).toBeUndefined();
  });

  it('never serves a page an unguarded run (private hosts allowed) stored to a guarded one', () => {
    const { cache } = cacheAt();
    cache.putFetched(DOCUMENT.url, DOCUMENT, false);
    expect(cache.fetched(DOCUMENT.url, true)).toBeUndefined();
    expect(cache.fetched(DOCUMENT.url, false)).toEqual({ page: DOCUMENT, fresh: true });
    cache.putFetched(DOCUMENT.url, DOCUMENT, true);
    expect(cache.fetched(DOCUMENT.url, true)).toEqual({ page: DOCUMENT, fresh: true });
  });

  it('keeps vectors across reopening, exactly', () => {
    const { cache, path } = cacheAt();
    cache.vectors.set('model\nquery\nflatMap', new Float32Array([0.25, -1.5, 3]));
    closeAll();
    expect([...(reopen(path).vectors.get('model\nquery\nflatMap') ?? [])]).toEqual([0.25, -1.5, 3]);
  });

  it('creates the missing folders of its path', () => {
    const path = join(tempFolder(), 'deep', 'er', 'web-cache.db');
    cacheAt(path).cache.putSearch('q', HITS);
    expect(existsSync(path)).toBe(true);
  });
});

describe('openWebCache: files it must not use', () => {
  it('refuses the SQLite file of another application with StoreError and leaves it unmodified', () => {
    const folder = tempFolder();
    const path = join(folder, 'other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE foo (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO foo (name) VALUES ('kept')");
    other.close();
    const before = readFileSync(path);
    const files = readdirSync(folder).sort();

    let error: unknown;
    try {
      openWebCache(path, { ttlSeconds: 60, failureTtlSeconds: 60 });
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).path).toBe(path);
    expect((error as StoreError).message).toContain('is not a citedocs web cache');

    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(files);
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['foo']);
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('refuses a file that is not SQLite at all with StoreError and leaves it unmodified', () => {
    const path = join(tempFolder(), 'notes.txt');
    writeFileSync(path, 'just some notes, not a database\n'.repeat(200));
    const before = readFileSync(path);
    expect(() => reopen(path)).toThrow(StoreError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a cache written by a newer format', () => {
    const { path } = cacheAt();
    closeAll();
    const database = new Database(path);
    database.prepare("UPDATE cache_meta SET value = '99' WHERE key = 'format'").run();
    database.pragma('journal_mode = DELETE');
    database.close();
    const before = readFileSync(path);
    expect(() => reopen(path)).toThrow(/written by a newer citedocs/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('reports a path it cannot open as a StoreError naming the path', () => {
    const path = join(tempFolder(), 'a-folder');
    mkdirSync(path);
    expect(() => reopen(path)).toThrow(StoreError);
    expect(() => reopen(path)).toThrow(`Could not open the web cache ${path}`);
  });
});
