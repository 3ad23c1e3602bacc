import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LexicalRanking } from '../../core/types.js';
import type { QueryTerm } from '../../lexical/analyze.js';
import { type ScoredHit, type ScoringIndex, type ScoringSegment, scoreIndex } from './bm25f.js';
import { FIELD_COUNT } from './fields.js';
import { buildSegment } from './segment.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa'];

interface DocumentSpec {
  title: number[];
  heading: number[];
  text: number[];
  code: number[];
  inlinks: number;
  pageInlinks: number;
  deleted: boolean;
}

const words = (indexes: number[]) => indexes.map((index) => WORDS[index] as string).join(' ');

/** Segments of documents drawn from a few words, so lists overlap, many documents tie, and the bounds are often reached. */
const segmentsOf = (minLength: number, maxLength: number) =>
  fc.array(fc.array(fc.record({ ...documentSpecShape(), deleted: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0) }), { minLength, maxLength }), {
    minLength: 1,
    maxLength: 4,
  });
const segmentSpecs = segmentsOf(1, 25);

function documentSpecShape() {
  return {
    title: fc.array(fc.nat({ max: WORDS.length - 1 }), { maxLength: 3 }),
    heading: fc.array(fc.nat({ max: WORDS.length - 1 }), { maxLength: 3 }),
    text: fc.array(fc.nat({ max: WORDS.length - 1 }), { maxLength: 12 }),
    code: fc.array(fc.nat({ max: WORDS.length - 1 }), { maxLength: 3 }),
    inlinks: fc.oneof(fc.constant(0), fc.nat({ max: 300 })),
    pageInlinks: fc.oneof(fc.constant(0), fc.nat({ max: 300 })),
  };
}

const rankingSpec: fc.Arbitrary<LexicalRanking> = fc.record({
  fieldWeights: fc.record({
    title: fc.constantFrom(0, 0.5, 2),
    headings: fc.constantFrom(0, 1, 4),
    identifiers: fc.constantFrom(0, 4),
    code: fc.constantFrom(0, 1, 3),
    text: fc.constantFrom(0, 1, 1.5),
  }),
  k1: fc.constantFrom(0, 0.9, 1.2, 3),
  b: fc.constantFrom(0, 0.4, 0.75, 1),
  linkPrior: fc.constantFrom(0, 1, 3),
  pagePrior: fc.constantFrom(0, 1),
  quotedWeight: fc.constant(1),
});

const querySpec: fc.Arbitrary<QueryTerm[]> = fc
  .uniqueArray(fc.nat({ max: WORDS.length }), { minLength: 1, maxLength: 5 })
  .chain((indexes) =>
    fc.tuple(...indexes.map((index) => fc.record({ term: fc.constant(WORDS[index] ?? 'absent'), weight: fc.constantFrom(0, 0.25, 1, 2) }))),
  );

/** An index of several segments as a store would read it: global statistics and link maxima over the live documents only. */
function indexOf(segments: readonly (readonly DocumentSpec[])[]): ScoringIndex {
  let documents = 0;
  let maxInlinks = 0;
  let maxPageInlinks = 0;
  const totals = new Array<number>(FIELD_COUNT).fill(0);
  const scoring = segments.map((specs, segment): ScoringSegment => {
    // Row ids ascend within a segment but later segments hold smaller ones (as after merges): ties
    // between segments then go to a document found later, which pruning must not skip.
    let rowId = (segments.length - segment) * 1000;
    const built = buildSegment(
      specs.map((spec, position) => ({
        rowId: (rowId += 1 + (position % 3)),
        chunk: {
          pageUrl: `https://d.example/${rowId}.html`,
          pageTitle: words(spec.title),
          headingPath: [words(spec.heading)],
          text: `${words(spec.text)}\n\n\`\`\`\n${words(spec.code)}\n\`\`\`\n`,
        },
      })),
    );
    const deleted = new Uint8Array(Math.ceil(specs.length / 8));
    specs.forEach((spec, doc) => {
      if (spec.deleted) {
        deleted[doc >> 3] = (deleted[doc >> 3] as number) | (1 << (doc & 7));
        return;
      }
      documents += 1;
      maxInlinks = Math.max(maxInlinks, spec.inlinks);
      maxPageInlinks = Math.max(maxPageInlinks, spec.pageInlinks);
      for (let field = 0; field < FIELD_COUNT; field += 1) totals[field] = (totals[field] as number) + (built.docs.lengths[doc * FIELD_COUNT + field] as number);
    });
    return {
      count: built.docs.count,
      rowIds: built.docs.rowIds,
      lengths: built.docs.lengths,
      deleted: specs.some((spec) => spec.deleted) ? deleted : undefined,
      inlinks: (doc) => specs[doc]?.inlinks ?? 0,
      pageInlinks: (doc) => specs[doc]?.pageInlinks ?? 0,
      postings: (term) => built.postings(term),
    };
  });
  return { documents, averageLengths: totals.map((total) => (documents === 0 ? 0 : total / documents)), maxInlinks, maxPageInlinks, segments: scoring };
}

const summary = (hits: ScoredHit[]) => hits.map(({ rowId, score, fields, prior }) => ({ rowId, score, fields, prior }));

