import type pg from 'pg';
import { StoreError } from '../../core/errors.js';
import { dot } from '../../core/vectors.js';
import { type CodeSegment, hammingShortlist, packCodes, signBits } from '../dense/binary-codes.js';
import type { EmbeddingInfo, VectorHit, VectorStore } from '../vectors.js';
import { CHUNK_COLUMNS, chunkOfRow, type IdChunkRow, inTransaction } from './pg-rows.js';

const MODEL_KEY = 'embedding_model';
const DIMENSION_KEY = 'embedding_dimension';
/** Bumped with every change to the stored vectors, and (by the store) when chunks are deleted: the packed codes follow it. */
export const VECTORS_VERSION_KEY = 'vectors_version';

const vectorOf = (bytes: Buffer): Float32Array => {
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return new Float32Array(buffer);
};
const bytesOf = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

export async function bumpVectorsVersion(client: pg.ClientBase): Promise<void> {
  await client.query("INSERT INTO meta (key, value) VALUES ($1, '1') ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text", [VECTORS_VERSION_KEY]);
}

/**
 * Dense vectors in PostgreSQL, as in the SQLite file: floats once per (model, input hash) in
 * embedding_cache, each chunk's link to one with its 1-bit code. Debian's PostgreSQL 15 has no
 * pgvector, so search is the SQLite store's: every code packed in memory (reloaded when the
 * vectors version moves), a Hamming shortlist, then exact cosine on the shortlist's floats.
 */
