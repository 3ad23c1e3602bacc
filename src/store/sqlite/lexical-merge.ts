import type Database from 'better-sqlite3';
import { decodePostings, encodePostings, type PostingList } from '../lexical/segment.js';
import { compareCodePoints, mergedDocuments, mergePostingLists } from '../lexical/segment-storage.js';
import { insertSegment, readDeleted, type StoredSegment } from './lexical-segment-rows.js';

export { chooseMerge, compareCodePoints, MERGE_FACTOR } from '../lexical/segment-storage.js';

type Prepare = (sql: string) => Database.Statement;

/** Terms read at a time from each merged segment: bounds the memory a merge holds. */
const TERMS_PER_READ = 2_000;

/** One merged segment's terms in order, read a page at a time. */
class TermCursor {
  private rows: { term: string; postings: Buffer }[] = [];
  private position = 0;
  private done = false;
  constructor(
    private readonly prepare: Prepare,
    private readonly segmentId: number,
  ) {
    this.read(undefined);
  }

  get head(): { term: string; postings: Buffer } | undefined {
    return this.rows[this.position];
  }

  advance(): void {
    const last = this.rows[this.position];
    this.position += 1;
    if (this.position >= this.rows.length && !this.done && last !== undefined) this.read(last.term);
  }

  private read(after: string | undefined): void {
    this.rows = (
      after === undefined
        ? this.prepare('SELECT term, postings FROM lexical_postings WHERE segment_id = ? ORDER BY term LIMIT ?').all(this.segmentId, TERMS_PER_READ)
        : this.prepare('SELECT term, postings FROM lexical_postings WHERE segment_id = ? AND term > ? ORDER BY term LIMIT ?').all(this.segmentId, after, TERMS_PER_READ)
    ) as { term: string; postings: Buffer }[];
    this.position = 0;
    if (this.rows.length < TERMS_PER_READ) this.done = true;
  }
}

/**
 * Merges segments into one of their live documents, in row-id order, and deletes them; the
 * documents read. Statistics and link counts stay as they are: the live documents are the same.
 */
export function mergeSegments(prepare: Prepare, sources: readonly StoredSegment[]): number {
  const deleted = sources.map((source) => readDeleted(prepare, source.id));
  const { rowIds, lengths, linkKeys, remaps } = mergedDocuments(sources, deleted);
  const count = rowIds.length;
  if (count > 0) {
    const id = insertSegment(prepare, rowIds, lengths, linkKeys);
    writeMergedPostings(prepare, id, sources, remaps);
  }
  for (const source of sources) {
    prepare('DELETE FROM lexical_postings WHERE segment_id = ?').run(source.id);
    prepare('DELETE FROM lexical_segments WHERE id = ?').run(source.id);
  }
  return Math.max(1, sources.reduce((sum, source) => sum + source.count, 0));
}

/** Merges the sources' postings term by term (a k-way merge of their term orders), renumbering the documents. */
function writeMergedPostings(prepare: Prepare, id: number, sources: readonly StoredSegment[], remaps: readonly Int32Array[]): void {
  const cursors = sources.map((source) => new TermCursor(prepare, source.id));
  const insert = prepare('INSERT INTO lexical_postings (segment_id, term, postings) VALUES (?, ?, ?)');
  for (;;) {
    let term: string | undefined;
    for (const cursor of cursors) {
      const head = cursor.head;
      if (head !== undefined && (term === undefined || compareCodePoints(head.term, term) < 0)) term = head.term;
    }
    if (term === undefined) return;
    const lists: { list: PostingList; remap: Int32Array }[] = [];
    cursors.forEach((cursor, index) => {
      const head = cursor.head;
      if (head === undefined || head.term !== term) return;
      const list = decodePostings(head.postings);
      lists.push({ list, remap: remaps[index] as Int32Array });
      cursor.advance();
    });
    const merged = mergePostingLists(lists);
    if (merged !== undefined) insert.run(id, term, encodePostings(merged));
  }
}
