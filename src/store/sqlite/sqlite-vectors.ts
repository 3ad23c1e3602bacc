import type Database from 'better-sqlite3';
import { StoreError } from '../../core/errors.js';
import { type ChunkRow, chunkOfRow } from './chunk-rows.js';
import { dot } from '../../core/vectors.js';
import type { EmbeddingInfo, PendingChunk, VectorHit, VectorRow, VectorStore } from '../vectors.js';

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
  vector_id INTEGER NOT NULL REFERENCES embedding_cache(id)
);
CREATE INDEX IF NOT EXISTS chunks_by_key ON chunks(chunk_key);`;

interface IdChunkRow extends ChunkRow {
  id: number;
}

const CHUNK_COLUMNS = `c.id, c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash`;

/**
 * Vectors in the index file. Float vectors live once, in `embedding_cache` keyed by (model,
 * input hash); `chunk_embeddings` says which one each chunk has (deleted with the chunk); a
 * sqlite-vec `vec0` table of 1-bit codes (`chunk_codes`, rowid = chunk id) finds candidates
 * fast, and the float vectors re-score them exactly.
 */
export function createSqliteVectorStore(
  database: Database.Database,
  prepare: (sql: string) => Database.Statement,
  path: string,
  available: boolean,
): VectorStore {
  const tableExists = (name: string) => prepare("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = ?)").pluck().get(name) === 1;
  const meta = (key: string) => prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  const setMeta = (key: string, value: string) => prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  const requireVec = () => {
    if (!available) {
      throw new StoreError(
        `Vector search needs the sqlite-vec extension, which did not load on this platform. Reinstall with \`npm ci\`, or use --embedder none.`,
        path,
      );
    }
  };

  const info = (): EmbeddingInfo | undefined => {
    const modelId = meta(MODEL_KEY);
    const dimension = Number(meta(DIMENSION_KEY));
    if (modelId === undefined || !tableExists('chunk_embeddings')) return undefined;
    const embedded = prepare('SELECT count(*) FROM chunk_embeddings').pluck().get() as number;
    const total = prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    return { modelId, dimension, embedded, pending: total - embedded };
  };

  const useModel = database.transaction((modelId: string, dimension: number): { switchedFrom?: string } => {
    requireVec();
    database.exec(TABLES_SQL);
    const current = meta(MODEL_KEY);
    const currentDimension = Number(meta(DIMENSION_KEY));
    const bits = Math.ceil(dimension / 8) * 8;
    if (current === modelId && currentDimension === dimension && tableExists('chunk_codes')) {
      // Codes whose chunk is gone (an index written before deletes removed them) only crowd the search.
      database.exec('DELETE FROM chunk_codes WHERE rowid NOT IN (SELECT chunk_id FROM chunk_embeddings)');
      return {};
    }
    database.exec('DELETE FROM chunk_embeddings; DROP TABLE IF EXISTS chunk_codes;');
    database.exec(`CREATE VIRTUAL TABLE chunk_codes USING vec0(code bit[${bits}])`);
    setMeta(MODEL_KEY, modelId);
    setMeta(DIMENSION_KEY, String(dimension));
    return current === undefined || current === modelId ? {} : { switchedFrom: current };
  });

  const putVectors = database.transaction((modelId: string, rows: readonly VectorRow[]) => {
    if (meta(MODEL_KEY) !== modelId) throw new StoreError(`The index holds vectors of ${meta(MODEL_KEY) ?? 'no model'}, not ${modelId}.`, path);
    const cache = prepare('INSERT OR IGNORE INTO embedding_cache (model, input_hash, vector) VALUES (?, ?, ?)');
    const cachedId = prepare('SELECT id FROM embedding_cache WHERE model = ? AND input_hash = ?').pluck();
    const link = prepare('INSERT OR REPLACE INTO chunk_embeddings (chunk_id, vector_id) VALUES (?, ?)');
    const dropCode = prepare('DELETE FROM chunk_codes WHERE rowid = ?');
    const addCode = prepare('INSERT INTO chunk_codes (rowid, code) VALUES (?, vec_bit(?))');
    for (const row of rows) {
      cache.run(modelId, row.inputHash, vectorBytes(row.vector));
      link.run(row.rowId, cachedId.get(modelId, row.inputHash));
      // A chunk id can be reused after its chunk was deleted: its old code goes first.
      dropCode.run(BigInt(row.rowId));
      addCode.run(BigInt(row.rowId), signBits(row.vector));
    }
  });

  return {
    available,
    info: () => info(),
    useModel: (modelId, dimension) => useModel(modelId, dimension),

    pendingChunks(limit, afterRowId) {
      const sql = tableExists('chunk_embeddings')
        ? `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id
            WHERE c.id > ? AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id) ORDER BY c.id LIMIT ?`
        : `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.id > ? ORDER BY c.id LIMIT ?`;
      return (prepare(sql).all(afterRowId, limit) as IdChunkRow[]).map((row): PendingChunk => ({ rowId: row.id, chunk: chunkOfRow(row) }));
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

    searchVectors(query, options): VectorHit[] {
      requireVec();
      const modelId = meta(MODEL_KEY);
      if (modelId === undefined || !tableExists('chunk_codes')) return [];
      // Stage 1: Hamming-nearest codes (codes of deleted chunks are filtered by the join below).
      // sqlite-vec answers at most 4,096 neighbours per query.
      const k = Math.min(Math.max(options.coarseK, options.limit), 4096);
      const coarse = prepare('SELECT rowid FROM chunk_codes WHERE code MATCH vec_bit(?) AND k = ?').pluck().all(signBits(query), k) as number[];
      if (coarse.length === 0) return [];
      // Stage 2: exact cosine on the float vectors of those candidates; then the winners' rows.
      const scored = (
        prepare(
          `SELECT e.chunk_id AS id, v.vector FROM chunk_embeddings e JOIN embedding_cache v ON v.id = e.vector_id
            WHERE e.chunk_id IN (SELECT value FROM json_each(?))`,
        ).all(JSON.stringify(coarse)) as { id: number; vector: Buffer }[]
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


function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function vectorOf(bytes: Buffer): Float32Array {
  // Copied: a Buffer's offset need not be 4-byte aligned.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}


/** One bit per component (1 when positive), padded to whole bytes: the vec0 `bit[]` code. */
export function signBits(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(Math.ceil(vector.length / 8));
  for (let index = 0; index < vector.length; index += 1) {
    if ((vector[index] ?? 0) > 0) bytes[index >> 3] = (bytes[index >> 3] ?? 0) | (1 << (index & 7));
  }
  return bytes;
}
