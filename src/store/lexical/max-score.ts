import type { QueryScoring, ScoredHit, ScoringIndex, ScoringSegment } from './scoring-types.js';
import { BLOCK_SIZE, weightedBound } from './list-bounds.js';
import { weightedCount } from './weighted-count.js';
import type { PostingList } from './segment.js';
import type { TopK } from './top-k.js';

/**
 * Bounds are compared with this relative margin: they are computed in floating point (sums in
 * another order, norms in single precision, mean lengths that moved since), so a document is
 * skipped only when it falls short by more than any rounding could account for.
 */
const MARGIN = 1 + 1e-6;
/** A segment's most promising list is scored ahead of the rest when it is short: at most 4 × k postings, or this many (and a sixteenth of the segment). */
const SEED_POSTINGS = 4096;
/** An exhausted cursor's document: above every ordinal. */
const END = 0xffff_ffff;

/** The first cursor at or after `position` whose document is at least `target`, by galloping then bisecting. */
function seek(docs: Uint32Array, position: number, target: number): number {
  if (position >= docs.length || (docs[position] as number) >= target) return position;
  let low = position;
  let step = 1;
  let high = position + 1;
  while (high < docs.length && (docs[high] as number) < target) {
    low = high;
    step *= 2;
    high = low + step;
  }
  if (high > docs.length) high = docs.length;
  // docs[low] < target; the answer lies in (low, high].
  let first = low + 1;
  while (first < high) {
    const middle = (first + high) >>> 1;
    if ((docs[middle] as number) < target) first = middle + 1;
    else high = middle;
  }
  return first;
}

/**
 * Offers `best` every document that could enter the top k, document at a time with MaxScore
 * (Turtle & Flood): the query's lists, ordered by their best possible gain, split into the
 * non-essential ones, whose gains together (times the largest prior) cannot reach the k-th
 * score so far, and the essential rest. Only documents of essential lists are candidates; a
 * candidate reads the non-essential lists (skipping ahead) while its bound still reaches the
 * threshold. Every document that can enter gets exactly the score the exhaustive pass gives it
 * (its gains summed in query order, times its prior), so the top k are the same, in the same order.
 */
