import type pg from 'pg';
import type { FrontierEntry } from '../../core/types.js';
import { addToFrontier } from './pg-crawl-state.js';

/** How far a shared crawl has come: entries nobody holds, entries leased and not expired, entries done. */
export interface FrontierProgress {
  open: number;
  leased: number;
  done: number;
}

/**
 * A crawl frontier shared by ingest workers in any number of processes and machines. A worker
 * leases entries (`FOR UPDATE SKIP LOCKED`: two workers never lease the same entry, and neither
 * waits for the other), fetches them, and completes each; a lease that runs out (its worker was
 * killed) makes the entry anyone's again, so nothing is lost and only those entries are fetched
 * twice. Entries found by any worker go in once (the URL is the key). The crawl is over when no
 * entry is left undone.
 */
export interface FrontierLeases {
  /** Adds entries; a URL already in the frontier (queued, leased or done) is kept as it is. */
  add(runId: number, entries: readonly FrontierEntry[]): Promise<void>;
  /** Leases up to `limit` open entries (oldest first) to `worker` for `leaseMs`. */
  lease(runId: number, worker: string, limit: number, leaseMs: number): Promise<FrontierEntry[]>;
  /** Leases this entry to `worker` when nobody else holds it and it is not done (or it holds it already); whether it may fetch it. */
  claim(runId: number, worker: string, url: string, leaseMs: number): Promise<boolean>;
  /** Extends every lease `worker` holds in the run: a worker that is alive keeps its entries. */
  renew(runId: number, worker: string, leaseMs: number): Promise<number>;
  /** Marks a leased entry done; false when the lease was lost (it expired and another worker took the entry). */
  complete(runId: number, worker: string, url: string): Promise<boolean>;
  progress(runId: number): Promise<FrontierProgress>;
  /**
   * Politeness across workers: reserves the next request slot of `host`, `delayMs` after the one
   * before it (whoever took it); how long to wait before requesting (0: now).
   */
  reserveHostSlot(host: string, delayMs: number): Promise<number>;
}

export function createFrontierLeases(pool: pg.Pool): FrontierLeases {
  return {
    async add(runId, entries) {
      if (entries.length === 0) return;
      await addToFrontier(pool, runId, entries);
    },
    async lease(runId, worker, limit, leaseMs) {
      const rows = await pool.query<FrontierEntry & { position: string }>(
        `UPDATE frontier f SET leased_by = $2, leased_until = now() + make_interval(secs => $4::double precision / 1000)
           FROM (SELECT url FROM frontier WHERE run_id = $1 AND NOT done AND (leased_until IS NULL OR leased_until < now())
                  ORDER BY position LIMIT $3 FOR UPDATE SKIP LOCKED) open
          WHERE f.run_id = $1 AND f.url = open.url
          RETURNING f.url, f.depth, f.position`,
        [runId, worker, limit, leaseMs],
      );
      return rows.rows.sort((a, b) => Number(a.position) - Number(b.position)).map(({ url, depth }) => ({ url, depth }));
    },
    async claim(runId, worker, url, leaseMs) {
      const result = await pool.query(
        `UPDATE frontier SET leased_by = $3, leased_until = now() + make_interval(secs => $4::double precision / 1000)
          WHERE run_id = $1 AND url = $2 AND NOT done AND (leased_until IS NULL OR leased_until < now() OR leased_by = $3)`,
        [runId, url, worker, leaseMs],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async renew(runId, worker, leaseMs) {
      const result = await pool.query(
        'UPDATE frontier SET leased_until = now() + make_interval(secs => $3::double precision / 1000) WHERE run_id = $1 AND leased_by = $2 AND NOT done AND leased_until >= now()',
        [runId, worker, leaseMs],
      );
      return result.rowCount ?? 0;
    },
    async complete(runId, worker, url) {
      const result = await pool.query('UPDATE frontier SET done = true, leased_until = NULL WHERE run_id = $1 AND url = $2 AND leased_by = $3 AND NOT done', [runId, url, worker]);
      return (result.rowCount ?? 0) > 0;
    },
    async progress(runId) {
      const row = (
        await pool.query<FrontierProgress>(
          `SELECT count(*) FILTER (WHERE NOT done AND (leased_until IS NULL OR leased_until < now()))::int AS open,
                  count(*) FILTER (WHERE NOT done AND leased_until >= now())::int AS leased,
                  count(*) FILTER (WHERE done)::int AS done
             FROM frontier WHERE run_id = $1`,
          [runId],
        )
      ).rows[0];
      return row ?? { open: 0, leased: 0, done: 0 };
    },
    async reserveHostSlot(host, delayMs) {
      const row = (
        await pool.query<{ wait_ms: number }>(
          `INSERT INTO crawl_hosts AS h (host, next_at) VALUES ($1, now() + make_interval(secs => $2::double precision / 1000))
           ON CONFLICT (host) DO UPDATE SET next_at = greatest(h.next_at, now()) + make_interval(secs => $2::double precision / 1000)
           RETURNING greatest(0, extract(epoch FROM (h.next_at - make_interval(secs => $2::double precision / 1000) - now())) * 1000)::float8 AS wait_ms`,
          [host, delayMs],
        )
      ).rows[0];
      return Math.ceil(row?.wait_ms ?? 0);
    },
  };
}
