import type { LexicalRanking } from '../../core/types.js';
import type { QueryTerm } from './analyze.js';
import { FIELD_COUNT, FIELDS } from './fields.js';
import type { Segment } from './segment.js';

export interface ScoredDoc {
  ordinal: number;
  score: number;
  /** Each field's share of the score (before the link prior), in FIELDS order; with `explain`. */
  fields?: number[];
  /** The link priors' factor (the entry's links and its page's); with `explain`. */
  prior?: number;
}

/** Links to one chunk (or linking pages to one page) at which a link prior reaches full strength, at least. */
export const PRIOR_FULL_LINKS = 100;

/** Per-segment scratch space, so a query allocates nothing proportional to the index. */
interface Scratch {
  scores: Float64Array;
  seen: Uint8Array;
  norms: Map<string, Float32Array>;
}
const scratchOf = new WeakMap<Segment, Scratch>();

/**
 * Scores documents for the query terms with BM25F (Robertson & Zaragoza): each field's count
 * is normalised by that field's length and weighted, the weighted sum saturates once per term,
 * and the IDF is the document's, whatever field matched. Returns the best `limit`, best first,
 * ties broken by document order so the result never depends on anything else.
 */
export function scoreBm25f(segment: Segment, terms: readonly QueryTerm[], ranking: LexicalRanking, limit: number, explain = false): ScoredDoc[] {
  const { docs } = segment;
  if (docs.count === 0 || limit <= 0) return [];
  const scratch = scratchFor(segment);
  const norms = normsFor(segment, scratch, ranking.b);
  const weights = FIELDS.map((field) => ranking.fieldWeights[field]);
  const touched: number[] = [];
  const { scores, seen } = scratch;
  const k1 = ranking.k1;
  for (const { term, weight: termWeight } of terms) {
    const list = segment.postings(term);
    if (list === undefined || list.docs.length === 0) continue;
    const df = list.docs.length;
    const idf = termWeight * Math.log(1 + (docs.count - df + 0.5) / (df + 0.5));
    for (let index = 0; index < list.docs.length; index += 1) {
      const doc = list.docs[index] as number;
      let weighted = 0;
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const tf = list.tfs[index * FIELD_COUNT + field] as number;
        if (tf !== 0) weighted += ((weights[field] as number) * tf) / (norms[doc * FIELD_COUNT + field] as number);
      }
      if (weighted === 0) continue;
      const gain = (idf * weighted) / (k1 + weighted);
      if (seen[doc] === 0) {
        seen[doc] = 1;
        scores[doc] = 0;
        touched.push(doc);
      }
      scores[doc] = (scores[doc] as number) + gain;
    }
  }
  // Full strength at the most-linked chunk (page), but never fewer than PRIOR_FULL_LINKS links: on
  // a small site one link is chance, not popularity.
  const priorScale = scaleOf(ranking.linkPrior, segment.maxInlinks);
  const pageScale = scaleOf(ranking.pagePrior, segment.maxPageInlinks);
  const priorOf = (doc: number) => 1 + priorScale * Math.log1p(docs.inlinks[doc] as number) + pageScale * Math.log1p(docs.pageInlinks[doc] as number);
  const best = new TopK(limit);
  for (const doc of touched) {
    seen[doc] = 0;
    best.offer(doc, (scores[doc] as number) * priorOf(doc));
  }
  return best.sorted().map(({ ordinal, score }) => (explain ? { ordinal, score, fields: fieldShares(segment, terms, ordinal, weights, norms, k1), prior: priorOf(ordinal) } : { ordinal, score }));
}

function scaleOf(weight: number, maxLinks: number): number {
  return maxLinks > 0 && weight > 0 ? weight / Math.log1p(Math.max(maxLinks, PRIOR_FULL_LINKS)) : 0;
}

/** Each field's share of one document's score: every term's gain split by its fields' part of the weighted count. */
function fieldShares(segment: Segment, terms: readonly QueryTerm[], doc: number, weights: readonly number[], norms: Float32Array, k1: number): number[] {
  const shares = new Array<number>(FIELD_COUNT).fill(0);
  for (const { term, weight: termWeight } of terms) {
    const list = segment.postings(term);
    if (list === undefined) continue;
    const index = indexOf(list.docs, doc);
    if (index < 0) continue;
    const df = list.docs.length;
    const idf = termWeight * Math.log(1 + (segment.docs.count - df + 0.5) / (df + 0.5));
    const parts = weights.map((fieldWeight, field) => (fieldWeight * (list.tfs[index * FIELD_COUNT + field] as number)) / (norms[doc * FIELD_COUNT + field] as number));
    const weighted = parts.reduce((sum, part) => sum + part, 0);
    if (weighted === 0) continue;
    const gain = (idf * weighted) / (k1 + weighted);
    parts.forEach((part, field) => (shares[field] = (shares[field] as number) + (gain * part) / weighted));
  }
  return shares;
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

function scratchFor(segment: Segment): Scratch {
  let scratch = scratchOf.get(segment);
  if (scratch === undefined) {
    scratch = { scores: new Float64Array(segment.docs.count), seen: new Uint8Array(segment.docs.count), norms: new Map() };
    scratchOf.set(segment, scratch);
  }
  return scratch;
}

/** 1 − b + b × length / mean length, per document and field, computed once per b. */
function normsFor(segment: Segment, scratch: Scratch, b: number): Float32Array {
  const key = String(b);
  let norms = scratch.norms.get(key);
  if (norms === undefined) {
    const { lengths } = segment.docs;
    norms = new Float32Array(lengths.length);
    for (let index = 0; index < lengths.length; index += 1) {
      const average = segment.averageLengths[index % FIELD_COUNT] as number;
      norms[index] = average > 0 ? 1 - b + (b * (lengths[index] as number)) / average : 1;
    }
    scratch.norms.set(key, norms);
  }
  return norms;
}

interface Entry {
  ordinal: number;
  score: number;
}

/** The `size` best (score, ordinal) pairs: a min-heap on score, then on reversed ordinal. */
class TopK {
  private readonly heap: Entry[] = [];
  constructor(private readonly size: number) {}

  offer(ordinal: number, score: number): void {
    const entry = { ordinal, score };
    if (this.heap.length < this.size) {
      this.heap.push(entry);
      this.up(this.heap.length - 1);
    } else if (this.worse(this.heap[0] as Entry, entry)) {
      this.heap[0] = entry;
      this.down(0);
    }
  }

  sorted(): Entry[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
  }

  /** Whether a ranks below b. */
  private worse(a: Entry, b: Entry): boolean {
    return a.score < b.score || (a.score === b.score && a.ordinal > b.ordinal);
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.worse(heap[index] as Entry, heap[parent] as Entry)) break;
      [heap[index], heap[parent]] = [heap[parent] as Entry, heap[index] as Entry];
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && this.worse(heap[left] as Entry, heap[smallest] as Entry)) smallest = left;
      if (right < heap.length && this.worse(heap[right] as Entry, heap[smallest] as Entry)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest] as Entry, heap[index] as Entry];
      index = smallest;
    }
  }
}
