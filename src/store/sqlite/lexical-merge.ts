import type Database from 'better-sqlite3';
import { FIELD_COUNT } from '../lexical/fields.js';
import { decodePostings, encodePostings, type PostingList } from '../lexical/segment.js';
import { insertSegment, readDeleted, type SegmentListing, type StoredSegment } from './lexical-segment-rows.js';

type Prepare = (sql: string) => Database.Statement;

/** Segments of one size tier that are merged into one (Lucene's segmentsPerTier, Tantivy's merge factor). */
export const MERGE_FACTOR = 10;
/** Live documents below which a segment is in tier 0; each tier above holds ten times more. */
const TIER_BASE = 1_000;
/** Terms read at a time from each merged segment: bounds the memory a merge holds. */
const TERMS_PER_READ = 2_000;

const liveOf = (segment: SegmentListing) => segment.doc_count - segment.deleted_count;
const tierOf = (segment: SegmentListing) => (liveOf(segment) < TIER_BASE ? 0 : Math.floor(Math.log10(liveOf(segment) / TIER_BASE)) + 1);

/**
 * The next merge, if one is due and fits the budget (documents read): a segment more than half
 * deleted is rewritten alone, which drops its tombstones; else the MERGE_FACTOR smallest segments
 * of the lowest tier that has that many. Segments too large to merge within the budget stay as
 * they are, so no update ever pays for rewriting the whole index.
 */
export function chooseMerge(segments: readonly SegmentListing[], budget: number): number[] | undefined {
  const expunge = segments.find((segment) => segment.deleted_count * 2 > segment.doc_count && segment.doc_count <= budget);
  if (expunge !== undefined) return [expunge.id];
  const tiers = new Map<number, SegmentListing[]>();
  for (const segment of segments) {
    const tier = tierOf(segment);
    tiers.set(tier, [...(tiers.get(tier) ?? []), segment]);
  }
  for (const tier of [...tiers.keys()].sort((a, b) => a - b)) {
    const members = (tiers.get(tier) as SegmentListing[]).sort((a, b) => liveOf(a) - liveOf(b) || a.id - b.id);
    if (members.length < MERGE_FACTOR) continue;
    const chosen = members.slice(0, MERGE_FACTOR);
    if (chosen.reduce((sum, segment) => sum + segment.doc_count, 0) <= budget) return chosen.map((segment) => segment.id).sort((a, b) => a - b);
  }
  return undefined;
}

/** Orders strings as SQLite's BINARY collation does (UTF-8 bytes, that is code points), not as UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    let x = a.charCodeAt(index);
    let y = b.charCodeAt(index);
    if (x === y) continue;
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return x - y;
  }
  return a.length - b.length;
}

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
  const live: { source: number; doc: number; rowId: number }[] = [];
  sources.forEach((source, index) => {
    const marks = deleted[index] as Uint8Array;
    for (let doc = 0; doc < source.count; doc += 1) {
      if (((marks[doc >> 3] ?? 0) & (1 << (doc & 7))) === 0) live.push({ source: index, doc, rowId: source.rowIds[doc] as number });
    }
  });
  live.sort((a, b) => a.rowId - b.rowId);
  const remaps = sources.map((source) => new Int32Array(source.count).fill(-1));
  const count = live.length;
  const rowIds = new Float64Array(count);
  const lengths = new Uint16Array(count * FIELD_COUNT);
  const linkKeys = new Uint32Array(count * 2);
  live.forEach(({ source, doc, rowId }, ordinal) => {
    const from = sources[source] as StoredSegment;
    (remaps[source] as Int32Array)[doc] = ordinal;
    rowIds[ordinal] = rowId;
    lengths.set(from.lengths.subarray(doc * FIELD_COUNT, (doc + 1) * FIELD_COUNT), ordinal * FIELD_COUNT);
    linkKeys.set(from.linkKeys.subarray(doc * 2, doc * 2 + 2), ordinal * 2);
  });
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
    let total = 0;
    cursors.forEach((cursor, index) => {
      const head = cursor.head;
      if (head === undefined || head.term !== term) return;
      const list = decodePostings(head.postings);
      lists.push({ list, remap: remaps[index] as Int32Array });
      total += list.docs.length;
      cursor.advance();
    });
    let docs: Uint32Array = new Uint32Array(total);
    let tfs: Uint8Array = new Uint8Array(total * FIELD_COUNT);
    let filled = 0;
    let ascending = true;
    for (const { list, remap } of lists) {
      for (let position = 0; position < list.docs.length; position += 1) {
        const doc = remap[list.docs[position] as number] as number;
        if (doc < 0) continue;
        if (filled > 0 && doc < (docs[filled - 1] as number)) ascending = false;
        docs[filled] = doc;
        tfs.set(list.tfs.subarray(position * FIELD_COUNT, (position + 1) * FIELD_COUNT), filled * FIELD_COUNT);
        filled += 1;
      }
    }
    if (filled === 0) continue;
    docs = docs.subarray(0, filled);
    tfs = tfs.subarray(0, filled * FIELD_COUNT);
    // Segments hold ascending row ids and later ones higher ids, so their documents mostly come in
    // order already; a reused row id can interleave them, and then they are sorted.
    if (!ascending) ({ docs, tfs } = sortedPostings(docs, tfs));
    insert.run(id, term, encodePostings({ docs, tfs }));
  }
}

function sortedPostings(docs: Uint32Array, tfs: Uint8Array): { docs: Uint32Array; tfs: Uint8Array } {
  const order = Array.from(docs.keys()).sort((a, b) => (docs[a] as number) - (docs[b] as number));
  const sortedDocs = new Uint32Array(docs.length);
  const sortedTfs = new Uint8Array(tfs.length);
  order.forEach((from, to) => {
    sortedDocs[to] = docs[from] as number;
    sortedTfs.set(tfs.subarray(from * FIELD_COUNT, (from + 1) * FIELD_COUNT), to * FIELD_COUNT);
  });
  return { docs: sortedDocs, tfs: sortedTfs };
}
