import type pg from 'pg';
import type { PostingList } from '../lexical/segment.js';
import { CHUNK_COLUMNS, type IdChunkRow } from './pg-rows.js';

/** What reads go through: the pool (one statement, its own snapshot) or a client in a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

/** Decoded postings kept in memory at most (bytes), as the SQLite reader's POSTINGS_CACHE_BYTES. */
export const POSTINGS_CACHE_BYTES = 64 * 1024 * 1024;
/** Chunk rows (the passages search returns) kept in memory at most. */
export const CHUNK_ROWS_CACHED = 10_000;

/** Decoded postings by (segment, term), least recently used out first past the byte budget. */
export class PostingsLru {
  private readonly entries = new Map<string, PostingList | undefined>();
  private bytes = 0;
  constructor(private readonly budget: number) {}
  has(key: string): boolean {
    return this.entries.has(key);
  }
  get(key: string): PostingList | undefined {
    const list = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, list);
    return list;
  }
  set(key: string, list: PostingList | undefined): void {
    this.entries.set(key, list);
    this.bytes += key.length * 2 + 64 + (list === undefined ? 0 : list.docs.byteLength + list.tfs.byteLength);
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.budget || oldest === key) break;
      this.entries.delete(oldest);
      this.bytes -= oldest.length * 2 + 64 + (old === undefined ? 0 : old.docs.byteLength + old.tfs.byteLength);
    }
  }
}

/**
 * Chunk rows by id, least recently used out first. A chunk's id is never reused and its row
 * (text, page URL and title) never changes: a changed page gets new chunks, so a row read once
 * stays true for as long as a snapshot scores its id.
 */
export class ChunkRowLru {
  private readonly rows = new Map<number, IdChunkRow>();
  constructor(private readonly capacity: number) {}
  /** The rows of these ids: from memory, the others by one statement (none when `db` is undefined: then only those in memory). */
  async rowsOf(db: Queryable | undefined, ids: readonly number[]): Promise<{ rows: IdChunkRow[]; missing: number }> {
    const rows: IdChunkRow[] = [];
    const missing: number[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row === undefined) missing.push(id);
      else {
        this.rows.delete(id);
        this.rows.set(id, row);
        rows.push(row);
      }
    }
    if (missing.length === 0 || db === undefined) return { rows, missing: missing.length };
    const read = await db.query<IdChunkRow>(`SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.id = ANY($1::int[])`, [missing]);
    for (const row of read.rows) {
      this.rows.set(row.id, row);
      rows.push(row);
    }
    for (const oldest of this.rows.keys()) {
      if (this.rows.size <= this.capacity) break;
      this.rows.delete(oldest);
    }
    return { rows, missing: 0 };
  }
}
