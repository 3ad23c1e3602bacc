import { FIELD_COUNT } from '../lexical/fields.js';
import { docStatistics, type PostingList, type Segment, type SegmentDocs } from '../lexical/segment.js';

/**
 * The part of a segment that holds only the allowed documents (the chunks of some sources),
 * renumbered 0…n-1 in their original order, with its own document count, mean field lengths
 * and link maxima: BM25F scores a scoped search exactly as it would score an index of those
 * sources alone, and its top-k is filled from them only (filtering inside retrieval, not after).
 */
const MAX_CACHED_TERMS = 20_000;

export function scopedSegment(segment: Segment, allowedRowIds: ReadonlySet<number>): Segment {
  const { docs } = segment;
  const newOrdinal = new Int32Array(docs.count).fill(-1);
  const kept: number[] = [];
  for (let ordinal = 0; ordinal < docs.count; ordinal += 1) {
    if (!allowedRowIds.has(docs.rowIds[ordinal] as number)) continue;
    newOrdinal[ordinal] = kept.length;
    kept.push(ordinal);
  }
  const lengths = new Uint16Array(kept.length * FIELD_COUNT);
  kept.forEach((ordinal, index) => lengths.set(docs.lengths.subarray(ordinal * FIELD_COUNT, (ordinal + 1) * FIELD_COUNT), index * FIELD_COUNT));
  const scoped: SegmentDocs = {
    count: kept.length,
    rowIds: Float64Array.from(kept, (ordinal) => docs.rowIds[ordinal] as number),
    lengths,
    inlinks: Uint16Array.from(kept, (ordinal) => docs.inlinks[ordinal] as number),
    pageInlinks: Uint16Array.from(kept, (ordinal) => docs.pageInlinks[ordinal] as number),
  };
  const postings = new Map<string, PostingList | undefined>();
  return {
    docs: scoped,
    ...docStatistics(scoped),
    postings(term) {
      if (postings.has(term)) return postings.get(term);
      // Bounded: a long-running server asks for many terms over time.
      if (postings.size >= MAX_CACHED_TERMS) postings.clear();
      const list = segment.postings(term);
      const filtered = list === undefined ? undefined : filterPostings(list, newOrdinal);
      postings.set(term, filtered);
      return filtered;
    },
  };
}

function filterPostings(list: PostingList, newOrdinal: Int32Array): PostingList | undefined {
  const docs: number[] = [];
  const tfs: number[] = [];
  for (let index = 0; index < list.docs.length; index += 1) {
    const ordinal = newOrdinal[list.docs[index] as number] ?? -1;
    if (ordinal < 0) continue;
    docs.push(ordinal);
    for (let field = 0; field < FIELD_COUNT; field += 1) tfs.push(list.tfs[index * FIELD_COUNT + field] as number);
  }
  return docs.length === 0 ? undefined : { docs: Uint32Array.from(docs), tfs: Uint8Array.from(tfs) };
}
