import type Database from 'better-sqlite3';
import type { CatalogStore, SourceInput, SourceLabel, StoredSource } from '../store.js';
import { jobOfRow, type JobRow, sourceOfRow, type SourceRow } from '../rows.js';
import type { Synchronous } from './synchronous.js';

type Prepare = (sql: string) => Database.Statement;

/** Sources (a library at a version, the pages it owns) and ingest jobs, in the index file. */
export function createCatalogStore(prepare: Prepare, writable: () => void): Synchronous<CatalogStore> {
  const listSources = (): StoredSource[] =>
    (
      prepare(
        `SELECT s.id, s.library, s.version, s.root_url, s.kind, s.settings, s.created_at, s.last_crawl,
                (SELECT count(*) FROM pages p WHERE p.source_id = s.id) AS pages,
                (SELECT count(*) FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id = s.id) AS passages,
                (SELECT max(fetched_at) FROM pages p WHERE p.source_id = s.id) AS newest_fetch,
                (SELECT min(fetched_at) FROM pages p WHERE p.source_id = s.id) AS oldest_fetch,
                (SELECT p.title FROM pages p WHERE p.source_id = s.id ORDER BY length(p.url), p.url LIMIT 1) AS description
           FROM sources s ORDER BY s.library, s.version`,
      ).all() as SourceRow[]
    ).map(sourceOfRow);
  return {
    upsertSource(input: SourceInput): StoredSource {
      writable();
      prepare(
        `INSERT INTO sources (library, version, root_url, kind, settings, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (library, version) DO UPDATE SET root_url = excluded.root_url, kind = excluded.kind, settings = excluded.settings`,
      ).run(input.library, input.version, input.rootUrl, input.kind, JSON.stringify(input.settings ?? {}), input.createdAt);
      const found = listSources().find((source) => source.library === input.library && source.version === input.version);
      if (found === undefined) throw new Error(`the source ${input.library}@${input.version} was not stored`);
      return found;
    },
    renameSource(id, library) {
      writable();
      prepare('UPDATE sources SET library = ? WHERE id = ?').run(library, id);
    },
    recordCrawl(id, endedAt) {
      writable();
      prepare('UPDATE sources SET last_crawl = ? WHERE id = ?').run(endedAt, id);
    },
    listSources,
    sourceNames: () => prepare('SELECT id, library, version FROM sources ORDER BY library, version').all() as { id: number; library: string; version: string }[],
    sourceLabels(urls) {
      const labels = new Map<string, SourceLabel>();
      if (urls.length === 0) return labels;
      const rows = prepare(
        `SELECT p.url, s.library, s.version FROM pages p JOIN sources s ON s.id = p.source_id WHERE p.url IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify([...new Set(urls)])) as { url: string; library: string; version: string }[];
      for (const row of rows) labels.set(row.url, { library: row.library, version: row.version });
      return labels;
    },
    pageUrlsOfSource: (id) => prepare('SELECT url FROM pages WHERE source_id = ? ORDER BY url').pluck().all(id) as string[],
    deleteSource(id) {
      writable();
      prepare('DELETE FROM sources WHERE id = ? AND NOT EXISTS (SELECT 1 FROM pages WHERE source_id = ?)').run(id, id);
    },
    startJob(job) {
      writable();
      return Number(prepare("INSERT INTO jobs (library, version, url, state, started_at) VALUES (?, ?, ?, 'running', ?)").run(job.library, job.version, job.url, job.startedAt).lastInsertRowid);
    },
    updateJob(id, update) {
      writable();
      prepare(
        'UPDATE jobs SET library = coalesce(?, library), version = coalesce(?, version), state = coalesce(?, state), progress = coalesce(?, progress), ended_at = coalesce(?, ended_at), error = coalesce(?, error) WHERE id = ?',
      ).run(
        update.library ?? null,
        update.version ?? null,
        update.state ?? null,
        update.progress === undefined ? null : JSON.stringify(update.progress),
        update.endedAt ?? null,
        update.error ?? null,
        id,
      );
    },
    listJobs: () => (prepare('SELECT * FROM jobs ORDER BY id DESC').all() as JobRow[]).map(jobOfRow),
  };
}
