import type { LexicalRanking } from '../../core/types.js';
import type { QueryTerm } from '../../lexical/analyze.js';
import { FIELD_COUNT, FIELDS } from './fields.js';
import { collectPruned } from './max-score.js';
import type { PostingList, Segment } from './segment.js';
import type { QueryScoring, ScoredDoc, ScoredHit, ScoringIndex, ScoringSegment } from './scoring-types.js';
import { TopK } from './top-k.js';
import { weightedCount } from './weighted-count.js';

export type { QueryScoring, ScoredDoc, ScoredHit, ScoringIndex, ScoringSegment } from './scoring-types.js';

/**
 * Links to an entry (or pages linking into a page) at which a link prior reaches half its
 * strength. Calibrated on the Python docs and the three docsets-dev sites together (Sphinx,
 * Doxygen, LaTeX2HTML): 35 to 40 gave the best figures on every set (eval/baselines/README.md).
 */
export const PRIOR_HALF_LINKS = 40;

/**
 * How to find the top k: skipping what cannot enter, scoring every posting (the reference the
 * pruning is tested against), or (the default) pruning only when the query's lists hold at least
 * PRUNE_FROM_POSTINGS postings. All three return the same hits.
 */
export type ScoringStrategy = 'auto' | 'pruned' | 'exhaustive';

/** Below this many postings in a query's lists, scoring every one term at a time is faster than pruning (measured on the Python docs, 24k passages). */
export const PRUNE_FROM_POSTINGS = 65_536;

/** Per-segment scratch space, so a query allocates nothing proportional to the index. */
interface Scratch {
  scores: Float64Array;
  seen: Uint8Array;
  /** 1 − b + b × length / mean length per document and field, for the b and means they were computed with. */
  norms?: { b: number; averages: readonly number[]; values: Float32Array };
}
const scratchOf = new WeakMap<ScoringSegment, Scratch>();

export const isDeleted = (deleted: Uint8Array | undefined, doc: number): boolean => deleted !== undefined && ((deleted[doc >> 3] as number) & (1 << (doc & 7))) !== 0;

/** Scores the documents of one segment (see `scoreIndex`); ordinals are its own. */
export function scoreBm25f(segment: Segment, terms: readonly QueryTerm[], ranking: LexicalRanking, limit: number, explain = false): ScoredDoc[] {
  return scoreIndex(scoringIndexOf(segment), terms, ranking, limit, explain).map(({ segment: _segment, rowId: _rowId, ...doc }) => doc);
}

const singleSegmentIndexes = new WeakMap<Segment, ScoringIndex>();

/** A built segment as an index of one segment. */
export function scoringIndexOf(segment: Segment): ScoringIndex {
  const known = singleSegmentIndexes.get(segment);
  if (known !== undefined) return known;
  const { docs } = segment;
  const index: ScoringIndex = {
    documents: docs.count,
    averageLengths: segment.averageLengths,
    maxInlinks: segment.maxInlinks,
    maxPageInlinks: segment.maxPageInlinks,
    segments: [
      {
        count: docs.count,
        rowIds: Float64Array.from({ length: docs.count }, (_, ordinal) => ordinal),
        lengths: docs.lengths,
        inlinks: (doc) => docs.inlinks[doc] as number,
        pageInlinks: (doc) => docs.pageInlinks[doc] as number,
        postings: (term) => segment.postings(term),
      },
    ],
  };
  singleSegmentIndexes.set(segment, index);
  return index;
}

/** Live documents of a term over all segments: its document frequency in the index. */
export function documentFrequency(index: ScoringIndex, term: string): number {
  let frequency = 0;
  for (const segment of index.segments) {
    const list = segment.postings(term);
    if (list !== undefined) frequency += liveCount(segment, list);
  }
  return frequency;
}

/** Live documents of a list under one set of tombstones, kept with the list: counting them reads the whole list. */
const liveCounts = new WeakMap<PostingList, { deleted: Uint8Array; live: number }>();

function liveCount(segment: ScoringSegment, list: PostingList): number {
  const { deleted } = segment;
  if (deleted === undefined) return list.docs.length;
  const known = liveCounts.get(list);
  if (known?.deleted === deleted) return known.live;
  let live = 0;
  for (const doc of list.docs) if (!isDeleted(deleted, doc)) live += 1;
  liveCounts.set(list, { deleted, live });
  return live;
}

