import type pg from 'pg';
import { decodePostings, encodePostings, type PostingList } from '../lexical/segment.js';
import {
  addDocument, analyzeRow, type ChunkSourceRow, chooseMerge, compareCodePoints, documentKeys, findDocument, type GrowingPostings, type LexicalStats, mergedDocuments, mergePostingLists,
  newSegmentBuild, type PendingChunkRow, type SegmentListing, setLinkKeys, statsOf, type StoredSegment, tombstone, type Tombstones,
} from '../lexical/segment-storage.js';
import { addLinkCounts, removeLinkCounts } from './pg-lexical-links.js';

/** Chunks indexed per flush: bounds the memory a flush builds in (as the SQLite writer's FLUSH_DOCS). */
export const FLUSH_DOCS = 20_000;
/** Documents merged at most per refresh: an update never pays for more. */
export const MERGE_DOCS_PER_REFRESH = 250_000;

const bytesOf = (array: Float64Array | Uint16Array | Uint32Array | Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
const aligned = (bytes: Buffer) => {
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return buffer;
};

/**
 * Takes the index lock: every transaction that changes the lexical index (a flush, a merge,
 * tombstones) holds the statistics row, so writers in any number of processes take turns and
 * each sees the others' commits. Returns the statistics as of the lock.
 */
export async function lockIndex(client: pg.ClientBase): Promise<LexicalStats> {
  const result = await client.query<{ documents: number; lengths: string; generation: string }>('SELECT documents, lengths, generation FROM lexical_stats WHERE id = 1 FOR UPDATE');
  const row = result.rows[0];
  return row === undefined ? statsOf(0, '[]', 0) : statsOf(row.documents, row.lengths, Number(row.generation));
}

export async function readStats(client: pg.ClientBase): Promise<LexicalStats> {
  const result = await client.query<{ documents: number; lengths: string; generation: string }>('SELECT documents, lengths, generation FROM lexical_stats WHERE id = 1');
  const row = result.rows[0];
  return row === undefined ? statsOf(0, '[]', 0) : statsOf(row.documents, row.lengths, Number(row.generation));
}

/** Writes the statistics with the next generation: every search reads it first, so replicas see each commit at their next search. */
async function writeStats(client: pg.ClientBase, stats: LexicalStats): Promise<void> {
  await client.query('UPDATE lexical_stats SET documents = $1, lengths = $2, generation = $3 WHERE id = 1', [stats.documents, JSON.stringify(stats.lengths), stats.generation + 1]);
}

export async function listSegments(client: pg.ClientBase): Promise<SegmentListing[]> {
  return (await client.query<SegmentListing>('SELECT id, doc_count, deleted_count FROM lexical_segments ORDER BY id')).rows;
}

export async function readSegment(client: pg.ClientBase, id: number): Promise<StoredSegment> {
  const result = await client.query<{ doc_count: number; row_ids: Buffer; lengths: Buffer; link_keys: Buffer }>('SELECT doc_count, row_ids, lengths, link_keys FROM lexical_segments WHERE id = $1', [id]);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`Lexical segment ${id} is gone: the index changed while it was read.`);
  return {
    id,
    count: row.doc_count,
    rowIds: new Float64Array(aligned(row.row_ids)),
    lengths: new Uint16Array(aligned(row.lengths)),
    linkKeys: new Uint32Array(aligned(row.link_keys)),
  };
}

export async function readDeleted(client: pg.ClientBase, id: number): Promise<Uint8Array> {
  const result = await client.query<{ deleted: Buffer }>('SELECT deleted FROM lexical_segments WHERE id = $1', [id]);
  const bytes = result.rows[0]?.deleted;
  return bytes === undefined ? new Uint8Array(0) : new Uint8Array(bytes);
}

