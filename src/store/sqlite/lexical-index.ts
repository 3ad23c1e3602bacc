import type Database from 'better-sqlite3';
import { type ScoringIndex, scoringIndexOf } from '../lexical/bm25f.js';
import { buildSegment } from '../lexical/segment.js';
import { createLexicalReader } from './lexical-reader.js';
import { createLexicalWriter, FLUSH_DOCS } from './lexical-writer.js';

type Prepare = (sql: string) => Database.Statement;

/** Bumped in the same transaction as every change to the chunks (the vector codes and an older reader's in-memory index follow it). */
export const CHUNKS_VERSION_KEY = 'chunks_version';
/** The layout of the stored index; one stored in another layout is rebuilt whatever its version. */
export const LEXICAL_FORMAT_KEY = 'lexical_format';
/**
 * 2: `inlinks` holds each document's page links after its entry links. 3: flags (`--max-tokens`)
 * and `a->b` names are terms. 4: segments with tombstones, statistics and link counts kept per commit.
 */
export const LEXICAL_FORMAT = 4;
/** The first schema with the segmented index's tables. */
const SEGMENTED_SCHEMA = 8;

export interface LexicalIndexStore {
  /**
   * Runs `read` over one consistent view of the index (one read transaction). A writer first
   * indexes the chunks it stored since its last flush, so its own searches see them; a reader
   * sees what writers have flushed (at the end of each ingest, and every FLUSH_DOCS chunks).
   */
  read<T>(read: (index: ScoringIndex) => T): T;
  /** Indexes the chunks stored since the last flush and runs the merges due; whether it had to. */
  refresh(): boolean;
  /** Records that the chunks changed. Call inside the transaction that changed them. */
  chunksChanged(): void;
  /** Records chunks just stored (row ids). Inside the transaction that stored them. */
  chunksAdded(chunkIds: readonly number[]): void;
  /** Takes a page's chunks out of the index. Inside the transaction that deletes them, before it does. */
  pageRemoving(pageId: number): void;
  /** After a write: flushes once enough chunks wait, so an ingest of any size builds in bounded memory. */
  flushIfDue(): void;
}

interface ChunkSourceRow {
  id: number;
  url: string;
  title: string;
  anchor: string | null;
  heading_path: string;
  text: string;
}

/**
 * The lexical index kept in the SQLite file as segments (the Lucene/Tantivy model): an update
 * writes a small new segment and tombstones, never rebuilds the whole; merges run by size tiers;
 * a search reads every segment with the index-wide statistics, so scores equal one segment's.
 * A read-only reader of a file from before the segments builds a one-segment index in memory
 * instead (as earlier readers of a stale file did), until an ingest upgrades it.
 */
export function createLexicalIndexStore(database: Database.Database, prepare: Prepare, writable: boolean): LexicalIndexStore {
  const metaValue = (key: string) => (prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? '0';
  const segmented = () => (database.pragma('user_version', { simple: true }) as number) >= SEGMENTED_SCHEMA && Number(metaValue(LEXICAL_FORMAT_KEY)) === LEXICAL_FORMAT;
  const writer = writable ? createLexicalWriter(database, prepare) : undefined;
  if (writer !== undefined && !segmented()) writer.reset(LEXICAL_FORMAT, LEXICAL_FORMAT_KEY);
  let reader: ReturnType<typeof createLexicalReader> | undefined;
  let legacy: { version: string; index: ScoringIndex } | undefined;
  let waiting = 0;

  const legacyIndex = (): ScoringIndex => {
    const version = metaValue(CHUNKS_VERSION_KEY);
    if (legacy?.version !== version) {
      const rows = prepare(`SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY c.id`).iterate() as IterableIterator<ChunkSourceRow>;
      const segment = buildSegment(
        (function* () {
          for (const row of rows) {
            yield {
              rowId: row.id,
              chunk: { pageUrl: row.url, pageTitle: row.title, headingPath: JSON.parse(row.heading_path) as string[], text: row.text, ...(row.anchor === null ? {} : { anchor: row.anchor }) },
            };
          }
        })(),
      );
      const single = scoringIndexOf(segment);
      const [only] = single.segments;
      legacy = { version, index: { ...single, segments: only === undefined ? [] : [{ ...only, rowIds: segment.docs.rowIds }] } };
    }
    return legacy.index;
  };

  const readTransaction = database.transaction(<T>(read: (index: ScoringIndex) => T): T => {
    if (!segmented()) return read(legacyIndex());
    reader ??= createLexicalReader(prepare);
    return read(reader.snapshot());
  });

  const refresh = (): boolean => {
    waiting = 0;
    return writer?.refresh() ?? false;
  };

  return {
    read(read) {
      if (writer?.hasPending() === true) refresh();
      return readTransaction(read) as ReturnType<typeof read>;
    },
    refresh,
    chunksChanged() {
      prepare(`INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`).run(CHUNKS_VERSION_KEY);
    },
    chunksAdded(chunkIds) {
      writer?.added(chunkIds);
      waiting += chunkIds.length;
    },
    pageRemoving(pageId) {
      writer?.removePage(pageId);
    },
    flushIfDue() {
      if (waiting >= FLUSH_DOCS) refresh();
    },
  };
}
