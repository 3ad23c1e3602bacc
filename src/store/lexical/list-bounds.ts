import type { QueryScoring, ScoringSegment } from './scoring-types.js';
import { weightedCount } from './weighted-count.js';
import type { PostingList } from './segment.js';

/** A cached bound is reused while the mean lengths have grown by at most this factor since it was computed. */
const MAX_REUSED_GROWTH = 1.05;

/** Postings per block whose largest weighted count is kept: a run of documents none of which can enter is skipped a block at a time. */
export const BLOCK_SIZE = 64;

/** The largest weighted term count (Σ field weight × count / norm) of a list and of each block of it, for some weights and b, at some mean lengths. */
interface ListBound {
  key: string;
  averages: readonly number[];
  weighted: number;
  blocks: Float64Array;
}

/** Blocks whose bounds are kept at most, over all lists (8 bytes each): 2 M blocks are 128 M postings' bounds in 16 MB. */
export const BOUNDS_CACHE_BLOCKS = 2 * 1024 * 1024;

/**
 * Bounds by segment and term, least recently used first. They outlive the decoded list (which a
 * bounded postings cache may drop and read again): a list read again needs no pass over it. A
 * segment is known by its row-id array, which never changes and which its scoped views share.
 */
const segmentNumbers = new WeakMap<Float64Array, number>();
let segmentsNumbered = 0;
const cached = new Map<string, ListBound>();
let cachedBlocks = 0;

function keyOf(segment: ScoringSegment, term: string): string {
  let number = segmentNumbers.get(segment.rowIds);
  if (number === undefined) segmentNumbers.set(segment.rowIds, (number = (segmentsNumbered += 1)));
  return `${number}\u0000${term}`;
}

function remember(key: string, bound: ListBound): void {
  const old = cached.get(key);
  if (old !== undefined) cachedBlocks -= old.blocks.length;
  cached.delete(key);
  cached.set(key, bound);
  cachedBlocks += bound.blocks.length;
  for (const [oldest, evicted] of cached) {
    if (cachedBlocks <= BOUNDS_CACHE_BLOCKS || oldest === key) break;
    cached.delete(oldest);
    cachedBlocks -= evicted.blocks.length;
  }
}

/** A list's bounds scaled to the query's mean lengths: `weighted × growth` bounds every document's weighted count. */
export interface ScaledBound {
  weighted: number;
  blocks: Float64Array;
  growth: number;
}

/**
 * How much larger any weighted count can be at the mean lengths `now` than at `then`: a field's
 * norm 1 − b + b × length / mean shrinks at most by the factor its mean grew. Infinity when a
 * field gained or lost its first length (its norm was or becomes 1 whatever the length).
 */
function growthSince(then: readonly number[], now: readonly number[]): number {
  let growth = 1;
  for (let field = 0; field < now.length; field += 1) {
    const before = then[field] ?? 0;
    const after = now[field] ?? 0;
    if (before === 0 || after === 0) {
      if (before !== after) return Number.POSITIVE_INFINITY;
      continue;
    }
    if (after > before) growth = Math.max(growth, after / before);
  }
  return growth;
}

/**
 * Upper bounds of the weighted count of the documents of `list`, over the list and per block
 * (deleted documents included, so they hold for any tombstones or scope). Computed once per
 * list and kept with it while the list is cached: later queries reuse them, scaled by how much
 * the mean lengths have grown since.
 */
export function weightedBound(segment: ScoringSegment, term: string, list: PostingList, norms: Float32Array, query: QueryScoring): ScaledBound {
  const key = keyOf(segment, term);
  const known = cached.get(key);
  if (known !== undefined && known.key === query.boundKey && known.blocks.length === Math.ceil(list.docs.length / BLOCK_SIZE)) {
    const growth = growthSince(known.averages, query.averages);
    if (growth <= MAX_REUSED_GROWTH) {
      cached.delete(key);
      cached.set(key, known);
      return { weighted: known.weighted * growth, blocks: known.blocks, growth };
    }
  }
  const { docs, tfs } = list;
  const { weights } = query;
  const blocks = new Float64Array(Math.ceil(docs.length / BLOCK_SIZE));
  let most = 0;
  for (let index = 0; index < docs.length; index += 1) {
    const weighted = weightedCount(tfs, index, norms, docs[index] as number, weights);
    const block = Math.floor(index / BLOCK_SIZE);
    if (weighted > (blocks[block] as number)) blocks[block] = weighted;
    if (weighted > most) most = weighted;
  }
  remember(key, { key: query.boundKey, averages: [...query.averages], weighted: most, blocks });
  return { weighted: most, blocks, growth: 1 };
}