export function collectPruned(index: ScoringIndex, query: QueryScoring, best: TopK<ScoredHit>): void {
  const termCount = query.idfs.length;
  const gains = new Float64Array(termCount);
  /** Which candidate each term's gain was computed for: a gain counts only for the current one. */
  const marks = new Float64Array(termCount).fill(-1);
  const { weights, k1, maxPrior } = query;
  let candidate = 0;
  const plans = index.segments.map((segment, segmentIndex) => planSegment(segment, segmentIndex, query));
  // Seeding: the documents of each segment's most promising list (the rarest terms, usually) are
  // scored first, so the k-th score is high before the long lists are read.
  const seeded = plans.map((plan) => {
    if (plan === undefined) return undefined;
    const seeds = plan.docsOf[plan.count - 1] as Uint32Array;
    if (seeds.length > Math.max(4 * best.size, Math.min(SEED_POSTINGS, plan.segment.count / 16))) return undefined;
    const cursor = new Int32Array(plan.count);
    const { segment, norms, docsOf, tfsOf, positionOf } = plan;
    const { deleted } = segment;
    for (const doc of seeds) {
      if (deleted !== undefined && ((deleted[doc >> 3] as number) & (1 << (doc & 7))) !== 0) continue;
      candidate += 1;
      let matched = false;
      for (let at = 0; at < plan.count; at += 1) {
        const docs = docsOf[at] as Uint32Array;
        const position = seek(docs, cursor[at] as number, doc);
        cursor[at] = position;
        if (docs[position] !== doc) continue;
        const gain = gainAt(tfsOf[at] as Uint8Array, position, norms, doc, weights, query.idfs[positionOf[at] as number] as number, k1);
        if (gain < 0) continue;
        gains[positionOf[at] as number] = gain;
        marks[positionOf[at] as number] = candidate;
        matched = true;
      }
      if (!matched) continue;
      let sum = 0;
      for (let position = 0; position < termCount; position += 1) if (marks[position] === candidate) sum += gains[position] as number;
      const score = sum * query.prior(segment, doc);
      if (best.admits(score)) best.offer({ segment: plan.segmentIndex, ordinal: doc, rowId: segment.rowIds[doc] as number, score });
    }
    return seeds;
  });
  for (const plan of plans) {
    if (plan === undefined) continue;
    const { segment, segmentIndex, norms, count, docsOf, tfsOf, positionOf, prefix, blocksOf, growthOf, idfOf } = plan;
    const { deleted } = segment;
    /** The documents already scored by seeding (its list's ordinals, ascending): never offered twice. */
    const seeds = seeded[segmentIndex];
    let seedAt = 0;
    const cursor = new Int32Array(count);
    const current = Float64Array.from(docsOf, (docs) => docs[0] as number);
    /** Documents below this lie in a window whose block bound reached the threshold: they are candidates one by one. */
    let windowEnd = 0;
    /** The gain of list `at` for `doc` (at its `position`), kept for the current candidate; −1 when no weighted field holds it. */
    const record = (at: number, position: number, doc: number): number => {
      const term = positionOf[at] as number;
      const gain = gainAt(tfsOf[at] as Uint8Array, position, norms, doc, weights, query.idfs[term] as number, k1);
      if (gain >= 0) {
        gains[term] = gain;
        marks[term] = candidate;
      }
      return gain;
    };

    let threshold = best.threshold();
    let firstEssential = 0;
    while (firstEssential < count && (prefix[firstEssential] as number) * maxPrior * MARGIN < threshold) firstEssential += 1;

    while (firstEssential < count) {
      let doc = END;
      for (let at = firstEssential; at < count; at += 1) if ((current[at] as number) < doc) doc = current[at] as number;
      if (doc === END) break;
      if (doc >= windowEnd) {
        // A window from `doc` to the end of the nearest current block of an essential list: every
        // essential document in it lies in its list's current block, so the block maxima of the
        // lists with a document in the window (plus the non-essential lists) bound its scores.
        let end = END;
        for (let at = firstEssential; at < count; at += 1) {
          const docs = docsOf[at] as Uint32Array;
          const position = cursor[at] as number;
          if (position >= docs.length) continue;
          const last = docs[Math.min(docs.length, (Math.floor(position / BLOCK_SIZE) + 1) * BLOCK_SIZE) - 1] as number;
          if (last + 1 < end) end = last + 1;
        }
        let bound = firstEssential === 0 ? 0 : (prefix[firstEssential - 1] as number);
        for (let at = firstEssential; at < count; at += 1) {
          if ((current[at] as number) >= end) continue;
          const weighted = ((blocksOf[at] as Float64Array)[Math.floor((cursor[at] as number) / BLOCK_SIZE)] as number) * (growthOf[at] as number);
          bound += gainBound(idfOf[at] as number, weighted, k1);
        }
        if (bound * maxPrior * MARGIN < threshold) {
          for (let at = firstEssential; at < count; at += 1) {
            if ((current[at] as number) >= end) continue;
            const docs = docsOf[at] as Uint32Array;
            const position = seek(docs, cursor[at] as number, end);
            cursor[at] = position;
            current[at] = position < docs.length ? (docs[position] as number) : END;
          }
          continue;
        }
        windowEnd = end;
      }
      candidate += 1;
      if (seeds !== undefined) {
        while (seedAt < seeds.length && (seeds[seedAt] as number) < doc) seedAt += 1;
        if (seeds[seedAt] === doc) {
          for (let at = firstEssential; at < count; at += 1) {
            if (current[at] !== doc) continue;
            const docs = docsOf[at] as Uint32Array;
            cursor[at] = (cursor[at] as number) + 1;
            current[at] = (cursor[at] as number) < docs.length ? (docs[cursor[at] as number] as number) : END;
          }
          continue;
        }
      }
      const isDeleted = deleted !== undefined && ((deleted[doc >> 3] as number) & (1 << (doc & 7))) !== 0;
      let partial = 0;
      let matched = false;
      for (let at = firstEssential; at < count; at += 1) {
        if (current[at] !== doc) continue;
        const docs = docsOf[at] as Uint32Array;
        const position = cursor[at] as number;
        if (!isDeleted) {
          const gain = record(at, position, doc);
          if (gain >= 0) {
            partial += gain;
            matched = true;
          }
        }
        cursor[at] = position + 1;
        current[at] = position + 1 < docs.length ? (docs[position + 1] as number) : END;
      }
      if (!matched) continue;
      const rest = firstEssential === 0 ? 0 : (prefix[firstEssential - 1] as number);
      if ((partial + rest) * maxPrior * MARGIN < threshold) continue;
      const prior = query.prior(segment, doc);
      if ((partial + rest) * prior * MARGIN < threshold) continue;
      let competitive = true;
      for (let at = firstEssential - 1; at >= 0; at -= 1) {
        const docs = docsOf[at] as Uint32Array;
        const position = seek(docs, cursor[at] as number, doc);
        cursor[at] = position;
        current[at] = position < docs.length ? (docs[position] as number) : END;
        if (current[at] === doc) {
          const gain = record(at, position, doc);
          if (gain >= 0) partial += gain;
        }
        const remaining = at === 0 ? 0 : (prefix[at - 1] as number);
        if ((partial + remaining) * prior * MARGIN < threshold) {
          competitive = false;
          break;
        }
      }
      if (!competitive) continue;
      // The exact score, as the exhaustive pass sums it: gains in query order, then the prior.
      let sum = 0;
      for (let position = 0; position < termCount; position += 1) if (marks[position] === candidate) sum += gains[position] as number;
      const score = sum * prior;
      if (!best.admits(score)) continue;
      best.offer({ segment: segmentIndex, ordinal: doc, rowId: segment.rowIds[doc] as number, score });
      const raised = best.threshold();
      if (raised !== threshold) {
        threshold = raised;
        while (firstEssential < count && (prefix[firstEssential] as number) * maxPrior * MARGIN < threshold) firstEssential += 1;
      }
    }
  }
}

