import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../../core/errors.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';

export type OpenMode = 'read' | 'write';

const INGEST_HINT = 'Run `citedocs ingest <url|folder>` first, or pass --db with the path of an existing index.';

/**
 * Opens (and in write mode creates) a citedocs SQLite file, refusing with a clear error a
 * missing index, a file that is not SQLite, a SQLite file of another application, or one
 * written by a newer citedocs. Never modifies a file it refuses.
 */
export function openDatabase(path: string, mode: OpenMode): Database.Database {
  const exists = existsSync(path);
  if (mode === 'read' && !exists) throw new StoreError(`No index at ${path}. ${INGEST_HINT}`, path);
  if (exists && statSync(path).isDirectory()) throw new StoreError(`${path} is a folder, not an index file. Pass --db with a file path.`, path);

  let database: Database.Database;
  try {
    // A new index may go in a folder that does not exist yet (--db .citedocs/site.db).
    if (mode === 'write' && !exists) mkdirSync(dirname(resolve(path)), { recursive: true });
    database = new Database(path, mode === 'read' ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    throw new StoreError(`Could not open ${path}: ${error instanceof Error ? error.message : String(error)}. Check the path and its permissions.`, path, { cause: error });
  }
  try {
    checkIdentity(database, path, mode);
  } catch (error) {
    database.close();
    throw error;
  }
  if (mode === 'write') {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
  }
  database.pragma('foreign_keys = ON');
  return database;
}

function checkIdentity(database: Database.Database, path: string, mode: OpenMode): void {
  let applicationId: number;
  let tableCount: number;
  try {
    applicationId = database.pragma('application_id', { simple: true }) as number;
    tableCount = (database.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number }).n;
  } catch (error) {
    throw new StoreError(
      `${path} is not a citedocs index (it is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}). Pass --db with another path, or move the file away and ingest again.`,
      path,
      { cause: error },
    );
  }
  if (applicationId === 0 && tableCount === 0) {
    if (mode === 'read') throw new StoreError(`The index at ${path} is empty. ${INGEST_HINT}`, path);
    database.transaction(() => {
      database.exec(SCHEMA_SQL);
      database.pragma(`application_id = ${APPLICATION_ID}`);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
      database.prepare('INSERT INTO meta(key, value) VALUES (?, ?)').run('created_at', new Date().toISOString());
    })();
    return;
  }
  if (applicationId !== APPLICATION_ID) {
    throw new StoreError(`${path} is a SQLite database that citedocs did not create; it was left untouched. Pass --db with another path.`, path);
  }
  const version = database.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`${path} was written by a newer citedocs (schema ${version}, this one reads ${SCHEMA_VERSION}). Upgrade citedocs or ingest into another --db.`, path);
  }
  if (version < SCHEMA_VERSION) {
    if (mode === 'read') throw new StoreError(`${path} uses an older index format (schema ${version}). Run \`citedocs ingest\` once to upgrade it.`, path);
    database.transaction(() => {
      for (let from = version; from < SCHEMA_VERSION; from += 1) {
        const migration = MIGRATIONS[from];
        if (migration === undefined) throw new StoreError(`${path} has schema ${from}, which this citedocs cannot upgrade. Ingest into a new --db.`, path);
        database.exec(migration);
      }
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
}
