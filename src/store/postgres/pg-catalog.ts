import type pg from 'pg';
import type { CatalogStore, StoredSource } from '../store.js';
import { jobOfRow, type JobRow, sourceOfRow, type SourceRow } from '../rows.js';
import { CATALOG_VERSION_KEY } from './pg-version-watch.js';

/** Prefixed to each write of sources: the catalog's version moves in the same statement, so replicas read the sources again. */
const BUMP_CATALOG = `WITH bumped AS (INSERT INTO meta (key, value) VALUES ('${CATALOG_VERSION_KEY}', '1') ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text RETURNING 1)`;

const SOURCES_SQL = `SELECT s.id, s.library, s.version, s.root_url, s.kind, s.settings, s.created_at, s.last_crawl,
        (SELECT count(*)::int FROM pages p WHERE p.source_id = s.id) AS pages,
        (SELECT count(*)::int FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id = s.id) AS passages,
        (SELECT max(fetched_at) FROM pages p WHERE p.source_id = s.id) AS newest_fetch,
        (SELECT min(fetched_at) FROM pages p WHERE p.source_id = s.id) AS oldest_fetch,
        (SELECT p.title FROM pages p WHERE p.source_id = s.id ORDER BY length(p.url), p.url LIMIT 1) AS description
   FROM sources s`;

/** Sources and ingest jobs in PostgreSQL: the SQLite catalog (src/store/sqlite/catalog-store.ts), same answers. */
export function createPgCatalog(pool: pg.Pool, writable: () => void): CatalogStore {
  const listSources = async (): Promise<StoredSource[]> => (await pool.query<SourceRow>(`${SOURCES_SQL} ORDER BY s.library, s.version`)).rows.map(sourceOfRow);
  return {
    async upsertSource(input) {
      writable();
      const stored = await pool.query<{ id: number }>(
        `${BUMP_CATALOG} INSERT INTO sources (library, version, root_url, kind, settings, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (library, version) DO UPDATE SET root_url = excluded.root_url, kind = excluded.kind, settings = excluded.settings RETURNING id`,
        [input.library, input.version, input.rootUrl, input.kind, JSON.stringify(input.settings ?? {}), input.createdAt],
      );
      const found = (await pool.query<SourceRow>(`${SOURCES_SQL} WHERE s.id = $1`, [stored.rows[0]?.id])).rows[0];
      if (found === undefined) throw new Error(`the source ${input.library}@${input.version} was not stored`);
      return sourceOfRow(found);
    },
    async renameSource(id, library) {
      writable();
      await pool.query(`${BUMP_CATALOG} UPDATE sources SET library = $1 WHERE id = $2`, [library, id]);
    },
    async recordCrawl(id, endedAt) {
      writable();
      await pool.query(`${BUMP_CATALOG} UPDATE sources SET last_crawl = $1 WHERE id = $2`, [endedAt, id]);
    },
    listSources,
    sourceNames: async () => (await pool.query<{ id: number; library: string; version: string }>('SELECT id, library, version FROM sources ORDER BY library, version')).rows,
    async sourceLabels(urls) {
      const labels = new Map<string, { library: string; version: string }>();
      if (urls.length === 0) return labels;
      const rows = await pool.query<{ url: string; library: string; version: string }>(
        'SELECT p.url, s.library, s.version FROM pages p JOIN sources s ON s.id = p.source_id WHERE p.url = ANY($1::text[])',
        [[...new Set(urls)]],
      );
      for (const row of rows.rows) labels.set(row.url, { library: row.library, version: row.version });
      return labels;
    },
    pageUrlsOfSource: async (id) => (await pool.query<{ url: string }>('SELECT url FROM pages WHERE source_id = $1 ORDER BY url', [id])).rows.map((row) => row.url),
    async deleteSource(id) {
      writable();
      await pool.query(`${BUMP_CATALOG} DELETE FROM sources WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM pages WHERE source_id = $1)`, [id]);
    },
    async startJob(job) {
      writable();
      const row = await pool.query<{ id: number }>("INSERT INTO jobs (library, version, url, state, started_at) VALUES ($1, $2, $3, 'running', $4) RETURNING id", [
        job.library, job.version, job.url, job.startedAt,
      ]);
      return (row.rows[0] as { id: number }).id;
    },
    async updateJob(id, update) {
      writable();
      await pool.query(
        'UPDATE jobs SET library = coalesce($1, library), version = coalesce($2, version), state = coalesce($3, state), progress = coalesce($4, progress), ended_at = coalesce($5, ended_at), error = coalesce($6, error) WHERE id = $7',
        [update.library ?? null, update.version ?? null, update.state ?? null, update.progress === undefined ? null : JSON.stringify(update.progress), update.endedAt ?? null, update.error ?? null, id],
      );
    },
    listJobs: async () => (await pool.query<JobRow>('SELECT * FROM jobs ORDER BY id DESC')).rows.map(jobOfRow),
  };
}
