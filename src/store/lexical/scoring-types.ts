import type { PostingList } from './segment.js';

/** The shapes the BM25F scorer and its top-k pruning share (bm25f.ts, max-score.ts, list-bounds.ts). */

export interface ScoredDoc {
  /** The document's position in its segment (in the one segment, for `scoreBm25f`). */
  ordinal: number;
  score: number;
  /** Each field's share of the score (before the link prior), in FIELDS order; with `explain`. */
  fields?: number[];
  /** The link priors' factor (the entry's links and its page's); with `explain`. */
  prior?: number;
}

export interface ScoredHit extends ScoredDoc {
  /** Which of the index's segments holds the document. */
  segment: number;
  rowId: number;
}

/** One segment as the scorer reads it: immutable documents, postings, and the deleted ones. */
export interface ScoringSegment {
  count: number;
  /** The store's row id of each document: ties are broken by it, as by document order in one segment. */
  rowIds: Float64Array;
  /** `count × FIELD_COUNT` field lengths. */
  lengths: Uint16Array;
  /** One bit per document, set when it was deleted; absent when none was. Never changed in place: new tombstones come as a new array. */
  deleted?: Uint8Array | undefined;
  /** Links to the document's entry, and other pages linking into its page, capped at 65,535. */
  inlinks(doc: number): number;
  pageInlinks(doc: number): number;
  postings(term: string): PostingList | undefined;
}

/** Every segment of an index and the statistics of its live documents, so scores equal one segment's. */
export interface ScoringIndex {
  /** Live documents, over all segments. */
  documents: number;
  /** Mean length of each field over the live documents that have it (`FieldLengths`). */
  averageLengths: readonly number[];
  /** At least the links of every live document (`inlinks`, `pageInlinks`): the link prior is bounded by its value at these. */
  maxInlinks: number;
  maxPageInlinks: number;
  segments: readonly ScoringSegment[];
}

/** What scoring any segment for one query needs, computed once per query. */
export interface QueryScoring {
  /** The query's terms, as the index spells them. */
  terms: readonly string[];
  /** Field weights, in FIELDS order. */
  weights: readonly number[];
  k1: number;
  averages: readonly number[];
  /** Names the weights and b that bounds computed for them hold for. */
  boundKey: string;
  /** Each query term's IDF times its weight. */
  idfs: readonly number[];
  /** Each term's postings in each segment: `lists[term][segment]`. */
  lists: readonly (readonly (PostingList | undefined)[])[];
  /** Each term's live documents over all segments. */
  frequencies: readonly number[];
  /** Each document's norms (`count × FIELD_COUNT`), for the query's b and mean lengths. */
  norms(segment: ScoringSegment): Float32Array;
  /** The link priors' factor of a document. */
  prior(segment: ScoringSegment, doc: number): number;
  /** No live document's prior is larger. */
  maxPrior: number;
}
