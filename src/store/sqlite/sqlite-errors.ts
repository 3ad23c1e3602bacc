import { StoreError, StoreFullError } from '../../core/errors.js';

/**
 * A SQLite failure as an error the user can act on (disk full, I/O error, corrupt file),
 * naming the index; any other error is returned as it is (a bug keeps its stack).
 */
export function storeFailure(error: unknown, path: string): unknown {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (code === 'SQLITE_FULL') {
    return new StoreFullError(
      `The disk holding the index ${path} is full (SQLITE_FULL). The page being written was rolled back and everything stored before it is kept; free some disk space and run the same command again to continue.`,
      path,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new StoreError(`Could not write the index ${path}: disk I/O error (${code}). Check that its disk has free space and is writable, then run the same command again; what was stored before is kept.`, path, {
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new StoreError(`The index at ${path} is corrupt (${code}). Move it away and run citedocs ingest again.`, path, { cause: error });
  }
  return error;
}

/** Runs a store operation, turning SQLite failures into the errors of `storeFailure`. */
export function guardStore<T>(path: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw storeFailure(error, path);
  }
}
