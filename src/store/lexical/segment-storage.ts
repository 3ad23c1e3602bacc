import { liveFieldMeans } from './live-field-means.js';
import { FIELD_COUNT } from './fields.js';
import type { ScoringIndex, ScoringSegment } from './scoring-types.js';
import { type AnalyzedDocument, analyzeDocument, type PostingList } from './segment.js';

/*
 * What every store of the segmented lexical index shares, whatever holds its rows (a SQLite
 * file, PostgreSQL tables): the stored shapes, how a flush lays out a new segment, which
 * segments merge, and how merged documents and postings are renumbered. A backend only reads
 * and writes the rows; the bytes and numbers are made here, so both hold identical segments and
 * score identically.
 */

/** A stored segment's documents, as read once: they never change, only its tombstones do. */
export interface StoredSegment {
  id: number;
  count: number;
  /** Ascending: a chunk's document is found by binary search. */
  rowIds: Float64Array;
  lengths: Uint16Array;
  /** Per document: its entry key, then its page key (ids in lexical_keys; 0 for none). */
  linkKeys: Uint32Array;
}

export interface SegmentListing {
  id: number;
  doc_count: number;
  deleted_count: number;
}

/** The index-wide statistics row: live documents, each field's total length, and the commit generation. */
export interface LexicalStats {
  documents: number;
  /** Each field's total length over the live documents: kept with each commit, though scoring reads its means from the segments (`liveFieldMeans`). */
  lengths: number[];
  generation: number;
}

