import type Database from 'better-sqlite3';
import { alignedCopy, blobOf } from './blobs.js';
import { buildSegment, decodePostings, docStatistics, encodePostings, type PostingList, type Segment, type SegmentDocs } from '../lexical/segment.js';

type Prepare = (sql: string) => Database.Statement;

/** Bumped in the same transaction as every change to the chunks: the lexical index is current when it was built at this version. */
export const CHUNKS_VERSION_KEY = 'chunks_version';
/** The layout of the stored index; one stored in another layout is stale whatever its version. */
export const LEXICAL_FORMAT_KEY = 'lexical_format';
/** 2: `inlinks` holds each document's page links after its entry links. 3: flags (`--max-tokens`) and `a->b` names are terms. */
export const LEXICAL_FORMAT = 3;

export interface LexicalIndexStore {
  /** The index for the chunks as they are now: the stored one when current, else rebuilt (and stored, when writable). */
  segment(): Segment;
  /** Rebuilds and stores the index when the chunks changed since it was built; whether it did. */
  refresh(): boolean;
  /** Records that the chunks changed. Call inside the transaction that changed them. */
  chunksChanged(): void;
}

interface DocsRow {
  built_version: number;
  count: number;
  row_ids: Buffer;
  lengths: Buffer;
  inlinks: Buffer;
}

interface ChunkSourceRow {
  id: number;
  url: string;
  title: string;
  anchor: string | null;
  heading_path: string;
  text: string;
}

const DECODED_CACHE_TERMS = 4096;

/**
 * The lexical index kept in the SQLite file: one row per term with its postings, and one row
 * of per-document arrays. A query reads only its own terms' rows, so a cold CLI search costs a
 * few point look-ups, not a load of the whole index. Rebuilt whole after an ingest changed
 * anything (seconds for tens of thousands of chunks); a read-only reader of a stale file
 * builds it in memory instead.
 */
export function createLexicalIndexStore(database: Database.Database, prepare: Prepare, writable: boolean): LexicalIndexStore {
  let cached: { version: number; segment: Segment } | undefined;

  const metaValue = (key: string) => Number((prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? 0);
  const version = () => metaValue(CHUNKS_VERSION_KEY);
  const builtAt = () => (metaValue(LEXICAL_FORMAT_KEY) === LEXICAL_FORMAT ? (prepare('SELECT built_version FROM lexical_docs WHERE id = 1').pluck().get() as number | undefined) : undefined);

  const build = (): ReturnType<typeof buildSegment> => {
    const rows = prepare(
      `SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY c.id`,
    ).iterate() as IterableIterator<ChunkSourceRow>;
    return buildSegment(
      (function* () {
        for (const row of rows) {
          yield {
            rowId: row.id,
            chunk: { pageUrl: row.url, pageTitle: row.title, headingPath: JSON.parse(row.heading_path) as string[], text: row.text, ...(row.anchor === null ? {} : { anchor: row.anchor }) },
          };
        }
      })(),
    );
  };

  const store = database.transaction((built: ReturnType<typeof buildSegment>, at: number) => {
    prepare('DELETE FROM lexical_terms').run();
    const insert = prepare('INSERT INTO lexical_terms (term, postings) VALUES (?, ?)');
    for (const [term, list] of built.terms) insert.run(term, encodePostings(list));
    prepare('INSERT OR REPLACE INTO lexical_docs (id, built_version, count, row_ids, lengths, inlinks) VALUES (1, ?, ?, ?, ?, ?)').run(
      at,
      built.docs.count,
      blobOf(built.docs.rowIds),
      blobOf(built.docs.lengths),
      Buffer.concat([blobOf(built.docs.inlinks), blobOf(built.docs.pageInlinks)]),
    );
    prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(LEXICAL_FORMAT_KEY, String(LEXICAL_FORMAT));
  });

  const stored = (at: number): Segment | undefined => {
    const row = prepare('SELECT built_version, count, row_ids, lengths, inlinks FROM lexical_docs WHERE id = 1').get() as DocsRow | undefined;
    if (row === undefined || row.built_version !== at || metaValue(LEXICAL_FORMAT_KEY) !== LEXICAL_FORMAT) return undefined;
    const links = new Uint16Array(alignedCopy(row.inlinks));
    // An older citedocs may have rewritten the row since: its layout shows in the length.
    if (links.length !== row.count * 2) return undefined;
    const docs: SegmentDocs = {
      count: row.count,
      rowIds: new Float64Array(alignedCopy(row.row_ids)),
      lengths: new Uint16Array(alignedCopy(row.lengths)),
      inlinks: links.subarray(0, row.count),
      pageInlinks: links.subarray(row.count),
    };
    const lookup = prepare('SELECT postings FROM lexical_terms WHERE term = ?').pluck();
    const decoded = new Map<string, PostingList | undefined>();
    return {
      docs,
      ...docStatistics(docs),
      postings(term) {
        if (decoded.has(term)) return decoded.get(term);
        const bytes = lookup.get(term) as Buffer | undefined;
        const list = bytes === undefined ? undefined : decodePostings(bytes);
        if (decoded.size >= DECODED_CACHE_TERMS) decoded.clear();
        decoded.set(term, list);
        return list;
      },
    };
  };

  const refreshAt = (at: number): Segment => {
    const built = build();
    if (writable) store(built, at);
    return built;
  };

  return {
    segment() {
      const at = version();
      if (cached?.version !== at) cached = { version: at, segment: stored(at) ?? refreshAt(at) };
      return cached.segment;
    },
    refresh() {
      const at = version();
      if (builtAt() === at) return false;
      cached = { version: at, segment: refreshAt(at) };
      return true;
    },
    chunksChanged() {
      prepare(`INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`).run(CHUNKS_VERSION_KEY);
    },
  };
}
