import type Database from 'better-sqlite3';
import type { FrontierEntry } from '../../core/types.js';
import type { CrawlRun, CrawlStateStore } from '../store.js';
import { guardStore } from './sqlite-errors.js';
import type { Synchronous } from './synchronous.js';
import { type RunRow, runSummaryOfRow } from '../rows.js';

/**
 * Crawl runs and their frontier in the SQLite file: written as the crawl goes, so kill -9
 * loses nothing. Each run also records how its last session ended (the outcome columns of
 * schema 6), so an ingest that a limit ended early shows in stats and sources.
 */
export function createCrawlState(database: Database.Database, path: string): Synchronous<CrawlStateStore> {
  const guard = <T>(action: () => T): T => guardStore(path, action);
  // Read-only opens accept schema 5, which has no outcome columns: such runs read as unknown.
  const hasOutcomes = (database.prepare("SELECT count(*) FROM pragma_table_info('crawl_runs') WHERE name = 'outcome'").pluck().get() as number) > 0;
  const writable = !database.readonly;
  const insertEntry = writable ? database.prepare('INSERT OR IGNORE INTO frontier (run_id, url, depth) VALUES (?, ?, ?)') : undefined;
  const markDone = writable ? database.prepare('UPDATE frontier SET done = 1 WHERE run_id = ? AND url = ?') : undefined;

  const openRun = database.transaction((startUrl: string, settings: string, startedAt: string): CrawlRun => {
    const unfinished = database
      .prepare('SELECT id, settings FROM crawl_runs WHERE start_url = ? AND finished_at IS NULL ORDER BY id DESC')
      .all(startUrl) as { id: number; settings: string }[];
    const resumable = unfinished.find((run) => run.settings === settings);
    // A run with other settings (scope, limits) cannot be continued: it is abandoned.
    for (const run of unfinished) if (run !== resumable) database.prepare('DELETE FROM crawl_runs WHERE id = ?').run(run.id);
    if (resumable !== undefined) {
      database.prepare("UPDATE crawl_runs SET outcome = 'running', ended_at = NULL, detail = NULL WHERE id = ?").run(resumable.id);
      const rows = database.prepare('SELECT url, depth, done FROM frontier WHERE run_id = ? ORDER BY rowid').all(resumable.id) as { url: string; depth: number; done: number }[];
      return {
        id: resumable.id,
        queued: rows.filter((row) => row.done === 0).map(({ url, depth }) => ({ url, depth })),
        seen: rows.map((row) => row.url),
      };
    }
    const id = Number(database.prepare("INSERT INTO crawl_runs (start_url, settings, started_at, outcome) VALUES (?, ?, ?, 'running')").run(startUrl, settings, startedAt).lastInsertRowid);
    return { id, queued: [], seen: [] };
  });
  const enqueue = database.transaction((runId: number, entries: readonly FrontierEntry[]) => {
    for (const entry of entries) insertEntry?.run(runId, entry.url, entry.depth);
  });
  const finishRun = database.transaction((runId: number, finishedAt: string) => {
    database.prepare('DELETE FROM frontier WHERE run_id = ?').run(runId);
    database.prepare('UPDATE crawl_runs SET finished_at = ? WHERE id = ?').run(finishedAt, runId);
  });

  return {
    openRun: (startUrl, settings, startedAt) => guard(() => openRun(startUrl, settings, startedAt)),
    enqueue: (runId, entries) => guard(() => enqueue(runId, entries)),
    markDone: (runId, url) => guard(() => void markDone?.run(runId, url)),
    finishRun: (runId, finishedAt) => guard(() => finishRun(runId, finishedAt)),
    recordOutcome: (source, { outcome, endedAt, stoppedBy, reason }) =>
      guard(() => {
        const detail = stoppedBy === undefined && reason === undefined ? null : JSON.stringify({ ...(stoppedBy === undefined ? {} : { stoppedBy }), ...(reason === undefined ? {} : { reason }) });
        database.prepare('UPDATE crawl_runs SET outcome = ?, ended_at = ?, detail = ? WHERE id = (SELECT max(id) FROM crawl_runs WHERE start_url = ?)').run(outcome, endedAt, detail, source);
      }),
    latestRuns: () =>
      guard(() => {
        const columns = hasOutcomes ? 'r.start_url, r.started_at, r.finished_at, r.outcome, r.ended_at, r.detail' : 'r.start_url, r.started_at, r.finished_at';
        const rows = database
          .prepare(`SELECT ${columns} FROM crawl_runs r WHERE r.id = (SELECT max(id) FROM crawl_runs WHERE start_url = r.start_url) ORDER BY r.id DESC`)
          .all() as RunRow[];
        return rows.map(runSummaryOfRow);
      }),
  };
}
