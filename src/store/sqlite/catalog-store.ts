import type Database from 'better-sqlite3';
import type { CatalogStore, IngestJob, SourceInput, SourceLabel, StoredSource } from '../store.js';
import type { Synchronous } from './synchronous.js';

type Prepare = (sql: string) => Database.Statement;

interface SourceRow {
  id: number;
  library: string;
  version: string;
  root_url: string;
  kind: StoredSource['kind'];
  settings: string;
  created_at: string;
  last_crawl: string | null;
  pages: number;
  passages: number;
  newest_fetch: string | null;
  oldest_fetch: string | null;
  description: string | null;
}

interface JobRow {
  id: number;
  library: string;
  version: string;
  url: string;
  state: IngestJob['state'];
  progress: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
}

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

function sourceOfRow(row: SourceRow): StoredSource {
  return {
    id: row.id,
    library: row.library,
    version: row.version,
    rootUrl: row.root_url,
    kind: row.kind,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    createdAt: row.created_at,
    pages: row.pages,
    passages: row.passages,
    ...(row.last_crawl === null ? {} : { lastCrawl: row.last_crawl }),
    ...(row.newest_fetch === null ? {} : { newestFetch: row.newest_fetch }),
    ...(row.oldest_fetch === null ? {} : { oldestFetch: row.oldest_fetch }),
    ...(row.description === null || row.description === '' ? {} : { description: row.description }),
  };
}

function jobOfRow(row: JobRow): IngestJob {
  return {
    id: row.id,
    library: row.library,
    version: row.version,
    url: row.url,
    state: row.state,
    progress: JSON.parse(row.progress) as IngestJob['progress'],
    startedAt: row.started_at,
    ...(row.ended_at === null ? {} : { endedAt: row.ended_at }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}