async function insertSegment(client: pg.ClientBase, rowIds: Float64Array, lengths: Uint16Array, linkKeys: Uint32Array): Promise<number> {
  const result = await client.query<{ id: number }>('INSERT INTO lexical_segments (doc_count, row_ids, lengths, link_keys, deleted) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
    rowIds.length, bytesOf(rowIds), bytesOf(lengths), bytesOf(linkKeys), Buffer.alloc(Math.ceil(rowIds.length / 8)),
  ]);
  return (result.rows[0] as { id: number }).id;
}

/** Writes postings rows in batches (one statement per batch of terms). */
async function insertPostings(client: pg.ClientBase, id: number, entries: readonly (readonly [string, PostingList])[]): Promise<void> {
  for (let start = 0; start < entries.length; start += 2_000) {
    const batch = entries.slice(start, start + 2_000);
    await client.query('INSERT INTO lexical_postings (segment_id, term, postings) SELECT $1, * FROM unnest($2::text[], $3::bytea[])', [
      id, batch.map(([term]) => term), batch.map(([, list]) => encodePostings(list)),
    ]);
  }
}

/**
 * The segmented index's writer on PostgreSQL: the SQLite writer's steps (flush the waiting chunks
 * into a new segment, tombstones for deleted chunks, merges by size tiers), built from the same
 * shared pieces, so both hold identical segments. Every step runs in the caller's transaction
 * holding the index lock (`lockIndex`).
 */
