import { redactPasswords } from '../../core/redact.js';
import type { CatalogStore, CrawlStateStore } from '../store.js';
import type { VectorStore } from '../vectors.js';
import type { FrontierLeases } from './pg-frontier-leases.js';
import { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from './postgres-store.js';

type AsyncMethods<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never };

/** Every method of `T`, each awaiting the real object first. */
function deferMethods<T extends object>(names: readonly (keyof T)[], target: () => Promise<T>): T {
  const methods: Partial<Record<keyof T, unknown>> = {};
  for (const name of names) {
    methods[name] = async (...args: unknown[]) => {
      const real = await target();
      return (real[name] as (...parameters: unknown[]) => Promise<unknown>).apply(real, args);
    };
  }
  return methods as T;
}

const STORE_METHODS = [
  'upsertPage', 'getPage', 'resolvePageUrl', 'resolveFirstPageUrl', 'pageUrlWithContent', 'addAlias', 'confirmPage', 'removePage', 'pageUrlsUnder',
  'chunksOf', 'anchorsOf', 'pagesWithAnchor', 'stats', 'hasChunks', 'searchText', 'termStats',
] as const satisfies readonly (keyof AsyncMethods<PostgresStore>)[];
const CRAWL_METHODS = ['openRun', 'enqueue', 'markDone', 'finishRun', 'recordOutcome', 'latestRuns'] as const satisfies readonly (keyof CrawlStateStore)[];
const CATALOG_METHODS = [
  'upsertSource', 'renameSource', 'recordCrawl', 'listSources', 'sourceNames', 'sourceLabels', 'pageUrlsOfSource', 'deleteSource', 'startJob', 'updateJob', 'listJobs',
] as const satisfies readonly (keyof CatalogStore)[];
const VECTOR_METHODS = ['info', 'useModel', 'pendingChunks', 'cachedDimension', 'cachedVectors', 'putVectors', 'vectorsOf', 'searchVectors'] as const satisfies readonly (keyof VectorStore)[];
const LEASE_METHODS = ['add', 'lease', 'claim', 'renew', 'complete', 'progress', 'reserveHostSlot'] as const satisfies readonly (keyof FrontierLeases)[];

/**
 * A PostgreSQL store handle that can be made synchronously (as the engine makes its one store
 * handle): it connects and migrates at its first call, and every call awaits that. A failure to
 * connect is the rejection of that call (and of each next one, which tries again). Closing a
 * handle that never connected does nothing.
 */
export function lazyPostgresStore(url: string, options: PostgresStoreOptions): PostgresStore {
  let opening: Promise<PostgresStore> | undefined;
  let opened: PostgresStore | undefined;
  /** Why the last attempt to connect failed, and since when attempts fail. */
  let failing: { since: string; error: string; attempts: number } | undefined;
  const open = (): Promise<PostgresStore> => {
    opening ??= createPostgresStore(url, options).then(
      (store) => {
        failing = undefined;
        return (opened = store);
      },
      (error: unknown) => {
        opening = undefined;
        failing = { since: failing?.since ?? new Date().toISOString(), error: error instanceof Error ? error.message : String(error), attempts: (failing?.attempts ?? 0) + 1 };
        throw error;
      },
    );
    return opening;
  };
  return {
    ...deferMethods<PostgresStore>(STORE_METHODS, open),
    crawlState: deferMethods<CrawlStateStore>(CRAWL_METHODS, async () => (await open()).crawlState),
    catalog: deferMethods<CatalogStore>(CATALOG_METHODS, async () => (await open()).catalog),
    vectors: deferMethods<VectorStore>(VECTOR_METHODS, async () => (await open()).vectors),
    frontierLeases: deferMethods<FrontierLeases>(LEASE_METHODS, async () => (await open()).frontierLeases),
    indexGeneration: () => opened?.indexGeneration() ?? 0,
    databaseHealth: () =>
      opened?.databaseHealth() ?? (failing === undefined ? { database: 'connecting' } : { database: 'unreachable', since: failing.since, databaseError: redactPasswords(failing.error), failedAttempts: failing.attempts }),
    async close() {
      if (opening === undefined) return;
      const store = await opening.catch(() => undefined);
      await store?.close();
    },
  };
}
