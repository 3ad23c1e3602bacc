import type { Store } from './store.js';
import { redactPasswords } from '../core/redact.js';
import { connectPool, isPostgresUrl } from './postgres/connection.js';
import { describeDenseSearch, vectorExtension } from './postgres/pg-extensions.js';
import { lazyPostgresStore } from './postgres/lazy-postgres-store.js';
import { migrate } from './postgres/migrate.js';
import { assertIndexLocation } from './sqlite/open-database.js';
import { SCHEMA_VERSION as SQLITE_SCHEMA_VERSION } from './sqlite/schema.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';

export { isPostgresUrl } from './postgres/connection.js';

/**
 * The one store handle of a process, for the index a `--db` value (or CITEDOCS_DB) names: a
 * `postgres://` (or `postgresql://`) URL is a shared PostgreSQL database (connected and migrated
 * at the first call), anything else the path of a SQLite file (opened at the first call).
 */
export function openStoreHandle(location: string): Store {
  return isPostgresUrl(location) ? lazyPostgresStore(location, { mode: 'write' }) : createSqliteStore(location);
}

/** Whether the index exists already (a database always does: its schema is made at the first call). */
export function storeExists(location: string, fileExists: (path: string) => boolean): boolean {
  return isPostgresUrl(location) || fileExists(location);
}

/** Creates a missing SQLite index file (a database's schema is made by its first call). */
export async function createStoreIfMissing(location: string, fileExists: (path: string) => boolean): Promise<void> {
  if (!storeExists(location, fileExists)) await createSqliteStore(location, 'write').close();
}

/** Fails at once when an index cannot be made at `location` (a file path that cannot be written); a database is checked when it is first used. */
export function assertStoreLocation(location: string): void {
  if (!isPostgresUrl(location)) assertIndexLocation(location);
}

/**
 * What `citedocs migrate` did: the store (shown without a password), its schema now, and
 * (PostgreSQL) the schema it had before and how dense search runs on that server (whether it
 * offers pgvector).
 */
export interface MigrateReport {
  db: string;
  backend: 'postgres' | 'sqlite';
  schema: number;
  from?: number;
  dense?: string;
}

/** Brings a store's schema up to date without ingesting: what `citedocs migrate` runs before starting replicas and workers. */
export async function migrateStore(location: string): Promise<MigrateReport> {
  if (isPostgresUrl(location)) {
    const pool = await connectPool(location);
    try {
      const { from, to } = await migrate(pool, location);
      return { db: redactPasswords(location), backend: 'postgres', schema: to, from, dense: describeDenseSearch(await vectorExtension(pool)) };
    } finally {
      await pool.end();
    }
  }
  // A SQLite file is created or upgraded when opened for writing.
  await createSqliteStore(location, 'write').close();
  return { db: location, backend: 'sqlite', schema: SQLITE_SCHEMA_VERSION };
}
