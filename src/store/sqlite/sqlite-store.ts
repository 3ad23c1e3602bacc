import { StoreError } from '../../core/errors.js';
import type { CatalogStore, CrawlStateStore, Store } from '../store.js';
import type { VectorStore } from '../vectors.js';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.js';
import type { OpenMode } from './open-database.js';

/**
 * At most this long after a write, what it left waiting is indexed, so other processes see it:
 * during a long crawl too, which never pauses (a changed page's old passages leave the index at
 * once, so its new ones must not wait for the crawl to end).
 */
export const FLUSH_DELAY_MS = 1000;

export interface SqliteStoreOptions {
  /** How long after a write the handle indexes what waits for other readers. @default FLUSH_DELAY_MS */
  flushDelayMs?: number;
}

type Access = 'read' | 'write';
/** Which methods write: they go through the write connection; the others through whichever connection is open. */
type Accesses<T> = { [K in keyof T as T[K] extends (...args: never[]) => Promise<unknown> ? K : never]: Access };

const STORE_ACCESS = {
  upsertPage: 'write', getPage: 'read', resolvePageUrl: 'read', resolveFirstPageUrl: 'read', pageUrlWithContent: 'read', addAlias: 'write', confirmPage: 'write',
  removePage: 'write', pageUrlsUnder: 'read', chunksOf: 'read', anchorsOf: 'read', pagesWithAnchor: 'read', stats: 'read', hasChunks: 'read', searchText: 'read', termStats: 'read',
} satisfies Omit<Accesses<Store>, 'close'>;
const CRAWL_STATE_ACCESS = {
  openRun: 'write', enqueue: 'write', markDone: 'write', finishRun: 'write', recordOutcome: 'write', latestRuns: 'read',
} satisfies Accesses<CrawlStateStore>;
const CATALOG_ACCESS = {
  upsertSource: 'write', renameSource: 'write', recordCrawl: 'write', listSources: 'read', sourceNames: 'read', sourceLabels: 'read', pageUrlsOfSource: 'read',
  deleteSource: 'write', startJob: 'write', updateJob: 'write', listJobs: 'read',
} satisfies Accesses<CatalogStore>;
const VECTORS_ACCESS = {
  info: 'read', useModel: 'write', pendingChunks: 'read', cachedDimension: 'read', cachedVectors: 'read', putVectors: 'write', vectorsOf: 'read', searchVectors: 'read',
} satisfies Accesses<VectorStore>;

/**
 * The embedded default store: one SQLite file with pages, chunks, the BM25F index, vectors and
 * the anchor map, behind the asynchronous Store contract.
 *
 * One handle holds one connection at a time: read-only until the first write (so a handle that
 * only searches never creates, upgrades or locks the file), then the write connection for every
 * call. better-sqlite3 runs each call to completion, so the handle's reads and writes never
 * interleave; other processes read the file concurrently in WAL mode, each read one snapshot.
 * Chunks written wait in the file's queue until they are indexed: before this handle's next
 * read, at most `flushDelayMs` after a write, and at `close`.
 *
 * `mode`: 'read' refuses writes; 'write' opens (creates, upgrades) the file for writing at once;
 * omitted, the file is opened for reading at the first read and for writing at the first write.
 */
export function createSqliteStore(path: string, mode?: OpenMode, options: SqliteStoreOptions = {}): Store {
  const flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS;
  let connection: SqliteConnection | undefined = mode === undefined ? undefined : openSqliteConnection(path, mode);
  let pendingFlush: NodeJS.Timeout | undefined;
  let closed = false;

  const connectionFor = (access: Access): SqliteConnection => {
    if (closed) throw new StoreError(`The index ${path} was closed.`, path);
    if (access === 'write' && connection?.writable !== true) {
      if (mode === 'read') throw new StoreError(`${path} is open read-only.`, path);
      const writer = openSqliteConnection(path, 'write');
      // The write connection takes over the reads too: they see its writes at once.
      connection?.close();
      connection = writer;
    }
    return (connection ??= openSqliteConnection(path, 'read'));
  };
  const scheduleFlush = () => {
    // Not pushed back by later writes: a crawl writing without pause still becomes visible.
    if (pendingFlush !== undefined) return;
    pendingFlush = setTimeout(() => {
      pendingFlush = undefined;
      try {
        connection?.flush();
      } catch {
        // What waits stays queued in the file: this handle's next read, the next pause or close indexes it, and reports a failure there.
      }
    }, flushDelayMs);
    // A pending flush never keeps the process alive: close (or the next writer) indexes what waits.
    pendingFlush.unref();
  };

  const adapt = <T>(accesses: Record<string, Access>, part: (connection: SqliteConnection) => object): T =>
    Object.fromEntries(
      Object.entries(accesses).map(([name, access]) => [
        name,
        // async: a failure (opening the file, a full disk) becomes a rejection, never a synchronous throw.
        async (...args: unknown[]) => {
          const target = part(connectionFor(access)) as Record<string, (...values: unknown[]) => unknown>;
          const result = target[name]?.(...args);
          if (access === 'write') scheduleFlush();
          return result;
        },
      ]),
    ) as T;

  return {
    ...adapt<Omit<Store, 'crawlState' | 'catalog' | 'vectors' | 'close'>>(STORE_ACCESS, (open) => open),
    crawlState: adapt<CrawlStateStore>(CRAWL_STATE_ACCESS, (open) => open.crawlState),
    catalog: adapt<CatalogStore>(CATALOG_ACCESS, (open) => open.catalog),
    vectors: adapt<VectorStore>(VECTORS_ACCESS, (open) => open.vectors),
    close: async () => {
      if (closed) return;
      closed = true;
      clearTimeout(pendingFlush);
      const open = connection;
      connection = undefined;
      open?.close();
    },
  };
}
