import type pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { redactPasswords } from '../../core/redact.js';
import type { Store } from '../store.js';
import { type ConnectOptions, connectPool } from './connection.js';
import { migrate, schemaVersion } from './migrate.js';
import { SCHEMA_VERSION } from './schema.js';
import { CachedReads } from './pg-cached-reads.js';
import { createPgCatalog } from './pg-catalog.js';
import { createPgCrawlState } from './pg-crawl-state.js';
import { ReadCache } from './pg-read-cache.js';
import { createFrontierLeases, type FrontierLeases } from './pg-frontier-leases.js';
import { createPgLexicalSearch } from './pg-lexical-search.js';
import { createPgLexicalWriter, FLUSH_DOCS, MERGE_DOCS_PER_REFRESH } from './pg-lexical-writer.js';
import { createPageLoader, type PageWithAnchors } from './pg-page-reads.js';
import { createPgPageWrites } from './pg-page-writes.js';
import { CHUNK_COLUMNS, chunkOfRow, type IdChunkRow, inTransaction } from './pg-rows.js';
import { createPgVectorStore } from './pg-vectors.js';
import { replicaCatalog, replicaVectors } from './pg-replica-reads.js';
import { createVersionWatch, type DatabaseHealth, type VersionWatchOptions } from './pg-version-watch.js';

export interface PostgresStoreOptions {
  /** `read` refuses writes and never migrates (a schema that is not current is an error); `write` migrates on open. */
  mode: 'read' | 'write';
  connect?: ConnectOptions;
  /** After a write, chunks wait at most this long before they are indexed for other processes. */
  idleFlushMs?: number;
  /** How often the data version is checked, and how an unreachable database is retried. */
  versionWatch?: VersionWatchOptions;
}

/** A PostgreSQL store: the Store contract, plus what a replica reports about the index it serves. */
export interface PostgresStore extends Store {
  /** The generation of the lexical index this handle last searched (0 before its first search). */
  indexGeneration(): number;
  /** The crawl frontier as leases, for ingest workers sharing one crawl. */
  readonly frontierLeases: FrontierLeases;
  /** Whether the database is reachable now, and since when it is not: what `/healthz` reports. */
  databaseHealth(): DatabaseHealth;
}

/** Escapes LIKE's wildcards, so a prefix matches only itself. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The shared store for many processes on many machines: pages, chunks, anchors, the segmented
 * lexical index, vectors, crawl state and the catalog in one PostgreSQL database, through one
 * connection pool per process. Opening for writing migrates the schema (safely when several
 * processes start at once). Writes of a page are one transaction; the lexical index is kept by
 * the same code as the SQLite store's, so both rank identically.
 */
