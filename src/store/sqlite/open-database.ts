import { accessSync, constants, existsSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describeCause, StoreError } from '../../core/errors.js';
import { APPLICATION_ID, MIGRATIONS, OLDEST_READABLE_SCHEMA, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';
import { guardStore } from './sqlite-errors.js';

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

  // A new index may go in a folder that does not exist yet (--db .citedocs/site.db).
  if (mode === 'write' && !exists) createFolders(dirname(resolve(path)), path);
  let database: Database.Database;
  try {
    database = new Database(path, mode === 'read' ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    throw new StoreError(`Could not open ${path}: ${error instanceof Error ? error.message : String(error)}. Check the path and its permissions.`, path, { cause: error });
  }
  try {
    guardStore(path, () => {
      checkIdentity(database, path, mode);
      if (mode === 'write') {
        database.pragma('journal_mode = WAL');
        database.pragma('synchronous = NORMAL');
      }
      database.pragma('foreign_keys = ON');
    });
  } catch (error) {
    database.close();
    throw error;
  }
  return database;
}

/**
 * Fails at once, with a clear error, when an index cannot be created at `path` (a folder
 * that cannot be made or written, a file where a folder should be), so an ingest finds out
 * before it crawls rather than at its first write. Leaves nothing behind.
 */
export function assertIndexLocation(path: string): void {
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw new StoreError(`${path} is a folder, not an index file. Pass --db with a file path.`, path);
    return;
  }
  const { existing, missing } = nearestExisting(dirname(resolve(path)));
  if (!statSync(existing).isDirectory()) {
    throw new StoreError(`Cannot create the index ${path}: ${existing} is a file, not a folder. Pass --db with a path in a folder you can write to.`, path);
  }
  const first = missing[0];
  try {
    if (first === undefined) accessSync(existing, constants.W_OK);
    else {
      mkdirSync(first);
      rmdirSync(first);
    }
  } catch (error) {
    throw new StoreError(`Cannot create the index ${path}: ${first ?? existing} is not writable (${describeCause(error)}). Pass --db with a path in a folder you can write to.`, path, { cause: error });
  }
}

/** Creates the folder of a new index (what opening it for writing does), failing as clearly. */
export function createIndexFolder(path: string): void {
  createFolders(dirname(resolve(path)), path);
}

function nearestExisting(folder: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let current = folder;
  while (!existsSync(current) && dirname(current) !== current) {
    missing.unshift(current);
    current = dirname(current);
  }
  return { existing: current, missing };
}

/**
 * Creates the folder an index goes in, one level at a time from the nearest existing one.
 * Not `mkdirSync(…, { recursive: true })`: on a path under /proc it loops forever at 100% CPU
 * (the kernel answers ENOENT for a folder whose parent exists, and Node retries the parent).
 */
function createFolders(folder: string, path: string): void {
  const { existing, missing } = nearestExisting(folder);
  if (!statSync(existing).isDirectory()) {
    throw new StoreError(`Cannot create the index ${path}: ${existing} is a file, not a folder. Pass --db with a path in a folder you can write to.`, path);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      throw new StoreError(`Cannot create the folder ${level} for the index ${path} (${describeCause(error)}). Pass --db with a path in a folder you can write to.`, path, { cause: error });
    }
  }
}

/**
 * Refuses, before anything is created beside it (a writer's lock file), a file at `path` that
 * opening it for writing would refuse as not a citedocs index. No file, or an empty one, passes.
 */
export function assertNotForeign(path: string): void {
  if (!existsSync(path) || statSync(path).isDirectory()) return;
  let database: Database.Database;
  try {
    database = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StoreError(`Could not open ${path}: ${error instanceof Error ? error.message : String(error)}. Check the path and its permissions.`, path, { cause: error });
  }
  try {
    guardStore(path, () => {
      const { applicationId, tableCount } = identityOf(database, path);
      if (!(applicationId === 0 && tableCount === 0) && applicationId !== APPLICATION_ID) throw foreignFile(path);
    });
  } finally {
    database.close();
  }
}

function identityOf(database: Database.Database, path: string): { applicationId: number; tableCount: number } {
  try {
    return {
      applicationId: database.pragma('application_id', { simple: true }) as number,
      tableCount: (database.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number }).n,
    };
  } catch (error) {
    throw new StoreError(
      `${path} is not a citedocs index (it is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}). Pass --db with another path, or move the file away and ingest again.`,
      path,
      { cause: error },
    );
  }
}

function foreignFile(path: string): StoreError {
  return new StoreError(`${path} is a SQLite database that citedocs did not create; it was left untouched. Pass --db with another path.`, path);
}

function checkIdentity(database: Database.Database, path: string, mode: OpenMode): void {
  const { applicationId, tableCount } = identityOf(database, path);
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
  if (applicationId !== APPLICATION_ID) throw foreignFile(path);
  const version = database.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`${path} was written by a newer citedocs (schema ${version}, this one reads ${SCHEMA_VERSION}). Upgrade citedocs or ingest into another --db.`, path);
  }
  if (version < SCHEMA_VERSION) {
    // Newer schemas add what readers can do without: an older index stays searchable until the next ingest upgrades it.
    if (mode === 'read' && version >= OLDEST_READABLE_SCHEMA) return;
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
