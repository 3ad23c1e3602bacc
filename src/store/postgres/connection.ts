import pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { redactPasswords } from '../../core/redact.js';

/** Whether a `--db` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (value: string): boolean => /^postgres(?:ql)?:\/\//i.test(value);

export interface ConnectOptions {
  /** Attempts after the first failed one. */
  retries?: number;
  /** The first retry waits this long; each next one twice as long (capped at 5 s). */
  retryBaseDelayMs?: number;
  /** Connections at most in the pool. */
  maxConnections?: number;
  /** Told about each failed attempt before the next (a warning to log). */
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
  /** Waits between attempts (injected by tests). */
  sleep?: (ms: number) => Promise<void>;
}

export const CONNECT_DEFAULTS = { retries: 5, retryBaseDelayMs: 200, maxConnections: 10 } as const;

/** Error codes worth retrying: the server is not (yet) reachable or not accepting connections. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '53300', '08006', '08001', '08003', '08004']);

export function isTransientConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout expired|connect ETIMEDOUT/i.test(message);
}

/**
 * A connection pool to the database, checked by one round trip: connection failures that may
 * pass (server starting, not reachable yet, too many clients) are retried with exponential
 * backoff; the last one, or any other (bad password, no such database), fails with an error
 * naming the URL (without its password) and what to check.
 */
export async function connectPool(url: string, options: ConnectOptions = {}): Promise<pg.Pool> {
  const retries = options.retries ?? CONNECT_DEFAULTS.retries;
  const baseDelayMs = options.retryBaseDelayMs ?? CONNECT_DEFAULTS.retryBaseDelayMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? CONNECT_DEFAULTS.maxConnections, connectionTimeoutMillis: 10_000 });
  // An idle client whose server went away must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const client = await pool.connect();
      try {
        await client.query('SELECT 1');
      } finally {
        client.release();
      }
      return pool;
    } catch (error) {
      if (!isTransientConnectionError(error) || attempt >= retries) {
        await pool.end().catch(() => undefined);
        throw connectionError(url, error, attempt + 1);
      }
      const delayMs = Math.min(baseDelayMs * 2 ** attempt, 5_000);
      options.onRetry?.(attempt + 1, delayMs, error);
      await sleep(delayMs);
    }
  }
}

export function connectionError(url: string, error: unknown, attempts: number): StoreError {
  const shown = redactPasswords(url);
  const reason = error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const hint =
    code === '3D000'
      ? 'Create the database first (createdb), or pass another URL with --db or CITEDOCS_DB.'
      : code === '28P01' || code === '28000'
        ? 'Check the user and password in the URL, and pg_hba.conf on the server.'
        : 'Check that the server runs and accepts TCP connections from this machine, and the URL given with --db or CITEDOCS_DB.';
  return new StoreError(`Could not connect to PostgreSQL at ${shown} (${attempts === 1 ? '1 attempt' : `${attempts} attempts`}): ${reason}. ${hint}`, shown, { cause: error });
}
