import type Database from 'better-sqlite3';
import { alignedCopy, blobOf } from './blobs.js';
import { StoreError } from '../../core/errors.js';
import { type ChunkRow, chunkOfRow } from '../chunk-rows.js';
import { dot } from '../../core/vectors.js';
import { hammingShortlist, signBits } from '../dense/binary-codes.js';
import type { EmbeddingInfo, VectorHit, VectorRow, VectorStore } from '../vectors.js';
import type { Synchronous } from './synchronous.js';
import { createVectorCodesStore, hasCodeColumn, VECTOR_CODES_SQL } from './vector-codes.js';

const MODEL_KEY = 'embedding_model';
const DIMENSION_KEY = 'embedding_dimension';

// Created on first use, so indexes made before vectors existed open unchanged (also read-only).
const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS embedding_cache (
  id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  input_hash TEXT NOT NULL,
  vector BLOB NOT NULL,
  UNIQUE (model, input_hash)
);
CREATE TABLE IF NOT EXISTS chunk_embeddings (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  vector_id INTEGER NOT NULL REFERENCES embedding_cache(id),
  code BLOB
);
CREATE INDEX IF NOT EXISTS chunks_by_key ON chunks(chunk_key);
${VECTOR_CODES_SQL}`;

/**
 * Brings vector tables written by citedocs ≤ 0.1 (codes in a sqlite-vec `vec0` table) to the
 * current layout: each chunk's code in `chunk_embeddings.code` (filled from its vector when the
 * codes are next packed), and the old virtual table gone with its shadow tables.
 */
export function upgradeVectorTables(database: Database.Database): void {
  const exists = (name: string) => database.prepare('SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)').pluck().get(name) === 1;
  if (exists('chunk_embeddings') && !hasCodeColumn(database)) database.exec('ALTER TABLE chunk_embeddings ADD COLUMN code BLOB');
  if (exists('chunk_codes')) dropVirtualTable(database, 'chunk_codes');
}

/**
 * Drops a virtual table whose module (here sqlite-vec's `vec0`) is not loaded: `DROP TABLE`
 * would need the module, so its schema row and its shadow tables (`name_…`, plain tables) are
 * removed directly, the documented way to delete a table SQLite cannot drop
 * (https://www.sqlite.org/lang_droptable.html, writable_schema).
 */
function dropVirtualTable(database: Database.Database, name: string): void {
  const shadows = database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE ? ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL%'").pluck().all(`${name.replace(/[\\%_]/g, '\\$&')}\\_%`) as string[];
  database.transaction(() => {
    for (const shadow of shadows) database.exec(`DROP TABLE "${shadow}"`);
    database.unsafeMode(true);
    try {
      database.pragma('writable_schema = ON');
      database.prepare("DELETE FROM sqlite_schema WHERE type = 'table' AND name = ?").run(name);
      database.pragma('writable_schema = OFF');
    } finally {
      database.unsafeMode(false);
    }
  })();
}

interface IdChunkRow extends ChunkRow {
  id: number;
}

const CHUNK_COLUMNS = `c.id, c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash`;

/**
 * Vectors in the index file. Float vectors live once, in `embedding_cache` keyed by (model,
 * input hash); `chunk_embeddings` says which one each chunk has, with its 1-bit code (deleted
 * with the chunk). A search scans all codes, packed in one blob and held in memory, for a
 * Hamming shortlist, then re-scores the shortlist exactly on the float vectors. (sqlite-vec's
 * `vec0` bit KNN, used before, took 64–96 ms per query at 100k chunks; the scan takes ~10.)
 */
export interface SqliteVectorStore extends Synchronous<VectorStore> {
  /** Rebuilds and stores the packed search codes when the vectors changed since (searches do it too, when needed); whether it had to. */
  refreshCodes(): boolean;
}

export function createSqliteVectorStore(database: Database.Database, prepare: (sql: string) => Database.Statement, path: string, writable: boolean): SqliteVectorStore {
  const codes = createVectorCodesStore(database, prepare, writable);
  const tableExists = (name: string) => prepare("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)").pluck().get(name) === 1;
  const meta = (key: string) => prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  const setMeta = (key: string, value: string) => prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  const info = (): EmbeddingInfo | undefined => {
    const modelId = meta(MODEL_KEY);
    const dimension = Number(meta(DIMENSION_KEY));
    if (modelId === undefined || !tableExists('chunk_embeddings')) return undefined;
    const embedded = prepare('SELECT count(*) FROM chunk_embeddings').pluck().get() as number;
    const total = prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    return { modelId, dimension, embedded, pending: total - embedded };
  };

  const useModel = database.transaction((modelId: string, dimension: number): { switchedFrom?: string } => {
    database.exec(TABLES_SQL);
    const current = meta(MODEL_KEY);
    const currentDimension = Number(meta(DIMENSION_KEY));
    if (current === modelId && currentDimension === dimension) return {};
    database.exec('DELETE FROM chunk_embeddings');
    codes.vectorsChanged();
    setMeta(MODEL_KEY, modelId);
    setMeta(DIMENSION_KEY, String(dimension));
    return current === undefined || current === modelId ? {} : { switchedFrom: current };
  });

  const putVectors = database.transaction((modelId: string, rows: readonly VectorRow[]) => {
    if (meta(MODEL_KEY) !== modelId) throw new StoreError(`The index holds vectors of ${meta(MODEL_KEY) ?? 'no model'}, not ${modelId}.`, path);
    const cache = prepare('INSERT OR IGNORE INTO embedding_cache (model, input_hash, vector) VALUES (?, ?, ?)');
    const cachedId = prepare('SELECT id FROM embedding_cache WHERE model = ? AND input_hash = ?').pluck();
    const link = prepare('INSERT OR REPLACE INTO chunk_embeddings (chunk_id, vector_id, code) SELECT id, ?, ? FROM chunks WHERE chunk_key = ?');
    for (const row of rows) {
      cache.run(modelId, row.inputHash, blobOf(row.vector));
      link.run(cachedId.get(modelId, row.inputHash), signBits(row.vector), row.chunkId);
    }
    if (rows.length > 0) codes.vectorsChanged();
  });

  return {
    info: () => info(),
    useModel: (modelId, dimension) => useModel(modelId, dimension),

    pendingChunks(limit) {
      const sql = tableExists('chunk_embeddings')
        ? `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id
            WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id) ORDER BY c.id LIMIT ?`
        : `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id ORDER BY c.id LIMIT ?`;
      return (prepare(sql).all(limit) as IdChunkRow[]).map(chunkOfRow);
    },

    cachedDimension(modelId) {
      if (!tableExists('embedding_cache')) return undefined;
      const bytes = prepare('SELECT length(vector) FROM embedding_cache WHERE model = ? LIMIT 1').pluck().get(modelId) as number | undefined;
      return bytes === undefined ? undefined : bytes / 4;
    },

    cachedVectors(modelId, inputHashes) {
      const found = new Map<string, Float32Array>();
      if (inputHashes.length === 0 || !tableExists('embedding_cache')) return found;
      const rows = prepare('SELECT input_hash, vector FROM embedding_cache WHERE model = ? AND input_hash IN (SELECT value FROM json_each(?))').all(
        modelId,
        JSON.stringify(inputHashes),
      ) as { input_hash: string; vector: Buffer }[];
      for (const row of rows) found.set(row.input_hash, vectorOf(row.vector));
      return found;
    },

    putVectors: (modelId, rows) => putVectors(modelId, rows),

    vectorsOf(chunkIds) {
      const found = new Map<string, Float32Array>();
      if (chunkIds.length === 0 || !tableExists('chunk_embeddings')) return found;
      const rows = prepare(
        `SELECT c.chunk_key, v.vector FROM chunks c JOIN chunk_embeddings e ON e.chunk_id = c.id JOIN embedding_cache v ON v.id = e.vector_id
          WHERE c.chunk_key IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(chunkIds)) as { chunk_key: string; vector: Buffer }[];
      for (const row of rows) found.set(row.chunk_key, vectorOf(row.vector));
      return found;
    },

    refreshCodes() {
      return meta(MODEL_KEY) !== undefined && tableExists('chunk_embeddings') && codes.refresh(Number(meta(DIMENSION_KEY)));
    },

    searchVectors(query, options): VectorHit[] {
      const modelId = meta(MODEL_KEY);
      if (modelId === undefined || !tableExists('chunk_embeddings')) return [];
      // Stage 1: the Hamming-nearest codes (a deleted chunk's code is dropped by the join below);
      // a scoped search compares every chunk of its sources, so its top-k comes from them alone.
      const shortlist =
        options.sourceIds === undefined
          ? hammingShortlist(codes.segment(Number(meta(DIMENSION_KEY))), query, Math.max(options.coarseK, options.limit))
          : (prepare(
              `SELECT e.chunk_id FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id JOIN pages p ON p.id = c.page_id
                WHERE p.source_id IN (SELECT value FROM json_each(?))`,
            ).pluck().all(JSON.stringify(options.sourceIds)) as number[]);
      if (shortlist.length === 0) return [];
      // Stage 2: exact cosine on the float vectors of those candidates; then the winners' rows.
      const scored = (
        prepare(
          `SELECT e.chunk_id AS id, v.vector FROM chunk_embeddings e JOIN embedding_cache v ON v.id = e.vector_id
            WHERE e.chunk_id IN (SELECT value FROM json_each(?))`,
        ).all(JSON.stringify(shortlist)) as { id: number; vector: Buffer }[]
      )
        .map((row) => ({ id: row.id, similarity: dot(query, vectorOf(row.vector)) }))
        .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
        .slice(0, options.limit);
      const rows = new Map(
        (prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.id IN (SELECT value FROM json_each(?))`).all(
          JSON.stringify(scored.map((entry) => entry.id)),
        ) as IdChunkRow[]).map((row) => [row.id, row]),
      );
      return scored.flatMap((entry) => {
        const row = rows.get(entry.id);
        return row === undefined ? [] : [{ chunk: chunkOfRow(row), similarity: entry.similarity }];
      });
    },
  };
}

function vectorOf(bytes: Buffer): Float32Array {
  return new Float32Array(alignedCopy(bytes));
}