/**
 * Scores documents for the query terms with BM25F (Robertson & Zaragoza): each field's count
 * is normalised by that field's length and weighted, the weighted sum saturates once per term,
 * and the IDF is the document's, whatever field matched. Statistics (document count, document
 * frequency, mean lengths) are the index's over its live documents, so a document scores the
 * same whichever segment holds it; the most links only bound the prior for pruning. Returns the best `limit`, best first, ties broken
 * by row id so the result never depends on how the documents are split into segments.
 * Both strategies return the same hits with the same scores: pruning only skips documents that
 * cannot enter the top `limit`.
 */
export function scoreIndex(index: ScoringIndex, terms: readonly QueryTerm[], ranking: LexicalRanking, limit: number, explain = false, strategy: ScoringStrategy = 'auto'): ScoredHit[] {
  if (index.documents === 0 || limit <= 0) return [];
  const weights = FIELDS.map((field) => ranking.fieldWeights[field]);
  const { k1, b } = ranking;
  const averages = index.averageLengths;
  // Norms are rounded to single precision, as they were when kept in a Float32Array: the same scores to the bit.
  const norm = (lengths: Uint16Array, doc: number, field: number) => {
    const average = averages[field] as number;
    return average > 0 ? Math.fround(1 - b + (b * (lengths[doc * FIELD_COUNT + field] as number)) / average) : 1;
  };
  const lists = terms.map(({ term }) => index.segments.map((segment) => segment.postings(term)));
  const frequencies = lists.map((perSegment) => perSegment.reduce((sum, list, segment) => sum + (list === undefined ? 0 : liveCount(index.segments[segment] as ScoringSegment, list)), 0));
  const idfs = terms.map(({ weight }, position) => {
    const df = frequencies[position] as number;
    return weight * Math.log(1 + (index.documents - df + 0.5) / (df + 0.5));
  });
  const factor = linkPriorOf(ranking);
  const query: QueryScoring = {
    terms: terms.map(({ term }) => term),
    weights,
    k1,
    averages,
    boundKey: `${weights.join(',')}|${b}`,
    idfs,
    lists,
    frequencies,
    norms: (segment) => normsFor(segment, b, averages),
    prior: (segment, doc) => factor(segment.inlinks(doc), segment.pageInlinks(doc)),
    maxPrior: factor(index.maxInlinks, index.maxPageInlinks),
  };
  const best = new TopK<ScoredHit>(limit);
  const postings = strategy === 'auto' ? lists.reduce((sum, perSegment) => perSegment.reduce((total, list) => total + (list?.docs.length ?? 0), sum), 0) : 0;
  const prune = strategy === 'pruned' || (strategy === 'auto' && postings >= PRUNE_FROM_POSTINGS);
  if (prune && canPrune(query, ranking, limit, index.documents)) collectPruned(index, query, best);
  else collectExhaustive(index, query, best);
  return best.sorted().map((hit) => {
    if (!explain) return hit;
    const segment = index.segments[hit.segment] as ScoringSegment;
    const fields = new Array<number>(FIELD_COUNT).fill(0);
    terms.forEach((_term, position) => {
      const list = (lists[position] as (PostingList | undefined)[])[hit.segment];
      const at = list === undefined ? -1 : indexOf(list.docs, hit.ordinal);
      if (list === undefined || at < 0) return;
      const parts = weights.map((fieldWeight, field) => (fieldWeight * (list.tfs[at * FIELD_COUNT + field] as number)) / norm(segment.lengths, hit.ordinal, field));
      const weighted = parts.reduce((sum, part) => sum + part, 0);
      if (weighted === 0) return;
      const gain = ((idfs[position] as number) * weighted) / (k1 + weighted);
      parts.forEach((part, field) => (fields[field] = (fields[field] as number) + (gain * part) / weighted));
    });
    return { ...hit, fields, prior: query.prior(segment, hit.ordinal) };
  });
}

/**
 * Whether the bounds pruning relies on hold: gains grow with the weighted count and are never
 * negative (non-negative weights and IDFs, k1 ≥ 0, b in [0, 1]). When every document may be
 * returned, nothing can be skipped and scoring term at a time is faster.
 */
function canPrune(query: QueryScoring, ranking: LexicalRanking, limit: number, documents: number): boolean {
  const finite = (value: number) => Number.isFinite(value) && value >= 0;
  return (
    limit < documents &&
    query.weights.every(finite) &&
    query.idfs.every(finite) &&
    finite(ranking.k1) &&
    finite(ranking.b) &&
    ranking.b <= 1 &&
    Number.isFinite(query.maxPrior)
  );
}

