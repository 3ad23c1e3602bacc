import { existsSync } from 'node:fs';
import { isPostgresUrl } from '../../store/open-store.js';
import { acquireWriterLock, type WriterLock } from '../../store/sqlite/writer-lock.js';

/** How long a writer waits, by default, for another writing the same index (--lock-timeout). */
export const LOCK_TIMEOUT_SECONDS = 600;
export const LOCK_TIMEOUT_HELP = 'when another ingest, refresh, embed or remove is writing the same index, wait this long for it (0: fail at once)';

/**
 * One writer at a time per index: a second ingest (refresh, embed, remove) of the same index
 * says on stderr that it waits, and waits for the first, up to `timeoutSeconds`; then fails
 * naming the index and what to do. Ctrl-C (`signal`) stops the wait.
 */
export function indexLocker(warn: (code: string, message: string) => void, signal: AbortSignal | undefined) {
  return async (dbPath: string, timeoutSeconds = LOCK_TIMEOUT_SECONDS, creates = false): Promise<WriterLock> => {
    // A PostgreSQL database takes any number of writers (ingest workers share a crawl): no lock file.
    if (isPostgresUrl(dbPath)) return { path: dbPath, release: () => undefined };
    // Only ingest creates an index: the others fail on a missing one, and leave no lock file beside it.
    if (!creates && !existsSync(dbPath)) return { path: dbPath, release: () => undefined };
    return acquireWriterLock(dbPath, {
      timeoutMs: timeoutSeconds * 1000,
      onWait: (lockPath) => warn('index-busy', `another ingest, refresh, embed or remove is writing ${dbPath} (it holds ${lockPath}): waiting for it to finish, up to ${timeoutSeconds} s (--lock-timeout); Ctrl-C stops waiting.`),
      ...(signal === undefined ? {} : { signal }),
    });
  };
}
