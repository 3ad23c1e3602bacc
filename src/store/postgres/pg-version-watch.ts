import type pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { logger } from '../../core/log.js';
import { redactPasswords } from '../../core/redact.js';
import { isTransientConnectionError } from './connection.js';
import { VECTORS_VERSION_KEY } from './pg-vectors.js';

/**
 * What the reads of a search depend on: the lexical index's generation (moved by every flush,
 * merge and removal), the vectors' version (every change of vectors or model) and the catalog's
 * (sources added, renamed, removed, crawled). Equal versions: equal answers.
 */
export interface DataVersion {
  generation: number;
  /** The three parts in one string: what cached reads are labelled with. */
  key: string;
}

/** How this process sees the database: what `/healthz` reports. */
export interface DatabaseHealth {
  /** `connecting`: this process has not reached the database yet (it connects at its first read). */
  database: 'reachable' | 'unreachable' | 'connecting';
  /** Unreachable since (ISO time): the first failed attempt of this outage. */
  since?: string;
  /** The last failure, without passwords. */
  databaseError?: string;
  /** Attempts failed in this outage; the next is made after a delay doubling up to 5 s. */
  failedAttempts?: number;
}

export interface VersionWatchOptions {
  /** A version read this recently is trusted without a round trip: how stale another process's change may be seen. */
  freshMs?: number;
  /** The first retry after a connection failure waits this long; each next one twice as long, up to maxRetryDelayMs. */
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  now?: () => number;
}

export const VERSION_WATCH_DEFAULTS = { freshMs: 250, retryBaseDelayMs: 200, maxRetryDelayMs: 5_000 } as const;

/** The key in `meta` that counts changes of the catalog (bumped by every write of sources). */
export const CATALOG_VERSION_KEY = 'catalog_version';

/** The version as of now, and whether it was read from the database (live) or is the last one known while it is unreachable. */
export interface VersionReading {
  version: DataVersion;
  live: boolean;
}

export interface VersionWatch {
  /** The current version: read at most once per freshMs; while the database is unreachable, the last one known (not live) without a round trip until the next retry is due. */
  current(): Promise<VersionReading>;
  /** This process wrote: the next read checks the version again. */
  invalidate(): void;
  /** A read failed: a connection failure starts (or continues) an outage, so that reads use what they have. Returns whether it was one. */
  failed(error: unknown): boolean;
  /** Whether reads should not try the database now (an outage, its next retry not due). */
  offline(): boolean;
  health(): DatabaseHealth;
}

/**
 * Watches the data version of one database for one process (a serve replica): the one cheap
 * round trip that tells whether what this process read before still holds, and the place that
 * notices the database going away and coming back. Connection failures start an outage: it is
 * logged once (warn) with the error, retried with backoff on the next reads, and its end is
 * logged (info) with how long it lasted.
 */
export function createVersionWatch(pool: Pick<pg.Pool, 'query'>, name: string, options: VersionWatchOptions = {}): VersionWatch {
  const freshMs = options.freshMs ?? VERSION_WATCH_DEFAULTS.freshMs;
  const baseDelayMs = options.retryBaseDelayMs ?? VERSION_WATCH_DEFAULTS.retryBaseDelayMs;
  const maxDelayMs = options.maxRetryDelayMs ?? VERSION_WATCH_DEFAULTS.maxRetryDelayMs;
  const now = options.now ?? Date.now;
  let known: DataVersion | undefined;
  let checkedAt = -Infinity;
  let checking: Promise<VersionReading> | undefined;
  let outage: { since: number; attempts: number; retryAt: number; error: string } | undefined;

  const failed = (error: unknown): boolean => {
    if (!isTransientConnectionError(error)) return false;
    const message = redactPasswords(error instanceof Error ? error.message || String((error as { code?: unknown }).code ?? error.name) : String(error));
    const attempts = (outage?.attempts ?? 0) + 1;
    const delayMs = Math.min(baseDelayMs * 2 ** (attempts - 1), maxDelayMs);
    if (outage === undefined) {
      logger('index').warn({ db: name, error: message, retryMs: delayMs, indexVersion: known?.generation ?? 0 }, 'database unreachable: serving what this process has read, retrying with backoff');
    } else {
      logger('index').debug({ db: name, error: message, attempts, retryMs: delayMs }, 'database still unreachable');
    }
    outage = { since: outage?.since ?? now(), attempts, retryAt: now() + delayMs, error: message };
    return true;
  };

  const check = async (): Promise<VersionReading> => {
    try {
      const row = (
        await pool.query<{ generation: string; vectors: string | null; catalog: string | null }>(
          `SELECT (SELECT generation FROM lexical_stats WHERE id = 1) AS generation,
                  (SELECT value FROM meta WHERE key = '${VECTORS_VERSION_KEY}') AS vectors, (SELECT value FROM meta WHERE key = '${CATALOG_VERSION_KEY}') AS catalog`,
        )
      ).rows[0];
      const generation = Number(row?.generation ?? 0);
      known = { generation, key: `${generation}:${row?.vectors ?? 0}:${row?.catalog ?? 0}` };
      checkedAt = now();
      if (outage !== undefined) {
        logger('index').info({ db: name, unreachableMs: now() - outage.since, attempts: outage.attempts, indexVersion: generation }, 'database reachable again');
        outage = undefined;
      }
      return { version: known, live: true };
    } catch (error) {
      if (!failed(error) || known === undefined) throw error;
      return { version: known, live: false };
    }
  };

  return {
    current() {
      if (known !== undefined) {
        if (outage !== undefined && now() < outage.retryAt) return Promise.resolve({ version: known, live: false });
        if (outage === undefined && now() - checkedAt < freshMs) return Promise.resolve({ version: known, live: true });
      }
      // Concurrent reads share one round trip.
      checking ??= check().finally(() => (checking = undefined));
      return checking;
    },
    invalidate() {
      checkedAt = -Infinity;
    },
    failed,
    offline: () => outage !== undefined && now() < outage.retryAt,
    health: () =>
      outage === undefined ? { database: 'reachable' } : { database: 'unreachable', since: new Date(outage.since).toISOString(), databaseError: outage.error, failedAttempts: outage.attempts },
  };
}

/** The error of a read that needs the database while it is unreachable and this process has no answer of its own. */
export function unreachableError(name: string, what: string, cause?: unknown): StoreError {
  return new StoreError(`${name} is unreachable, and ${what} is not among what this process has read. It is retried with backoff; see /healthz.`, name, cause === undefined ? {} : { cause });
}
