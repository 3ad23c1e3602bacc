import type Database from 'better-sqlite3';
import type { FrontierEntry } from '../../core/types.js';
import type { CrawlRun, CrawlStateStore } from '../store.js';

/** Crawl runs and their frontier in the SQLite file: written as the crawl goes, so kill -9 loses nothing. */
export function createCrawlState(database: Database.Database): CrawlStateStore {
  const insertEntry = database.prepare('INSERT OR IGNORE INTO frontier (run_id, url, depth) VALUES (?, ?, ?)');
  const markDone = database.prepare('UPDATE frontier SET done = 1 WHERE run_id = ? AND url = ?');

  return {
    openRun: database.transaction((startUrl: string, settings: string, startedAt: string): CrawlRun => {
      const unfinished = database
        .prepare('SELECT id, settings FROM crawl_runs WHERE start_url = ? AND finished_at IS NULL ORDER BY id DESC')
        .all(startUrl) as { id: number; settings: string }[];
      const resumable = unfinished.find((run) => run.settings === settings);
      // A run with other settings (scope, limits) cannot be continued: it is abandoned.
      for (const run of unfinished) if (run !== resumable) database.prepare('DELETE FROM crawl_runs WHERE id = ?').run(run.id);
      if (resumable !== undefined) {
        const rows = database.prepare('SELECT url, depth, done FROM frontier WHERE run_id = ? ORDER BY rowid').all(resumable.id) as { url: string; depth: number; done: number }[];
        return {
          id: resumable.id,
          queued: rows.filter((row) => row.done === 0).map(({ url, depth }) => ({ url, depth })),
          seen: rows.map((row) => row.url),
        };
      }
      const id = Number(database.prepare('INSERT INTO crawl_runs (start_url, settings, started_at) VALUES (?, ?, ?)').run(startUrl, settings, startedAt).lastInsertRowid);
      return { id, queued: [], seen: [] };
    }),
    enqueue: database.transaction((runId: number, entries: readonly FrontierEntry[]) => {
      for (const entry of entries) insertEntry.run(runId, entry.url, entry.depth);
    }),
    markDone: (runId, url) => {
      markDone.run(runId, url);
    },
    finishRun: database.transaction((runId: number, finishedAt: string) => {
      database.prepare('DELETE FROM frontier WHERE run_id = ?').run(runId);
      database.prepare('UPDATE crawl_runs SET finished_at = ? WHERE id = ?').run(finishedAt, runId);
    }),
  };
}
