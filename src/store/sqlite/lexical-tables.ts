/**
 * The segmented lexical index (schema 7): immutable segments of postings, tombstones for the
 * documents deleted since, the chunks not yet in any segment, and the index-wide statistics and
 * link counts that make scores over many segments equal to those of one.
 */
export const SEGMENTED_LEXICAL_TABLES = `
-- One row per segment. Documents are the chunks it was built from, in row-id order; the arrays
-- are little-endian: row_ids f64, lengths u16 × fields, link_keys u32 × 2 (entry key, page key:
-- ids in lexical_keys, 0 for none); deleted is one bit per document (a tombstone), set when its
-- chunk is deleted. Only deleted and deleted_count ever change.
CREATE TABLE IF NOT EXISTS lexical_segments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  doc_count INTEGER NOT NULL,
  deleted_count INTEGER NOT NULL DEFAULT 0,
  row_ids BLOB NOT NULL,
  lengths BLOB NOT NULL,
  link_keys BLOB NOT NULL,
  deleted BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS lexical_postings (
  segment_id INTEGER NOT NULL,
  term TEXT NOT NULL,
  postings BLOB NOT NULL,
  PRIMARY KEY (segment_id, term)
) WITHOUT ROWID;
-- Chunks stored since the last flush: the next flush indexes them into a new segment.
CREATE TABLE IF NOT EXISTS lexical_pending (chunk_id INTEGER PRIMARY KEY);
-- Statistics of the live documents: their number and each field's total length (JSON array);
-- generation changes with every commit of the index, so a reader knows to look again.
CREATE TABLE IF NOT EXISTS lexical_stats (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  documents INTEGER NOT NULL,
  lengths TEXT NOT NULL,
  generation INTEGER NOT NULL
);
-- Link targets (page#anchor) and pages: how many live chunks link to the target, how many other
-- pages link into the page, and how many live documents use the key (as entry or page).
CREATE TABLE IF NOT EXISTS lexical_keys (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  entry_links INTEGER NOT NULL DEFAULT 0,
  page_links INTEGER NOT NULL DEFAULT 0,
  docs INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lexical_keys_linked ON lexical_keys(id) WHERE entry_links > 0 OR page_links > 0;
-- Which pages link into which (key ids), counted in linking chunks: a pair lives while one does.
CREATE TABLE IF NOT EXISTS lexical_page_links (
  target INTEGER NOT NULL,
  source INTEGER NOT NULL,
  chunks INTEGER NOT NULL,
  PRIMARY KEY (target, source)
) WITHOUT ROWID;
`;

/**
 * Schema 6 → 7: the one-segment index gives way to segments. The first writer then finds no
 * index in the current lexical format and queues every chunk for its first flush.
 */
export const SEGMENTED_LEXICAL_MIGRATION = `
DROP TABLE IF EXISTS lexical_terms;
DROP TABLE IF EXISTS lexical_docs;
${SEGMENTED_LEXICAL_TABLES}`;
