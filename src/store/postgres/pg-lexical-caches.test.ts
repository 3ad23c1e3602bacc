import { describe, expect, it } from 'vitest';
import { ChunkRowLru, type Queryable } from './pg-lexical-caches.js';
import type { IdChunkRow } from './pg-rows.js';

const rowOf = (id: number): IdChunkRow => ({ id, chunk_key: `k${id}`, url: 'https://d.example/', page_title: 'T', anchor: null, heading_path: '[]', text: `text ${id}`, token_count: 2, content_hash: `h${id}` });

/** A database double that answers the rows of the ids asked for, and records each request. */
function rowsDatabase(stored: readonly number[]) {
  const asked: number[][] = [];
  const db = {
    query: async (_sql: string, [ids]: [number[]]) => {
      asked.push(ids);
      return { rows: ids.filter((id) => stored.includes(id)).map(rowOf) };
    },
  } as unknown as Queryable;
  return { db, asked };
}

describe('chunk rows kept by id', () => {
  it('reads only the rows it has not read, in one statement, and skips ids no longer stored', async () => {
    const { db, asked } = rowsDatabase([1, 2, 3]);
    const rows = new ChunkRowLru(10);
    expect((await rows.rowsOf(db, [1, 2])).rows.map((row) => row.id)).toEqual([1, 2]);
    expect((await rows.rowsOf(db, [2, 3, 4])).rows.map((row) => row.id).sort()).toEqual([2, 3]);
    expect(asked).toEqual([[1, 2], [3, 4]]);
    expect(await rows.rowsOf(db, [1, 3])).toMatchObject({ missing: 0 });
    expect(asked).toHaveLength(2);
  });

  it('without a database answers from memory alone and counts what it lacks; forgets the least recently used past its capacity', async () => {
    const { db } = rowsDatabase([1, 2, 3]);
    const rows = new ChunkRowLru(2);
    await rows.rowsOf(db, [1, 2]);
    await rows.rowsOf(undefined, [1]);
    await rows.rowsOf(db, [3]);
    const offline = await rows.rowsOf(undefined, [1, 2, 3]);
    expect(offline.rows.map((row) => row.id).sort()).toEqual([1, 3]);
    expect(offline.missing).toBe(1);
  });
});
