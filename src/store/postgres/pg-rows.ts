import type pg from 'pg';
import type { ChunkRow } from '../chunk-rows.js';

export { chunkOfRow } from '../chunk-rows.js';

/** A chunk joined with its page, with its row id: the columns of CHUNK_COLUMNS. */
export interface IdChunkRow extends ChunkRow {
  id: number;
}

export const CHUNK_COLUMNS = 'c.id, c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash';

/** Runs `work` in one transaction on one pooled client (READ COMMITTED unless told), committing when it resolves. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

/**
 * Runs a statement again when PostgreSQL chose it as a deadlock's victim: workers adding
 * overlapping URLs to a shared frontier in different orders can wait on each other's rows.
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: unknown }).code !== '40P01' || attempt >= attempts) throw error;
    }
  }
}
