import type Database from 'better-sqlite3';
import { FIELD_COUNT } from '../lexical/fields.js';
import { encodePostings } from '../lexical/segment.js';
import {
  addDocument, analyzeRow, type ChunkSourceRow, documentKeys, type GrowingPostings, newSegmentBuild, type PendingChunkRow, setLinkKeys, tombstone, type Tombstones,
} from '../lexical/segment-storage.js';
import { createLinkCounts } from './lexical-links.js';
import { mergeSegments, chooseMerge } from './lexical-merge.js';
import { findDocument, insertSegment, listSegments, readDeleted, readSegment, readStats, type StoredSegment, writeStats } from './lexical-segment-rows.js';

type Prepare = (sql: string) => Database.Statement;

/** Chunks indexed per flush: bounds the memory a flush builds in (one segment's postings). */
export const FLUSH_DOCS = 20_000;
/** Documents merged at most per refresh: an update never pays for more (the rest waits for the next). */
export const MERGE_DOCS_PER_REFRESH = 250_000;

export interface LexicalWriter {
  /** Records chunks just stored: the next flush indexes them. Inside the transaction that stored them. */
  added(chunkIds: readonly number[]): void;
  /**
   * Takes a page's chunks out of the index before they are deleted: a chunk still waiting is
   * forgotten, an indexed one gets its tombstone, and the statistics and link counts lose it.
   * Inside the transaction that deletes them.
   */
  removePage(pageId: number): void;
  /** Indexes the waiting chunks (FLUSH_DOCS to a segment), then merges within the budget; whether anything changed. */
  refresh(): boolean;
  /** Whether chunks wait for a flush. */
  hasPending(): boolean;
  /** Drops the whole index and queues every chunk, recording the format: for an index in another layout. */
  reset(format: number, formatKey: string): void;
}

/**
 * Writes the segmented index: new chunks wait in lexical_pending and go into a new segment at
 * the next flush; deleted chunks become tombstones at once (with the statistics and link counts
 * they took part in); segments merge by size tiers. Each step is one transaction.
 */
export function createLexicalWriter(database: Database.Database, prepare: Prepare): LexicalWriter {
  const links = createLinkCounts(prepare);
  const segments = new Map<number, StoredSegment>();
  const segmentOf = (id: number) => {
    let segment = segments.get(id);
    if (segment === undefined) segments.set(id, (segment = readSegment(prepare, id)));
    return segment;
  };

  const flushBatch = database.transaction((limit: number): number => {
    const rows = prepare(
      `SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text,
              (SELECT f.anchor FROM chunks f WHERE f.page_id = c.page_id ORDER BY f.ordinal LIMIT 1) AS intro_anchor
         FROM lexical_pending l JOIN chunks c ON c.id = l.chunk_id JOIN pages p ON p.id = c.page_id
        ORDER BY l.chunk_id LIMIT ?`,
    ).all(limit) as PendingChunkRow[];
    if (rows.length === 0) return 0;
    const stats = readStats(prepare);
    const count = rows.length;
    const build = newSegmentBuild(count);
    rows.forEach((row, ordinal) => {
      const document = addDocument(build, stats, ordinal, row);
      setLinkKeys(build, ordinal, links.add(document, row.url));
    });
    const { postings } = build;
    const id = insertSegment(prepare, build.rowIds, build.lengths, build.linkKeys);
    const insert = prepare('INSERT INTO lexical_postings (segment_id, term, postings) VALUES (?, ?, ?)');
    for (const term of [...postings.keys()].sort()) {
      const list = postings.get(term) as GrowingPostings;
      insert.run(id, term, encodePostings(list.list()));
    }
    prepare('DELETE FROM lexical_pending WHERE chunk_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(rows.map((row) => row.id)));
    writeStats(prepare, { ...stats, documents: stats.documents + count });
    return count;
  });

  const mergeOnce = database.transaction((budget: number): number => {
    const choice = chooseMerge(listSegments(prepare), budget);
    if (choice === undefined) return 0;
    const merged = mergeSegments(prepare, choice.map(segmentOf));
    for (const id of choice) segments.delete(id);
    writeStats(prepare, readStats(prepare));
    return merged;
  });

  return {
    added(chunkIds: readonly number[]): void {
      const insert = prepare('INSERT OR IGNORE INTO lexical_pending (chunk_id) VALUES (?)');
      for (const id of chunkIds) insert.run(id);
    },

    removePage(pageId: number): void {
      const rows = prepare(
        'SELECT c.id, p.url, p.title, c.anchor, c.heading_path, c.text FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.page_id = ? ORDER BY c.id',
      ).all(pageId) as ChunkSourceRow[];
      if (rows.length === 0) return;
      const forget = prepare('DELETE FROM lexical_pending WHERE chunk_id = ?');
      const listing = listSegments(prepare);
      const tombstones = new Map<number, Tombstones>();
      const stats = readStats(prepare);
      let changed = false;
      for (const row of rows) {
        if (forget.run(row.id).changes > 0) continue;
        for (const { id } of listing) {
          const segment = segmentOf(id);
          const doc = findDocument(segment, row.id);
          if (doc < 0) continue;
          let marks = tombstones.get(id);
          if (marks === undefined) tombstones.set(id, (marks = { deleted: readDeleted(prepare, id), added: 0 }));
          if (!tombstone(segment, doc, marks, stats)) continue;
          links.remove(analyzeRow(row, undefined), documentKeys(segment, doc));
          changed = true;
          break;
        }
      }
      const update = prepare('UPDATE lexical_segments SET deleted = ?, deleted_count = deleted_count + ? WHERE id = ?');
      for (const [id, marks] of tombstones) update.run(Buffer.from(marks.deleted.buffer, marks.deleted.byteOffset, marks.deleted.byteLength), marks.added, id);
      if (changed) writeStats(prepare, stats);
    },

    refresh(): boolean {
      let changed = false;
      while (flushBatch(FLUSH_DOCS) > 0) changed = true;
      let budget = MERGE_DOCS_PER_REFRESH;
      for (;;) {
        const merged = mergeOnce(budget);
        if (merged === 0) break;
        changed = true;
        budget -= merged;
      }
      return changed;
    },

    hasPending(): boolean {
      return prepare('SELECT EXISTS (SELECT 1 FROM lexical_pending)').pluck().get() === 1;
    },

    reset: database.transaction((format: number, formatKey: string): void => {
      for (const table of ['lexical_segments', 'lexical_postings', 'lexical_keys', 'lexical_page_links', 'lexical_pending']) prepare(`DELETE FROM ${table}`).run();
      prepare('INSERT INTO lexical_pending (chunk_id) SELECT id FROM chunks').run();
      const { generation } = readStats(prepare);
      writeStats(prepare, { documents: 0, lengths: new Array<number>(FIELD_COUNT).fill(0), generation });
      prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(formatKey, String(format));
      segments.clear();
    }),
  };
}