export async function createPostgresStore(url: string, options: PostgresStoreOptions): Promise<PostgresStore> {
  const name = redactPasswords(url);
  const pool = await connectPool(url, options.connect);
  try {
    if (options.mode === 'write') await migrate(pool, url);
    else await assertCurrentSchema(pool, name);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const writable = () => {
    if (options.mode !== 'write') throw new StoreError(`${name} is open read-only.`, name);
  };
  const writer = createPgLexicalWriter();
  const watch = createVersionWatch(pool, name, options.versionWatch);
  const cached = new CachedReads(watch, name);
  const lexical = createPgLexicalSearch(pool, watch, name);
  const pageWrites = createPgPageWrites(pool, writer);
  const crawlState = createPgCrawlState(pool);
  const catalog = createPgCatalog(pool, writable);
  const vectors = createPgVectorStore(pool, name);

  // Chunks this handle stored and did not index yet: its own searches index them first.
  let waiting = 0;
  let refreshing: Promise<void> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const refreshOnce = async (): Promise<void> => {
    const had = waiting;
    waiting = 0;
    try {
      while ((await inTransaction(pool, (client) => writer.flush(client))) > 0);
    } catch (error) {
      // Still waiting (in the database's queue too): the next read or close tries again.
      waiting += had;
      throw error;
    }
    let budget = MERGE_DOCS_PER_REFRESH;
    for (;;) {
      const merged = await inTransaction(pool, (client) => writer.mergeOnce(client, budget));
      if (merged === 0) break;
      budget -= merged;
    }
    // This process's next read sees the generation it just wrote.
    watch.invalidate();
  };
  /**
   * Indexes what this handle wrote, one refresh at a time in this process (other processes wait
   * on the index lock). A refresh under way may have begun before the latest writes: it is
   * waited for, then what still waits is indexed.
   */
  const refresh = async (): Promise<void> => {
    while (refreshing !== undefined) await refreshing;
    if (waiting === 0) return;
    refreshing = refreshOnce().finally(() => (refreshing = undefined));
    await refreshing;
  };
  // Scheduled once, not pushed back by each write: other processes see a crawl's pages within a second while it goes on.
  const scheduleIdleFlush = () => {
    if (idleTimer !== undefined) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (!closed && waiting > 0) void refresh().catch(() => undefined);
    }, options.idleFlushMs ?? 1_000);
    idleTimer.unref();
  };
  const beforeRead = async () => {
    if (waiting > 0 || refreshing !== undefined) await refresh();
  };

  const pageLoader = createPageLoader(pool);
  const pages = new ReadCache<PageWithAnchors>(() => lexical.generation(), undefined, undefined, undefined, watch);
  const pageOf = (url: string) => pages.get(url, () => pageLoader.load(url));
  /** A write through this handle is seen by its next read: cleared as it starts and once it is done (a read meanwhile may have kept the old state). */
  const wrote = () => {
    pages.clear();
    watch.invalidate();
  };

  const afterWrite = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await write(...args);
    } finally {
      watch.invalidate();
    }
  };
  const readStats = async () => {
    const counts = (
      await pool.query<{ pages: number; chunks: number; anchors: number; bytes: string }>(
        `SELECT (SELECT count(*)::int FROM pages) AS pages, (SELECT count(*)::int FROM chunks) AS chunks, (SELECT count(*)::int FROM anchors) AS anchors,
                (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE c.relkind = 'r' AND n.nspname = current_schema()) AS bytes`,
      )
    ).rows[0];
    return { pages: counts?.pages ?? 0, chunks: counts?.chunks ?? 0, anchors: counts?.anchors ?? 0, bytes: Number(counts?.bytes ?? 0), ingests: await crawlState.latestRuns() };
  };

  const store: PostgresStore = {
    async upsertPage(page, chunks, upsertOptions) {
      writable();
      wrote();
      const { outcome, added } = await pageWrites.upsert(page, chunks, upsertOptions?.rechunked === true, upsertOptions?.sourceId);
      wrote();
      waiting += added;
      if (waiting >= FLUSH_DOCS) await refresh();
      else if (waiting > 0) scheduleIdleFlush();
      return outcome;
    },
    async searchText(query) {
      await beforeRead();
      return lexical.search(query);
    },
    async termStats(words, sourceIds) {
      await beforeRead();
      return lexical.termStats(words, sourceIds);
    },
    getPage: async (url) => (await pageOf(url)).page,
    async resolvePageUrl(url) {
      return store.resolveFirstPageUrl([url]);
    },
    async resolveFirstPageUrl(urls) {
      if (urls.length === 0) return undefined;
      const row = await cached.lastKnown(`resolve\u0000${urls.join('\u0000')}`, 'a page URL', () => pool.query<{ url: string }>(
        `SELECT coalesce(p.url, aliased.url) AS url
           FROM unnest($1::text[]) WITH ORDINALITY AS u(url, n)
           LEFT JOIN pages p ON p.url = u.url
           LEFT JOIN page_aliases a ON a.alias = u.url LEFT JOIN pages aliased ON aliased.id = a.page_id
          WHERE p.url IS NOT NULL OR aliased.url IS NOT NULL ORDER BY u.n LIMIT 1`,
        [[...urls]],
      ));
      return row.rows[0]?.url;
    },
    async pageUrlWithContent(contentHash) {
      return (await pool.query<{ url: string }>('SELECT url FROM pages WHERE content_hash = $1 ORDER BY id LIMIT 1', [contentHash])).rows[0]?.url;
    },
    async addAlias(pageUrl, alias) {
      writable();
      wrote();
      await pool.query('INSERT INTO page_aliases (alias, page_id) SELECT $1, id FROM pages WHERE url = $2 ON CONFLICT (alias) DO UPDATE SET page_id = excluded.page_id', [alias, pageUrl]);
      wrote();
    },
    async confirmPage(url, fetchedAt) {
      writable();
      wrote();
      const row = await pool.query<{ chunks: number }>('UPDATE pages SET fetched_at = $1 WHERE url = $2 RETURNING (SELECT count(*)::int FROM chunks c WHERE c.page_id = pages.id) AS chunks', [
        fetchedAt, url,
      ]);
      wrote();
      return row.rows[0]?.chunks;
    },
    async removePage(url) {
      writable();
      wrote();
      const removed = await pageWrites.remove(url);
      wrote();
      return removed;
    },
    async pageUrlsUnder(prefix, source) {
      return cached.lastKnown(`under\u0000${prefix}\u0000${source ?? ''}`, 'the pages under a URL', async () =>
        (await pool.query<{ url: string }>('SELECT url FROM pages WHERE url LIKE $1 AND ($2::text IS NULL OR source = $2) ORDER BY url', [likePrefix(prefix), source ?? null])).rows.map((row) => row.url),
      );
    },
    crawlState: {
      ...crawlState,
      openRun: (...args) => (writable(), crawlState.openRun(...args)),
      enqueue: (...args) => (writable(), crawlState.enqueue(...args)),
      markDone: (...args) => (writable(), crawlState.markDone(...args)),
      finishRun: (...args) => (writable(), crawlState.finishRun(...args)),
      recordOutcome: (...args) => (writable(), crawlState.recordOutcome(...args)),
      latestRuns: () => cached.lastKnown('latest-runs', 'the latest ingests', crawlState.latestRuns),
    },
    catalog: replicaCatalog(catalog, cached, afterWrite),
    vectors: replicaVectors(vectors, cached, writable, afterWrite),
    async chunksOf(url) {
      return cached.lastKnown(`chunks\u0000${url}`, 'the passages of a page', async () =>
        (await pool.query<IdChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.url = $1 ORDER BY c.ordinal`, [url])).rows.map(chunkOfRow),
      );
    },
    anchorsOf: async (url) => (await pageOf(url)).anchors,
    async pagesWithAnchor(anchor) {
      return cached.lastKnown(`with-anchor\u0000${anchor}`, 'the pages with an anchor', async () =>
        (await pool.query<{ url: string }>('SELECT p.url FROM anchors a JOIN pages p ON p.id = a.page_id WHERE a.anchor = $1 ORDER BY p.url', [anchor])).rows.map((row) => row.url),
      );
    },
    stats: () => cached.lastKnown('stats', 'the size of the index', readStats),
    hasChunks: () => cached.read('has-chunks', 'whether the index has passages', async () => (await pool.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM chunks) AS found')).rows[0]?.found === true),
    indexGeneration: () => lexical.generation(),
    databaseHealth: () => watch.health(),

    frontierLeases: createFrontierLeases(pool),
    // A writer's last chunks are indexed before it lets go, so every reader sees every page it stored.
    async close() {
      if (closed) return;
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      try {
        if (options.mode === 'write' && (waiting > 0 || refreshing !== undefined)) await refresh();
      } finally {
        closed = true;
        await pool.end();
      }
    },
  };
  return store;
}

async function assertCurrentSchema(pool: pg.Pool, name: string): Promise<void> {
  const client = await pool.connect();
  try {
    const version = await schemaVersion(client);
    if (version === 0) throw new StoreError(`No citedocs index in ${name}. Run \`citedocs ingest <url|folder> --db ${name}\` (or \`citedocs migrate --db ${name}\`) first.`, name);
    if (version > SCHEMA_VERSION) throw new StoreError(`${name} was written by a newer citedocs (schema ${version}, this one reads ${SCHEMA_VERSION}). Upgrade citedocs.`, name);
    if (version < SCHEMA_VERSION) throw new StoreError(`${name} uses an older schema (${version}). Run \`citedocs migrate --db ${name}\` once to upgrade it.`, name);
  } finally {
    client.release();
  }
}