/** Scores every posting of every query term, term at a time, and offers each document once. */
function collectExhaustive(index: ScoringIndex, query: QueryScoring, best: TopK<ScoredHit>): void {
  const { weights, k1, idfs, lists, frequencies } = query;
  const touched = index.segments.map(() => [] as number[]);
  for (let segmentIndex = 0; segmentIndex < index.segments.length; segmentIndex += 1) {
    const segment = index.segments[segmentIndex] as ScoringSegment;
    if (segment.count === 0) continue;
    const { scores, seen } = scratchFor(segment);
    const norms = query.norms(segment);
    const { deleted } = segment;
    const touchedHere = touched[segmentIndex] as number[];
    for (let position = 0; position < idfs.length; position += 1) {
      const list = (lists[position] as (PostingList | undefined)[])[segmentIndex];
      const idf = idfs[position] as number;
      if (list === undefined || frequencies[position] === 0) continue;
      const { docs, tfs } = list;
      for (let index = 0; index < docs.length; index += 1) {
        const doc = docs[index] as number;
        if (deleted !== undefined && isDeleted(deleted, doc)) continue;
        const weighted = weightedCount(tfs, index, norms, doc, weights);
        if (weighted === 0) continue;
        const gain = (idf * weighted) / (k1 + weighted);
        if (seen[doc] === 0) {
          seen[doc] = 1;
          scores[doc] = 0;
          touchedHere.push(doc);
        }
        scores[doc] = (scores[doc] as number) + gain;
      }
    }
  }
  index.segments.forEach((segment, segmentIndex) => {
    const touchedHere = touched[segmentIndex] as number[];
    if (touchedHere.length === 0) return;
    const { scores, seen } = scratchFor(segment);
    for (const doc of touchedHere) {
      seen[doc] = 0;
      const score = (scores[doc] as number) * query.prior(segment, doc);
      if (best.admits(score)) best.offer({ segment: segmentIndex, ordinal: doc, rowId: segment.rowIds[doc] as number, score });
    }
  });
}

/**
 * The link priors' factor of a document with `inlinks` links to its entry and `pageInlinks`
 * pages linking into its page: 1 + linkPrior × n / (n + PRIOR_HALF_LINKS) + pagePrior × the same
 * of the page's count. Popularity is read in absolute counts: a link or two is chance on any
 * site, hundreds are popularity on any site. So the factor of an entry never depends on what
 * else is in the index (the most linked entry of another library, a site's size), and the few
 * "see also" links a small site gives an entry lift it little, while the everyday API a large
 * site links to from everywhere is lifted nearly by the whole weight.
 * Contract: never decreasing in either count, and finite: pruning bounds every document's
 * factor by its value at the index's maxima.
 */
export function linkPriorOf(ranking: Pick<LexicalRanking, 'linkPrior' | 'pagePrior'>): (inlinks: number, pageInlinks: number) => number {
  const saturated = (links: number) => links / (links + PRIOR_HALF_LINKS);
  return (inlinks, pageInlinks) => 1 + ranking.linkPrior * saturated(inlinks) + ranking.pagePrior * saturated(pageInlinks);
}

function indexOf(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = sorted[middle] as number;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Norms of a segment's documents: computed once per b and mean lengths (the means change with every commit). */
function normsFor(segment: ScoringSegment, b: number, averages: readonly number[]): Float32Array {
  const scratch = scratchFor(segment);
  const known = scratch.norms;
  if (known !== undefined && known.b === b && known.averages.length === averages.length && known.averages.every((average, field) => average === averages[field])) return known.values;
  const values = known?.values.length === segment.lengths.length ? known.values : new Float32Array(segment.lengths.length);
  const { lengths } = segment;
  for (let index = 0; index < lengths.length; index += 1) {
    const average = averages[index % FIELD_COUNT] as number;
    values[index] = average > 0 ? 1 - b + (b * (lengths[index] as number)) / average : 1;
  }
  scratch.norms = { b, averages: [...averages], values };
  return values;
}

function scratchFor(segment: ScoringSegment): Scratch {
  let scratch = scratchOf.get(segment);
  if (scratch === undefined) {
    scratch = { scores: new Float64Array(segment.count), seen: new Uint8Array(segment.count) };
    scratchOf.set(segment, scratch);
  }
  return scratch;
}
