import { SEGMENTED_LEXICAL_MIGRATION, SEGMENTED_LEXICAL_TABLES } from './lexical-tables.js';

/** 'CDOC': marks a SQLite file as a citedocs index (PRAGMA application_id). */
export const APPLICATION_ID = 0x43444f43;
export const SCHEMA_VERSION = 8;
/** Read-only opens accept this and newer schemas: 7 added the sources every search is scoped by (a reader of schema 7 builds its segmented lexical index in memory until a writer upgrades the file). */
export const OLDEST_READABLE_SCHEMA = 7;

/** How the last ingest session of a run ended: running (or killed), complete, limited, stopped, interrupted; detail is JSON (stoppedBy, reason). */
const RUN_OUTCOME_COLUMNS = ['outcome TEXT', 'ended_at TEXT', 'detail TEXT'];

/** The one-segment lexical index of schemas 4 to 6 (what migration 4 created). */
const LEXICAL_TABLES = `
-- The lexical index (BM25F over title, headings, identifiers, code, body): rebuilt from the
-- chunks after they change (meta chunks_version), one row of postings per term.
CREATE TABLE IF NOT EXISTS lexical_terms (term TEXT PRIMARY KEY, postings BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS lexical_docs (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  built_version INTEGER NOT NULL,
  count INTEGER NOT NULL,
  row_ids BLOB NOT NULL,
  lengths BLOB NOT NULL,
  -- u16 per document: links to its entry, then (lexical_format 2 in meta) other pages linking into its page
  inlinks BLOB NOT NULL
);
`;

/**
 * The catalog (schema 7): a source is one library at one version, pages belong to one source,
 * and background ingest jobs are recorded so any process can list them.
 */
const CATALOG_TABLES = `
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  library TEXT NOT NULL,
  version TEXT NOT NULL,
  root_url TEXT NOT NULL,
  kind TEXT NOT NULL,
  -- the ingest options a refresh repeats (JSON)
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  last_crawl TEXT,
  UNIQUE (library, version)
);
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  library TEXT NOT NULL,
  version TEXT NOT NULL,
  url TEXT NOT NULL,
  state TEXT NOT NULL,
  progress TEXT NOT NULL DEFAULT '{}',
  started_at TEXT NOT NULL,
  ended_at TEXT,
  error TEXT
);
`;

export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${CATALOG_TABLES}

CREATE TABLE pages (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  canonical_url TEXT NOT NULL,
  title TEXT NOT NULL,
  markdown TEXT NOT NULL,
  headings TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  etag TEXT,
  last_modified TEXT,
  fetched_at TEXT NOT NULL,
  source TEXT NOT NULL,
  source_path TEXT,
  links TEXT NOT NULL DEFAULT '[]',
  chunking TEXT,
  source_id INTEGER REFERENCES sources(id)
);
CREATE INDEX pages_by_source ON pages(source_id);

CREATE TABLE anchors (
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  anchor TEXT NOT NULL,
  PRIMARY KEY (page_id, anchor)
) WITHOUT ROWID;
CREATE INDEX anchors_by_anchor ON anchors(anchor);

CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  chunk_key TEXT NOT NULL,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  anchor TEXT,
  heading_path TEXT NOT NULL,
  title TEXT NOT NULL,
  headings TEXT NOT NULL,
  text TEXT NOT NULL,
  token_count INTEGER NOT NULL,
  content_hash TEXT NOT NULL
);
CREATE INDEX chunks_by_page ON chunks(page_id);

-- URLs that redirect to a page (or that its canonical link replaced): links to them still resolve.
CREATE TABLE page_aliases (
  alias TEXT PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_aliases_by_page ON page_aliases(page_id);
CREATE INDEX IF NOT EXISTS pages_by_content ON pages(content_hash);

-- Crawl state: a run's frontier survives an interrupted crawl, so the next one resumes it.
CREATE TABLE crawl_runs (
  id INTEGER PRIMARY KEY,
  start_url TEXT NOT NULL,
  settings TEXT NOT NULL,
  started_at TEXT NOT NULL,
  -- set when nothing is left to resume
  finished_at TEXT,
  ${RUN_OUTCOME_COLUMNS.join(',\n  ')}
);
CREATE TABLE frontier (
  run_id INTEGER NOT NULL REFERENCES crawl_runs(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  depth INTEGER NOT NULL,
  done INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, url)
);

${SEGMENTED_LEXICAL_TABLES}`;

/** Upgrades from each older schema version to the next, applied in order in one transaction. */
export const MIGRATIONS: Record<number, string> = {
  1: `
ALTER TABLE pages ADD COLUMN links TEXT NOT NULL DEFAULT '[]';
CREATE TABLE crawl_runs (id INTEGER PRIMARY KEY, start_url TEXT NOT NULL, settings TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE frontier (
  run_id INTEGER NOT NULL REFERENCES crawl_runs(id) ON DELETE CASCADE, url TEXT NOT NULL, depth INTEGER NOT NULL,
  done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, url)
);`,
  2: `
CREATE TABLE page_aliases (
  alias TEXT PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_aliases_by_page ON page_aliases(page_id);
CREATE INDEX IF NOT EXISTS pages_by_content ON pages(content_hash);
`,
  3: `ALTER TABLE pages ADD COLUMN chunking TEXT;`,
  // FTS5 gave way to our own field-weighted index; it is built at the next search or ingest.
  4: `
DROP TRIGGER IF EXISTS chunks_after_insert;
DROP TRIGGER IF EXISTS chunks_after_delete;
DROP TABLE IF EXISTS chunks_fts;
${LEXICAL_TABLES}`,
  // An ingest that a limit ended early is recorded, so stats and sources can say so.
  5: RUN_OUTCOME_COLUMNS.map((column) => `ALTER TABLE crawl_runs ADD COLUMN ${column};`).join('\n'),
  // The catalog: the pages already stored become one source per origin (named by its host,
  // version latest); \`citedocs ingest --library --version\` names them properly later.
  6: `
${CATALOG_TABLES}
ALTER TABLE pages ADD COLUMN source_id INTEGER REFERENCES sources(id);
CREATE INDEX pages_by_source ON pages(source_id);
WITH origins AS (
  SELECT DISTINCT
    CASE WHEN instr(url, '://') = 0 THEN url ELSE substr(url, 1, instr(url, '://') + 2) ||
      substr(substr(url, instr(url, '://') + 3), 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1) END AS origin,
    source AS kind
  FROM pages
)
INSERT OR IGNORE INTO sources (library, version, root_url, kind, created_at)
  SELECT CASE WHEN origin LIKE 'file:%' THEN 'local' ELSE replace(substr(origin, instr(origin, '://') + 3), ':', '-') END,
         'latest', origin || '/', kind, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM origins GROUP BY origin;
UPDATE pages SET source_id = (SELECT s.id FROM sources s WHERE substr(pages.url, 1, length(s.root_url)) = s.root_url ORDER BY length(s.root_url) DESC LIMIT 1);
`,
  // The lexical index in segments (issue 22): its own tables, rebuilt once from the chunks.
  7: SEGMENTED_LEXICAL_MIGRATION,
};