/** A segment's lists for one query, ordered by their best possible gain, lowest first. */
interface SegmentPlan {
  segment: ScoringSegment;
  segmentIndex: number;
  norms: Float32Array;
  count: number;
  docsOf: Uint32Array[];
  tfsOf: Uint8Array[];
  /** Each list's term's position in the query. */
  positionOf: Int32Array;
  idfOf: Float64Array;
  /** Σ of the bounds of lists 0..i: what documents found only in those lists could gain at most. */
  prefix: Float64Array;
  blocksOf: Float64Array[];
  growthOf: Float64Array;
}

function planSegment(segment: ScoringSegment, segmentIndex: number, query: QueryScoring): SegmentPlan | undefined {
  if (segment.count === 0) return undefined;
  const norms = query.norms(segment);
  const present: { position: number; list: PostingList; blocks: Float64Array; growth: number; bound: number }[] = [];
  for (let position = 0; position < query.idfs.length; position += 1) {
    const list = (query.lists[position] as readonly (PostingList | undefined)[])[segmentIndex];
    if (list === undefined || list.docs.length === 0 || query.frequencies[position] === 0) continue;
    const bound = weightedBound(segment, query.terms[position] as string, list, norms, query);
    present.push({ position, list, blocks: bound.blocks, growth: bound.growth, bound: gainBound(query.idfs[position] as number, bound.weighted, query.k1) });
  }
  if (present.length === 0) return undefined;
  present.sort((a, b) => a.bound - b.bound || a.position - b.position);
  const prefix = new Float64Array(present.length);
  present.reduce((sum, entry, at) => (prefix[at] = sum + entry.bound), 0);
  return {
    segment,
    segmentIndex,
    norms,
    count: present.length,
    docsOf: present.map((entry) => entry.list.docs),
    tfsOf: present.map((entry) => entry.list.tfs),
    positionOf: Int32Array.from(present, (entry) => entry.position),
    idfOf: Float64Array.from(present, (entry) => query.idfs[entry.position] as number),
    prefix,
    blocksOf: present.map((entry) => entry.blocks),
    growthOf: Float64Array.from(present, (entry) => entry.growth),
  };
}

/** The largest gain of a term whose weighted count is at most `weighted`: the gain grows with it. */
function gainBound(idf: number, weighted: number, k1: number): number {
  return weighted === 0 ? 0 : (idf * weighted) / (k1 + weighted);
}

/** A term's gain for the document at `position` of its list, as the exhaustive pass computes it; −1 when no weighted field holds it. */
function gainAt(tfs: Uint8Array, position: number, norms: Float32Array, doc: number, weights: readonly number[], idf: number, k1: number): number {
  const weighted = weightedCount(tfs, position, norms, doc, weights);
  if (weighted === 0) return -1;
  return (idf * weighted) / (k1 + weighted);
}