/** Postings of one term while a segment is built: growable typed arrays, not arrays of numbers. */
export class GrowingPostings {
  docs = new Uint32Array(4);
  tfs = new Uint8Array(4 * FIELD_COUNT);
  length = 0;
  push(doc: number, counts: Uint8Array): void {
    if (this.length === this.docs.length) {
      const docs = new Uint32Array(this.length * 2);
      docs.set(this.docs);
      this.docs = docs;
      const tfs = new Uint8Array(this.length * 2 * FIELD_COUNT);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.docs[this.length] = doc;
    this.tfs.set(counts, this.length * FIELD_COUNT);
    this.length += 1;
  }

  list(): PostingList {
    return { docs: this.docs.subarray(0, this.length), tfs: this.tfs.subarray(0, this.length * FIELD_COUNT) };
  }
}

/** Segments of one size tier that are merged into one (Lucene's segmentsPerTier, Tantivy's merge factor). */
export const MERGE_FACTOR = 10;
/** Live documents below which a segment is in tier 0; each tier above holds ten times more. */
const TIER_BASE = 1_000;

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

/** Orders strings as SQLite's BINARY collation (and PostgreSQL's "C") does: UTF-8 bytes, that is code points, not UTF-16 units. */
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

/** The documents of a merge: the live ones of the sources in row-id order, and where each source document went (-1: dropped). */
export interface MergedDocuments {
  rowIds: Float64Array;
  lengths: Uint16Array;
  linkKeys: Uint32Array;
  remaps: Int32Array[];
}

export function mergedDocuments(sources: readonly StoredSegment[], deleted: readonly Uint8Array[]): MergedDocuments {
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
  return { rowIds, lengths, linkKeys, remaps };
}

/** One term's postings in the merged segment, from its lists in the sources and their remaps; undefined when no live document has it. */
export function mergePostingLists(lists: readonly { list: PostingList; remap: Int32Array }[]): PostingList | undefined {
  const total = lists.reduce((sum, { list }) => sum + list.docs.length, 0);
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
  if (filled === 0) return undefined;
  docs = docs.subarray(0, filled);
  tfs = tfs.subarray(0, filled * FIELD_COUNT);
  // Segments hold ascending row ids and later ones higher ids, so their documents mostly come in
  // order already; a reused row id can interleave them, and then they are sorted.
  return ascending ? { docs, tfs } : sortedPostings(docs, tfs);
}

function sortedPostings(docs: Uint32Array, tfs: Uint8Array): PostingList {
  const order = Array.from(docs.keys()).sort((a, b) => (docs[a] as number) - (docs[b] as number));
  const sortedDocs = new Uint32Array(docs.length);
  const sortedTfs = new Uint8Array(tfs.length);
  order.forEach((from, to) => {
    sortedDocs[to] = docs[from] as number;
    sortedTfs.set(tfs.subarray(from * FIELD_COUNT, (from + 1) * FIELD_COUNT), to * FIELD_COUNT);
  });
  return { docs: sortedDocs, tfs: sortedTfs };
}

/** The position of a row id in a segment, or -1. */
export function findDocument(segment: StoredSegment, rowId: number): number {
  let low = 0;
  let high = segment.count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = segment.rowIds[middle] as number;
    if (found === rowId) return middle;
    if (found < rowId) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Statistics as stored (a JSON array of field totals), with every field present. */
export function statsOf(documents: number, lengthsJson: string, generation: number): LexicalStats {
  const stored = JSON.parse(lengthsJson) as number[];
  return { documents, lengths: Array.from({ length: FIELD_COUNT }, (_, field) => stored[field] ?? 0), generation };
}

/** The keys of one document in lexical_keys: its entry (0 when it has none) and its page. */
export interface DocumentKeys {
  entry: number;
  page: number;
}

/** A chunk's row as the index reads it (its page's url and title, its heading path as stored JSON). */
export interface ChunkSourceRow {
  id: number;
  url: string;
  title: string;
  anchor: string | null;
  heading_path: string;
  text: string;
}

/** A waiting chunk's row, with the anchor of its page's first chunk (see `analyzeDocument`). */
export interface PendingChunkRow extends ChunkSourceRow {
  intro_anchor: string | null;
}

/** Analyses a chunk's row as the index reads it; `introAnchor` as `analyzeDocument` takes it. */
export function analyzeRow(row: ChunkSourceRow, introAnchor: string | undefined): AnalyzedDocument {
  return analyzeDocument(
    {
      pageUrl: row.url,
      pageTitle: row.title,
      headingPath: JSON.parse(row.heading_path) as string[],
      text: row.text,
      ...(row.anchor === null ? {} : { anchor: row.anchor }),
    },
    introAnchor,
  );
}

/** A new segment while a flush lays it out: its documents' arrays and each term's postings. */
export interface SegmentBuild {
  rowIds: Float64Array;
  lengths: Uint16Array;
  linkKeys: Uint32Array;
  postings: Map<string, GrowingPostings>;
}

export function newSegmentBuild(count: number): SegmentBuild {
  return { rowIds: new Float64Array(count), lengths: new Uint16Array(count * FIELD_COUNT), linkKeys: new Uint32Array(count * 2), postings: new Map() };
}

/** Analyses a waiting chunk into document `ordinal` of the new segment, adding its lengths to the statistics; its analysis (for the link counts). */
export function addDocument(build: SegmentBuild, stats: LexicalStats, ordinal: number, row: PendingChunkRow): AnalyzedDocument {
  const document = analyzeRow(row, row.intro_anchor ?? undefined);
  build.rowIds[ordinal] = row.id;
  document.lengths.forEach((length, field) => {
    build.lengths[ordinal * FIELD_COUNT + field] = length;
    stats.lengths[field] = (stats.lengths[field] ?? 0) + length;
  });
  for (const [term, counts] of document.termCounts) {
    let list = build.postings.get(term);
    if (list === undefined) build.postings.set(term, (list = new GrowingPostings()));
    list.push(ordinal, counts);
  }
  return document;
}

export function setLinkKeys(build: SegmentBuild, ordinal: number, keys: DocumentKeys): void {
  build.linkKeys[ordinal * 2] = keys.entry;
  build.linkKeys[ordinal * 2 + 1] = keys.page;
}

/** A segment's tombstones while a removal writes them: the bits, and how many it set. */
export interface Tombstones {
  deleted: Uint8Array;
  added: number;
}

/** Sets a document's tombstone and takes it out of the statistics; false when it already had one. */
export function tombstone(segment: StoredSegment, doc: number, marks: Tombstones, stats: LexicalStats): boolean {
  const mask = 1 << (doc & 7);
  if (((marks.deleted[doc >> 3] as number) & mask) !== 0) return false;
  marks.deleted[doc >> 3] = (marks.deleted[doc >> 3] as number) | mask;
  marks.added += 1;
  for (let field = 0; field < FIELD_COUNT; field += 1) stats.lengths[field] = (stats.lengths[field] ?? 0) - (segment.lengths[doc * FIELD_COUNT + field] as number);
  stats.documents -= 1;
  return true;
}

export function documentKeys(segment: StoredSegment, doc: number): DocumentKeys {
  return { entry: segment.linkKeys[doc * 2] as number, page: segment.linkKeys[doc * 2 + 1] as number };
}

/** The index the scorer reads: the segments of one generation, with its statistics and link maxima. */
export function scoringIndex(stats: LexicalStats, maxima: { maxEntryLinks: number; maxPageLinks: number }, segments: readonly ScoringSegment[]): ScoringIndex {
  return {
    documents: stats.documents,
    averageLengths: liveFieldMeans(segments),
    maxInlinks: maxima.maxEntryLinks,
    maxPageInlinks: maxima.maxPageLinks,
    segments,
  };
}