export function createPgVectorStore(pool: pg.Pool, name: string): VectorStore {
  let codes: { version: string; segment: CodeSegment } | undefined;
  const meta = async (client: pg.ClientBase | pg.Pool, key: string) => (await client.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key])).rows[0]?.value;
  const setMeta = (client: pg.ClientBase, key: string, value: string) =>
    client.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);

  const codeSegment = async (client: pg.ClientBase, dimension: number): Promise<CodeSegment> => {
    const version = `${(await meta(client, VECTORS_VERSION_KEY)) ?? '0'}:${dimension}`;
    if (codes?.version !== version) {
      const rows = (await client.query<{ id: number; code: Buffer }>('SELECT chunk_id AS id, code FROM chunk_embeddings ORDER BY chunk_id')).rows;
      codes = { version, segment: packCodes(dimension, rows.map((row) => ({ rowId: row.id, code: row.code }))) };
    }
    return codes.segment;
  };

  return {
    async info(): Promise<EmbeddingInfo | undefined> {
      const modelId = await meta(pool, MODEL_KEY);
      if (modelId === undefined) return undefined;
      const dimension = Number(await meta(pool, DIMENSION_KEY));
      const counts = (await pool.query<{ embedded: number; total: number }>('SELECT (SELECT count(*)::int FROM chunk_embeddings) AS embedded, (SELECT count(*)::int FROM chunks) AS total')).rows[0];
      const embedded = counts?.embedded ?? 0;
      return { modelId, dimension, embedded, pending: (counts?.total ?? 0) - embedded };
    },

    useModel: (modelId, dimension) =>
      inTransaction(pool, async (client) => {
        // One process switches the model at a time.
        await client.query('SELECT pg_advisory_xact_lock($1)', [0x43444f44]);
        const current = await meta(client, MODEL_KEY);
        const currentDimension = Number(await meta(client, DIMENSION_KEY));
        if (current === modelId && currentDimension === dimension) return {};
        await client.query('DELETE FROM chunk_embeddings');
        await bumpVectorsVersion(client);
        await setMeta(client, MODEL_KEY, modelId);
        await setMeta(client, DIMENSION_KEY, String(dimension));
        return current === undefined || current === modelId ? {} : { switchedFrom: current };
      }),

    async pendingChunks(limit) {
      const rows = await pool.query<IdChunkRow>(
        `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id
          WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id) ORDER BY c.id LIMIT $1`,
        [limit],
      );
      return rows.rows.map(chunkOfRow);
    },

    async cachedDimension(modelId) {
      const row = (await pool.query<{ bytes: number }>('SELECT length(vector) AS bytes FROM embedding_cache WHERE model = $1 LIMIT 1', [modelId])).rows[0];
      return row === undefined ? undefined : row.bytes / 4;
    },

    async cachedVectors(modelId, inputHashes) {
      const found = new Map<string, Float32Array>();
      if (inputHashes.length === 0) return found;
      const rows = await pool.query<{ input_hash: string; vector: Buffer }>('SELECT input_hash, vector FROM embedding_cache WHERE model = $1 AND input_hash = ANY($2::text[])', [
        modelId, [...inputHashes],
      ]);
      for (const row of rows.rows) found.set(row.input_hash, vectorOf(row.vector));
      return found;
    },

    putVectors: (modelId, rows) =>
      inTransaction(pool, async (client) => {
        const current = await meta(client, MODEL_KEY);
        if (current !== modelId) throw new StoreError(`The index holds vectors of ${current ?? 'no model'}, not ${modelId}.`, name);
        if (rows.length === 0) return;
        await client.query(
          'INSERT INTO embedding_cache (model, input_hash, vector) SELECT $1, * FROM unnest($2::text[], $3::bytea[]) ON CONFLICT (model, input_hash) DO NOTHING',
          [modelId, rows.map((row) => row.inputHash), rows.map((row) => bytesOf(row.vector))],
        );
        // A chunk no longer stored is skipped (the join finds no row for it).
        await client.query(
          `INSERT INTO chunk_embeddings (chunk_id, vector_id, code)
           SELECT c.id, v.id, r.code FROM unnest($2::text[], $3::text[], $4::bytea[]) AS r(chunk_key, input_hash, code)
             JOIN chunks c ON c.chunk_key = r.chunk_key JOIN embedding_cache v ON v.model = $1 AND v.input_hash = r.input_hash
           ON CONFLICT (chunk_id) DO UPDATE SET vector_id = excluded.vector_id, code = excluded.code`,
          [modelId, rows.map((row) => row.chunkId), rows.map((row) => row.inputHash), rows.map((row) => signBits(row.vector))],
        );
        await bumpVectorsVersion(client);
      }),

    async vectorsOf(chunkIds) {
      const found = new Map<string, Float32Array>();
      if (chunkIds.length === 0) return found;
      const rows = await pool.query<{ chunk_key: string; vector: Buffer }>(
        `SELECT c.chunk_key, v.vector FROM chunks c JOIN chunk_embeddings e ON e.chunk_id = c.id JOIN embedding_cache v ON v.id = e.vector_id WHERE c.chunk_key = ANY($1::text[])`,
        [[...chunkIds]],
      );
      for (const row of rows.rows) found.set(row.chunk_key, vectorOf(row.vector));
      return found;
    },

    searchVectors: (query, options) =>
      inTransaction(
        pool,
        async (client): Promise<VectorHit[]> => {
          if ((await meta(client, MODEL_KEY)) === undefined) return [];
          const dimension = Number(await meta(client, DIMENSION_KEY));
          const shortlist =
            options.sourceIds === undefined
              ? hammingShortlist(await codeSegment(client, dimension), query, Math.max(options.coarseK, options.limit))
              : (
                  await client.query<{ id: number }>(
                    'SELECT e.chunk_id AS id FROM chunk_embeddings e JOIN chunks c ON c.id = e.chunk_id JOIN pages p ON p.id = c.page_id WHERE p.source_id = ANY($1::int[])',
                    [[...options.sourceIds]],
                  )
                ).rows.map((row) => row.id);
          if (shortlist.length === 0) return [];
          const vectors = await client.query<{ id: number; vector: Buffer }>(
            'SELECT e.chunk_id AS id, v.vector FROM chunk_embeddings e JOIN embedding_cache v ON v.id = e.vector_id WHERE e.chunk_id = ANY($1::int[])',
            [shortlist],
          );
          const scored = vectors.rows
            .map((row) => ({ id: row.id, similarity: dot(query, vectorOf(row.vector)) }))
            .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
            .slice(0, options.limit);
          const rows = await client.query<IdChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.id = ANY($1::int[])`, [scored.map((entry) => entry.id)]);
          const byId = new Map(rows.rows.map((row) => [row.id, row]));
          return scored.flatMap((entry) => {
            const row = byId.get(entry.id);
            return row === undefined ? [] : [{ chunk: chunkOfRow(row), similarity: entry.similarity }];
          });
        },
        'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
      ),
  };
}
