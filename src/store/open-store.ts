import type { Store } from './store.js';
import { connectPool, isPostgresUrl, redactUrl } from './postgres/connection.js';
import { migrate } from './postgres/migrate.js';
import { createPostgresStore } from './postgres/postgres-store.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';
import { SCHEMA_VERSION as SQLITE_SCHEMA_VERSION } from './sqlite/schema.js';

export { isPostgresUrl, redactUrl } from './postgres/connection.js';

/**
 * Opens the store a `--db` value names: a `postgres://` (or `postgresql://`) URL is a shared
 * PostgreSQL database, anything else the path of a SQLite file.
 */
export async function openStore(location: string, mode: 'read' | 'write'): Promise<Store> {
  if (isPostgresUrl(location)) return createPostgresStore(location, { mode });
  return createSqliteStore(location, mode);
}

/** What `citedocs migrate` did: the store (shown without a password), its schema now, and (PostgreSQL) the schema it had before. */
export interface MigrateReport {
  db: string;
  backend: 'postgres' | 'sqlite';
  schema: number;
  from?: number;
}

/** Brings a store's schema up to date without ingesting: what `citedocs migrate` runs before starting replicas and workers. */
export async function migrateStore(location: string): Promise<MigrateReport> {
  if (isPostgresUrl(location)) {
    const pool = await connectPool(location);
    try {
      const { from, to } = await migrate(pool, location);
      return { db: redactUrl(location), backend: 'postgres', schema: to, from };
    } finally {
      await pool.end();
    }
  }
  // A SQLite file is migrated when opened for writing.
  const store = await openStore(location, 'write');
  await store.close();
  return { db: location, backend: 'sqlite', schema: SQLITE_SCHEMA_VERSION };
}
