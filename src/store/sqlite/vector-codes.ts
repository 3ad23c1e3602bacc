import type Database from 'better-sqlite3';
import { alignedCopy, blobOf } from './blobs.js';
import { type CodeSegment, packCodes, signBits } from '../dense/binary-codes.js';
import { CHUNKS_VERSION_KEY } from './lexical-index.js';

type Prepare = (sql: string) => Database.Statement;

/** Bumped in the same transaction as every change to the stored vectors. */
export const VECTORS_VERSION_KEY = 'vectors_version';

export const VECTOR_CODES_SQL = `
CREATE TABLE IF NOT EXISTS vector_codes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  built_version TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  row_ids BLOB NOT NULL,
  codes BLOB NOT NULL
);`;

export interface VectorCodesStore {
  /** Every chunk's code, packed: the stored segment when current, else rebuilt (and stored, when writable). */
  segment(dimension: number): CodeSegment;
  /** Rebuilds and stores the packed codes when the vectors changed since; whether it did. */
  refresh(dimension: number): boolean;
  /** Records that the vectors changed. Call inside the transaction that changed them. */
  vectorsChanged(): void;
}

interface CodeRow {
  id: number;
  code: Buffer | null;
  vector: Buffer | null;
}

/**
 * The 1-bit codes of all vectors as one packed blob, so a process reads them in one look-up
 * (a row per chunk took ~0.6 s to read at 100k chunks) and scans them in memory. Each chunk's
 * own code stays in `chunk_embeddings.code`; the blob is rebuilt from those after the vectors
 * change (at the end of an embedding pass). A read-only reader of a stale file rebuilds it in memory.
 */
export function createVectorCodesStore(database: Database.Database, prepare: Prepare, writable: boolean): VectorCodesStore {
  let cached: { version: string; segment: CodeSegment } | undefined;
  const tableExists = (name: string) => prepare('SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)').pluck().get(name) === 1;
  // Current when built at these versions of the vectors and of the chunks (a deleted chunk's code must go too).
  const version = () => {
    const value = (key: string) => (prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? '0';
    return `${value(VECTORS_VERSION_KEY)}:${value(CHUNKS_VERSION_KEY)}`;
  };

  const build = (dimension: number): CodeSegment => {
    if (!tableExists('chunk_embeddings')) return packCodes(dimension, []);
    // Codes missing (vectors stored before codes had their own column) are made from the vector.
    const code = hasCodeColumn(database) ? 'e.code' : 'NULL';
    const rows = prepare(
      `SELECT e.chunk_id AS id, ${code} AS code, CASE WHEN ${code} IS NULL THEN v.vector END AS vector
         FROM chunk_embeddings e JOIN embedding_cache v ON v.id = e.vector_id ORDER BY e.chunk_id`,
    ).all() as CodeRow[];
    return packCodes(
      dimension,
      rows.map((row) => ({ rowId: row.id, code: row.code ?? signBits(new Float32Array(alignedCopy(row.vector ?? Buffer.alloc(0)))) })),
    );
  };

  const store = database.transaction((segment: CodeSegment, at: string) => {
    database.exec(VECTOR_CODES_SQL);
    prepare('INSERT OR REPLACE INTO vector_codes (id, built_version, dimension, row_ids, codes) VALUES (1, ?, ?, ?, ?)').run(
      at,
      segment.dimension,
      blobOf(segment.rowIds),
      blobOf(segment.codes),
    );
  });

  const stored = (at: string, dimension: number): CodeSegment | undefined => {
    if (!tableExists('vector_codes')) return undefined;
    const row = prepare('SELECT built_version, dimension, row_ids, codes FROM vector_codes WHERE id = 1').get() as
      | { built_version: string; dimension: number; row_ids: Buffer; codes: Buffer }
      | undefined;
    if (row === undefined || row.built_version !== at || row.dimension !== dimension) return undefined;
    const segment = packCodes(dimension, []);
    return { ...segment, rowIds: new Float64Array(alignedCopy(row.row_ids)), codes: new Uint32Array(alignedCopy(row.codes)) };
  };

  const rebuild = (at: string, dimension: number): CodeSegment => {
    const segment = build(dimension);
    if (writable) store(segment, at);
    return segment;
  };

  return {
    segment(dimension) {
      const at = version();
      if (cached?.version !== at || cached.segment.dimension !== dimension) cached = { version: at, segment: stored(at, dimension) ?? rebuild(at, dimension) };
      return cached.segment;
    },
    refresh(dimension) {
      const at = version();
      const built = tableExists('vector_codes') ? (prepare('SELECT built_version, dimension FROM vector_codes WHERE id = 1').get() as { built_version: string; dimension: number } | undefined) : undefined;
      if (built?.built_version === at && built.dimension === dimension) return false;
      cached = { version: at, segment: rebuild(at, dimension) };
      return true;
    },
    vectorsChanged() {
      prepare(`INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`).run(VECTORS_VERSION_KEY);
    },
  };
}

/** Whether `chunk_embeddings` has its `code` column (tables written before it do not). */
export function hasCodeColumn(database: Database.Database): boolean {
  return (database.prepare("SELECT name FROM pragma_table_info('chunk_embeddings')").pluck().all() as string[]).includes('code');
}
