import type pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { redactPasswords } from '../../core/redact.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** The advisory lock every citedocs process takes to migrate: 'CDOC' as a number. */
const MIGRATION_LOCK = 0x43444f43;

export interface MigrationResult {
  /** The schema before: 0 for an empty database. */
  from: number;
  to: number;
}

/**
 * Brings the database's schema to SCHEMA_VERSION, each migration in its own transaction.
 * Several processes starting at once take turns on an advisory lock: the first migrates, the
 * others then find the schema current. A schema newer than this citedocs is refused untouched.
 */
export async function migrate(pool: pg.Pool, url: string): Promise<MigrationResult> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS citedocs_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
      const from = await schemaVersion(client);
      if (from > SCHEMA_VERSION) {
        throw new StoreError(
          `${redactPasswords(url)} was written by a newer citedocs (schema ${from}, this one reads ${SCHEMA_VERSION}). Upgrade citedocs, or pass another --db.`,
          redactPasswords(url),
        );
      }
      for (let version = from + 1; version <= SCHEMA_VERSION; version += 1) {
        await client.query('BEGIN');
        try {
          await client.query(MIGRATIONS[version - 1] as string);
          await client.query('INSERT INTO citedocs_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version', [version]);
          if (version === 1) await client.query('INSERT INTO meta (key, value) VALUES ($1, $2)', ['created_at', new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new StoreError(`Migrating ${redactPasswords(url)} to schema ${version} failed: ${error instanceof Error ? error.message : String(error)}. Nothing of that migration was kept.`, redactPasswords(url), {
            cause: error,
          });
        }
      }
      return { from, to: Math.max(from, SCHEMA_VERSION) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** The database's schema version: 0 when citedocs never migrated it. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ found: boolean }>("SELECT to_regclass('citedocs_schema') IS NOT NULL AS found");
  if (exists.rows[0]?.found !== true) return 0;
  const result = await client.query<{ version: number }>('SELECT version FROM citedocs_schema WHERE id = 1');
  return result.rows[0]?.version ?? 0;
}
