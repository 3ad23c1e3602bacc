import type pg from 'pg';
import type { CrawlStateStore } from '../store.js';
import { inTransaction, retryOnDeadlock } from './pg-rows.js';
import { type RunRow, runSummaryOfRow } from '../rows.js';

/** Crawl runs and their frontiers in PostgreSQL: the SQLite file's crawl state (src/store/sqlite/crawl-state.ts), same rules. */
export function createPgCrawlState(pool: pg.Pool): CrawlStateStore {
  return {
    openRun: (startUrl, settings, startedAt) =>
      inTransaction(pool, async (client) => {
        // Workers starting one crawl at once take turns, so they all join the same run.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('crawl:' || $1))", [startUrl]);
        const unfinished = (
          await client.query<{ id: number; settings: string }>('SELECT id, settings FROM crawl_runs WHERE start_url = $1 AND finished_at IS NULL ORDER BY id DESC FOR UPDATE', [startUrl])
        ).rows;
        const resumable = unfinished.find((run) => run.settings === settings);
        // A run with other settings (scope, limits) cannot be continued: it is abandoned.
        const abandoned = unfinished.filter((run) => run !== resumable).map((run) => run.id);
        if (abandoned.length > 0) await client.query('DELETE FROM crawl_runs WHERE id = ANY($1::int[])', [abandoned]);
        if (resumable !== undefined) {
          await client.query("UPDATE crawl_runs SET outcome = 'running', ended_at = NULL, detail = NULL WHERE id = $1", [resumable.id]);
          const rows = (await client.query<{ url: string; depth: number; done: boolean }>('SELECT url, depth, done FROM frontier WHERE run_id = $1 ORDER BY position', [resumable.id])).rows;
          return { id: resumable.id, queued: rows.filter((row) => !row.done).map(({ url, depth }) => ({ url, depth })), seen: rows.map((row) => row.url) };
        }
        const created = await client.query<{ id: number }>("INSERT INTO crawl_runs (start_url, settings, started_at, outcome) VALUES ($1, $2, $3, 'running') RETURNING id", [
          startUrl, settings, startedAt,
        ]);
        return { id: (created.rows[0] as { id: number }).id, queued: [], seen: [] };
      }),
    async enqueue(runId, entries) {
      if (entries.length === 0) return;
      // unnest keeps the given order, so positions follow the order entries were found in.
      await addToFrontier(pool, runId, entries);
    },
    async markDone(runId, url) {
      await pool.query('UPDATE frontier SET done = true WHERE run_id = $1 AND url = $2', [runId, url]);
    },
    finishRun: (runId, finishedAt) =>
      inTransaction(pool, async (client) => {
        await client.query('DELETE FROM frontier WHERE run_id = $1', [runId]);
        await client.query('UPDATE crawl_runs SET finished_at = $1 WHERE id = $2', [finishedAt, runId]);
      }),
    async recordOutcome(source, { outcome, endedAt, stoppedBy, reason }) {
      const detail = stoppedBy === undefined && reason === undefined ? null : JSON.stringify({ ...(stoppedBy === undefined ? {} : { stoppedBy }), ...(reason === undefined ? {} : { reason }) });
      await pool.query('UPDATE crawl_runs SET outcome = $1, ended_at = $2, detail = $3 WHERE id = (SELECT max(id) FROM crawl_runs WHERE start_url = $4)', [outcome, endedAt, detail, source]);
    },
    async latestRuns() {
      const rows = (
        await pool.query<RunRow>(
          'SELECT r.start_url, r.started_at, r.finished_at, r.outcome, r.ended_at, r.detail FROM crawl_runs r WHERE r.id = (SELECT max(id) FROM crawl_runs WHERE start_url = r.start_url) ORDER BY r.id DESC',
        )
      ).rows;
      return rows.map(runSummaryOfRow);
    },
  };
}

/** Adds entries to a run's frontier in the order given (a URL already there is kept as it is). */
export function addToFrontier(pool: pg.Pool, runId: number, entries: readonly { url: string; depth: number }[]): Promise<unknown> {
  return retryOnDeadlock(() =>
    pool.query('INSERT INTO frontier (run_id, url, depth) SELECT $1, url, depth FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS e(url, depth, n) ORDER BY n ON CONFLICT DO NOTHING', [
      runId, entries.map((entry) => entry.url), entries.map((entry) => entry.depth),
    ]),
  );
}
