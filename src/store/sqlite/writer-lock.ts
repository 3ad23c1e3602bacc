import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describeCause, StoreError } from '../../core/errors.js';
import { assertIndexLocation, assertNotForeign, createIndexFolder } from './open-database.js';

/** Held while one process writes an index (ingest, refresh, embed, remove); `release` lets the next one in. */
export interface WriterLock {
  /** The file whose lock is held, beside the index. */
  readonly path: string;
  release(): void;
}

export interface WriterLockOptions {
  /** Give up after waiting this long for another writer; 0: fail at once when the index is being written. */
  timeoutMs: number;
  /** Told once, when another writer holds the index and the wait begins. */
  onWait?: (lockPath: string) => void;
  /** Stops the wait (Ctrl-C): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How often the lock is tried again while another writer holds it. */
  pollMs?: number;
}

/** The lock file of an index: beside it, never deleted (a waiter may hold it open). */
export function writerLockPath(dbPath: string): string {
  return `${dbPath}-writer.lock`;
}

/**
 * One writer at a time per index, across processes and within one: the lock is SQLite's own
 * exclusive lock on a small file beside the index (a POSIX lock the kernel drops when its process
 * dies, so a writer killed with -9 never leaves a stale lock behind). The index itself stays open
 * to readers: searches never wait on it.
 */
export async function acquireWriterLock(dbPath: string, options: WriterLockOptions): Promise<WriterLock> {
  // Nothing is created beside a file that is not an index, nor where no index can be made.
  assertIndexLocation(dbPath);
  assertNotForeign(dbPath);
  if (!existsSync(dirname(resolve(dbPath)))) createIndexFolder(dbPath);
  const path = writerLockPath(dbPath);
  let database: Database.Database;
  try {
    database = new Database(path, { timeout: 0 });
  } catch (error) {
    throw new StoreError(`Could not open the lock file ${path} of the index ${dbPath} (${describeCause(error)}). Check the folder's permissions.`, dbPath, { cause: error });
  }
  const started = Date.now();
  let told = false;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      try {
        database.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      }
      const waited = Date.now() - started;
      if (waited >= options.timeoutMs) {
        throw new StoreError(
          options.timeoutMs === 0
            ? `Another process is writing the index ${dbPath} (an ingest, refresh, embed or remove holds ${path}). Run again when it has finished, or give --lock-timeout <seconds> to wait for it.`
            : `Another process has been writing the index ${dbPath} for over ${Math.round(options.timeoutMs / 1000)} s (it holds ${path}). Let it finish or stop it, then run again; --lock-timeout <seconds> waits longer.`,
          dbPath,
        );
      }
      if (!told) {
        told = true;
        options.onWait?.(path);
      }
      await delay(Math.min(options.pollMs ?? 250, options.timeoutMs - waited), undefined, options.signal === undefined ? {} : { signal: options.signal });
    }
  } catch (error) {
    database.close();
    throw error;
  }
  return {
    path,
    release: () => {
      if (!database.open) return;
      try {
        database.exec('ROLLBACK');
      } finally {
        database.close();
      }
    },
  };
}