export function createPgLexicalWriter() {
  const segments = new Map<number, StoredSegment>();
  const segmentOf = async (client: pg.ClientBase, id: number) => {
    let segment = segments.get(id);
    if (segment === undefined) segments.set(id, (segment = await readSegment(client, id)));
    return segment;
  };

  /** Indexes up to `limit` waiting chunks into a new segment; how many. */
  const flushBatch = async (client: pg.ClientBase, stats: LexicalStats, limit: number): Promise<number> => {
    const result = await client.query<PendingChunkRow>(
      `SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text,
              (SELECT f.anchor FROM chunks f WHERE f.page_id = c.page_id ORDER BY f.ordinal LIMIT 1) AS intro_anchor
         FROM lexical_pending l JOIN chunks c ON c.id = l.chunk_id JOIN pages p ON p.id = c.page_id
        ORDER BY l.chunk_id LIMIT $1`,
      [limit],
    );
    const rows = result.rows;
    if (rows.length === 0) return 0;
    const count = rows.length;
    const build = newSegmentBuild(count);
    const documents = rows.map((row, ordinal) => ({ document: addDocument(build, stats, ordinal, row), pageUrl: row.url }));
    const keys = await addLinkCounts(client, documents);
    keys.forEach((key, ordinal) => setLinkKeys(build, ordinal, key));
    const { postings } = build;
    const id = await insertSegment(client, build.rowIds, build.lengths, build.linkKeys);
    await insertPostings(client, id, [...postings.keys()].sort(compareCodePoints).map((term) => [term, (postings.get(term) as GrowingPostings).list()] as const));
    await client.query('DELETE FROM lexical_pending WHERE chunk_id = ANY($1::int[])', [rows.map((row) => row.id)]);
    stats.documents += count;
    return count;
  };

  const merge = async (client: pg.ClientBase, ids: readonly number[]): Promise<number> => {
    // One statement at a time: a client runs its queries in order.
    const sources: StoredSegment[] = [];
    for (const id of ids) sources.push(await segmentOf(client, id));
    const deleted: Uint8Array[] = [];
    for (const source of sources) deleted.push(await readDeleted(client, source.id));
    const { rowIds, lengths, linkKeys, remaps } = mergedDocuments(sources, deleted);
    if (rowIds.length > 0) {
      const id = await insertSegment(client, rowIds, lengths, linkKeys);
      // Merged in term order: every source's postings are read once (segments are at most a
      // merge budget large, which bounds this memory as FLUSH_DOCS bounds a flush's).
      const lists = new Map<string, { list: PostingList; remap: Int32Array }[]>();
      for (const [index, source] of sources.entries()) {
        const rows = await client.query<{ term: string; postings: Buffer }>('SELECT term, postings FROM lexical_postings WHERE segment_id = $1', [source.id]);
        for (const row of rows.rows) {
          let entry = lists.get(row.term);
          if (entry === undefined) lists.set(row.term, (entry = []));
          entry.push({ list: decodePostings(row.postings), remap: remaps[index] as Int32Array });
        }
      }
      const merged: [string, PostingList][] = [];
      for (const term of [...lists.keys()].sort(compareCodePoints)) {
        const list = mergePostingLists(lists.get(term) ?? []);
        if (list !== undefined) merged.push([term, list]);
      }
      await insertPostings(client, id, merged);
    }
    await client.query('DELETE FROM lexical_postings WHERE segment_id = ANY($1::int[])', [ids]);
    await client.query('DELETE FROM lexical_segments WHERE id = ANY($1::int[])', [ids]);
    for (const id of ids) segments.delete(id);
    return Math.max(1, sources.reduce((sum, source) => sum + source.count, 0));
  };

  return {
    /** Records chunks just stored: the next flush indexes them. Inside the transaction that stored them. */
    async added(client: pg.ClientBase, chunkIds: readonly number[]): Promise<void> {
      if (chunkIds.length > 0) await client.query('INSERT INTO lexical_pending (chunk_id) SELECT unnest($1::int[]) ON CONFLICT DO NOTHING', [chunkIds]);
    },

    /**
     * Takes a page's chunks out of the index before they are deleted: a waiting chunk is
     * forgotten, an indexed one gets its tombstone, and the statistics and link counts lose it.
     * Inside the transaction that deletes them; takes the index lock.
     */
    async removePage(client: pg.ClientBase, pageId: number): Promise<void> {
      const rows = (
        await client.query<ChunkSourceRow>(
          'SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.page_id = $1 ORDER BY c.id',
          [pageId],
        )
      ).rows;
      if (rows.length === 0) return;
      const stats = await lockIndex(client);
      const forgotten = new Set(
        (await client.query<{ chunk_id: number }>('DELETE FROM lexical_pending WHERE chunk_id = ANY($1::int[]) RETURNING chunk_id', [rows.map((row) => row.id)])).rows.map((row) => row.chunk_id),
      );
      const listing = await listSegments(client);
      const tombstones = new Map<number, Tombstones>();
      const removed: Parameters<typeof removeLinkCounts>[1][number][] = [];
      for (const row of rows) {
        if (forgotten.has(row.id)) continue;
        for (const { id } of listing) {
          const segment = await segmentOf(client, id);
          const doc = findDocument(segment, row.id);
          if (doc < 0) continue;
          let marks = tombstones.get(id);
          if (marks === undefined) tombstones.set(id, (marks = { deleted: await readDeleted(client, id), added: 0 }));
          if (!tombstone(segment, doc, marks, stats)) continue;
          removed.push({ document: analyzeRow(row, undefined), keys: documentKeys(segment, doc) });
          break;
        }
      }
      await removeLinkCounts(client, removed);
      for (const [id, marks] of tombstones) {
        await client.query('UPDATE lexical_segments SET deleted = $1, deleted_count = deleted_count + $2 WHERE id = $3', [bytesOf(marks.deleted), marks.added, id]);
      }
      if (removed.length > 0) await writeStats(client, stats);
    },

    /** One flush of up to FLUSH_DOCS waiting chunks, in the caller's transaction; how many were indexed. */
    async flush(client: pg.ClientBase): Promise<number> {
      const stats = await lockIndex(client);
      const count = await flushBatch(client, stats, FLUSH_DOCS);
      if (count > 0) await writeStats(client, stats);
      return count;
    },

    /** One merge within the budget, in the caller's transaction; the documents it read (0: none due). */
    async mergeOnce(client: pg.ClientBase, budget: number): Promise<number> {
      const stats = await lockIndex(client);
      const choice = chooseMerge(await listSegments(client), budget);
      if (choice === undefined) return 0;
      const merged = await merge(client, choice);
      await writeStats(client, stats);
      return merged;
    },
  };
}

export type PgLexicalWriter = ReturnType<typeof createPgLexicalWriter>;