describe('MaxScore pruning of the BM25F top k', () => {
  it('returns exactly the exhaustive top k (same documents, scores to the bit, order, explanations) over random indexes and queries', () => {
    fc.assert(
      fc.property(segmentSpecs, rankingSpec, querySpec, fc.integer({ min: 1, max: 30 }), fc.boolean(), (segments, ranking, terms, limit, explain) => {
        const index = indexOf(segments);
        const exhaustive = scoreIndex(index, terms, ranking, limit, explain, 'exhaustive');
        const pruned = scoreIndex(index, terms, ranking, limit, explain, 'pruned');
        expect(summary(pruned)).toEqual(summary(exhaustive));
      }),
      { numRuns: 600 },
    );
  });

  it('returns exactly the exhaustive top k when lists span many blocks, some skipped whole', () => {
    fc.assert(
      fc.property(segmentsOf(120, 260), rankingSpec, querySpec, fc.integer({ min: 1, max: 12 }), (segments, ranking, terms, limit) => {
        const index = indexOf(segments);
        expect(summary(scoreIndex(index, terms, ranking, limit, false, 'pruned'))).toEqual(summary(scoreIndex(index, terms, ranking, limit, false, 'exhaustive')));
      }),
      // Large cases shrink slowly: a failure reports its seed and case as found.
      { numRuns: 40, endOnFailure: true },
    );
  });

  it('stays exact when bounds cached for one set of live documents are reused for another (other mean lengths, other tombstones)', () => {
    fc.assert(
      fc.property(segmentSpecs, fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 100 }), rankingSpec, querySpec, fc.integer({ min: 1, max: 10 }), (segments, rolls, ranking, terms, limit) => {
        const first = indexOf(segments);
        // The same postings (the same list objects) under other tombstones: other statistics, bounds reused from the first query.
        const redeleted = segments.map((specs, segment) => specs.map((spec, doc) => ({ ...spec, deleted: rolls[(segment * 31 + doc) % rolls.length] === 0 })));
        const second = indexOf(redeleted);
        // The same segments (row ids and postings), so the bounds cached by the first query are the ones the second reads.
        const shared: ScoringIndex = {
          ...second,
          segments: second.segments.map((segment, position) => {
            const { rowIds, postings } = first.segments[position] as ScoringSegment;
            return { ...segment, rowIds, postings };
          }),
        };
        scoreIndex(first, terms, ranking, limit, false, 'pruned');
        expect(summary(scoreIndex(shared, terms, ranking, limit, false, 'pruned'))).toEqual(summary(scoreIndex(shared, terms, ranking, limit, false, 'exhaustive')));
      }),
      { numRuns: 300 },
    );
  });

  it('scales a bound cached at shorter mean lengths up to the longer ones: a tie in a later segment still wins by its row id', () => {
    const filler = (text: number[], deleted = false): DocumentSpec => ({ title: [], heading: [], text, code: [], inlinks: 0, pageInlinks: 0, deleted });
    // "alpha beta" in both segments; the later segment holds the smaller row id, so it wins the tie.
    const segments = (shortDeleted: boolean) => [[filler([0, 1])], [filler([0, 1]), ...Array.from({ length: 18 }, () => filler([1, 2])), filler([3], shortDeleted)]];
    const before = indexOf(segments(false));
    // Deleting the one short document lengthens the mean (by 2.6%): every norm shrinks, every weighted count grows.
    const after = indexOf(segments(true));
    const shared: ScoringIndex = {
      ...after,
      segments: after.segments.map((segment, position) => {
        const { rowIds, postings } = before.segments[position] as ScoringSegment;
        return { ...segment, rowIds, postings };
      }),
    };
    const ranking: LexicalRanking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };
    const terms = [{ term: 'alpha', weight: 1 }];
    scoreIndex(before, terms, ranking, 1, false, 'pruned');
    const exhaustive = summary(scoreIndex(shared, terms, ranking, 1, false, 'exhaustive'));
    expect(exhaustive[0]?.rowId).toBeLessThan(2000);
    expect(summary(scoreIndex(shared, terms, ranking, 1, false, 'pruned'))).toEqual(exhaustive);
  });

  it('skips documents that cannot enter: the rare word’s documents are scored first, and documents with the common word alone never are', () => {
    // 200 documents say "alpha"; 3 of them (10, 20, 150) also say "kappa". The top 2 of "kappa alpha" hold kappa.
    const specs: DocumentSpec[] = Array.from({ length: 200 }, (_, doc) => ({
      title: [],
      heading: [],
      text: doc === 10 || doc === 20 || doc === 150 ? [0, 7] : [0],
      code: [],
      inlinks: 0,
      pageInlinks: 0,
      deleted: false,
    }));
    const index = indexOf([specs]);
    const ranking: LexicalRanking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };
    const terms = [
      { term: 'kappa', weight: 1 },
      { term: 'alpha', weight: 1 },
    ];
    // A document's prior is read once it is a candidate whose bound reaches the k-th score.
    const candidates = (strategy: 'pruned' | 'exhaustive') => {
      const read = new Set<number>();
      const [segment] = index.segments;
      const counting: ScoringIndex = { ...index, segments: [{ ...(segment as ScoringSegment), inlinks: (doc) => (read.add(doc), 0) }] };
      return { hits: summary(scoreIndex(counting, terms, ranking, 2, false, strategy)), read: read.size };
    };
    const pruned = candidates('pruned');
    const exhaustive = candidates('exhaustive');
    expect(pruned.hits).toEqual(exhaustive.hits);
    expect(pruned.hits.map((hit) => hit.rowId)).toHaveLength(2);
    expect(exhaustive.read).toBe(200);
    // kappa's 3 documents are scored first (the shortest list seeds the top k); then alpha alone cannot reach them.
    expect(pruned.read).toBe(3);
  });
});
