import type Database from 'better-sqlite3';
import { decodePostings, type PostingList } from '../lexical/segment.js';
import { FIELD_COUNT } from '../lexical/fields.js';
import { alignedCopy, blobOf } from './blobs.js';
import type { LexicalStats, SegmentListing, StoredSegment } from '../lexical/segment-storage.js';

type Prepare = (sql: string) => Database.Statement;

export type { LexicalStats, SegmentListing, StoredSegment } from '../lexical/segment-storage.js';
export { findDocument } from '../lexical/segment-storage.js';

export function readStats(prepare: Prepare): LexicalStats {
  const row = prepare('SELECT documents, lengths, generation FROM lexical_stats WHERE id = 1').get() as { documents: number; lengths: string; generation: number } | undefined;
  if (row === undefined) return { documents: 0, lengths: new Array<number>(FIELD_COUNT).fill(0), generation: 0 };
  return { documents: row.documents, lengths: JSON.parse(row.lengths) as number[], generation: row.generation };
}

/** Writes the statistics with the next generation: every commit that changes the index calls it once. */
export function writeStats(prepare: Prepare, stats: LexicalStats): void {
  prepare('INSERT OR REPLACE INTO lexical_stats (id, documents, lengths, generation) VALUES (1, ?, ?, ?)').run(stats.documents, JSON.stringify(stats.lengths), stats.generation + 1);
}

export function listSegments(prepare: Prepare): SegmentListing[] {
  return prepare('SELECT id, doc_count, deleted_count FROM lexical_segments ORDER BY id').all() as SegmentListing[];
}

/** Stores a new segment's documents (none deleted yet); its id, for its postings. */
export function insertSegment(prepare: Prepare, rowIds: Float64Array, lengths: Uint16Array, linkKeys: Uint32Array): number {
  return Number(
    prepare('INSERT INTO lexical_segments (doc_count, row_ids, lengths, link_keys, deleted) VALUES (?, ?, ?, ?, ?)').run(
      rowIds.length,
      blobOf(rowIds),
      blobOf(lengths),
      blobOf(linkKeys),
      Buffer.alloc(Math.ceil(rowIds.length / 8)),
    ).lastInsertRowid,
  );
}

export function readSegment(prepare: Prepare, id: number): StoredSegment {
  const row = prepare('SELECT doc_count, row_ids, lengths, link_keys FROM lexical_segments WHERE id = ?').get(id) as
    | { doc_count: number; row_ids: Buffer; lengths: Buffer; link_keys: Buffer }
    | undefined;
  if (row === undefined) throw new Error(`Lexical segment ${id} is gone: the index changed while it was read.`);
  return {
    id,
    count: row.doc_count,
    rowIds: new Float64Array(alignedCopy(row.row_ids)),
    lengths: new Uint16Array(alignedCopy(row.lengths)),
    linkKeys: new Uint32Array(alignedCopy(row.link_keys)),
  };
}

/** The segment's tombstones: one bit per document, set when deleted. */
export function readDeleted(prepare: Prepare, id: number): Uint8Array {
  const bytes = prepare('SELECT deleted FROM lexical_segments WHERE id = ?').pluck().get(id) as Buffer | undefined;
  return bytes === undefined ? new Uint8Array(0) : new Uint8Array(bytes);
}

/**
 * Decoded postings of (segment, term), least recently used first out once their bytes pass the
 * budget. Segments never change, so an entry is never stale; a merged-away segment's entries
 * simply age out.
 */
export class PostingsCache {
  private readonly entries = new Map<string, PostingList | undefined>();
  private bytes = 0;
  constructor(private readonly budgetBytes: number) {}

  get(segmentId: number, term: string, read: () => Buffer | undefined): PostingList | undefined {
    const key = `${segmentId}\u0000${term}`;
    if (this.entries.has(key)) {
      const list = this.entries.get(key);
      this.entries.delete(key);
      this.entries.set(key, list);
      return list;
    }
    const bytes = read();
    const list = bytes === undefined ? undefined : decodePostings(bytes);
    this.entries.set(key, list);
    this.bytes += sizeOf(key, list);
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.budgetBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.bytes -= sizeOf(oldest, old);
    }
    return list;
  }
}

const sizeOf = (key: string, list: PostingList | undefined) => key.length * 2 + 64 + (list === undefined ? 0 : list.docs.byteLength + list.tfs.byteLength);
