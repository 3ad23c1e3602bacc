import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candidate, Chunk } from '../core/types.js';
import { testChunk } from '../testing/text-index-double.js';
import { type FusionOptions, fuseLists, type RankedList, type Retriever } from './fusion.js';

const chunks = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'x', 'y', 'z', 'w'].map((id) => [id, testChunk({ id, text: `passage ${id}` })])) as Record<string, Chunk>;
const chunk = (id: string): Chunk => chunks[id] ?? testChunk({ id, text: `passage ${id}` });

/** A ranked list from [chunk id, score] pairs, best first. */
function list(retriever: Retriever, technique: string, hits: [string, number][], extra: { weight?: number; query?: string; followUp?: boolean } = {}): RankedList {
  return {
    retriever,
    technique,
    weight: extra.weight ?? 1,
    query: extra.query ?? `${technique} query`,
    hits: hits.map(([id, score]) => ({ chunk: chunk(id), score })),
    ...(extra.followUp === undefined ? {} : { followUp: extra.followUp }),
  };
}

const rrf = (dense = 1, bm25 = 1): FusionOptions => ({ method: 'rrf', rrfK: 60, retrieverWeights: { bm25, dense } });
const weighted = (dense = 1, bm25 = 1): FusionOptions => ({ method: 'weighted', rrfK: 60, retrieverWeights: { bm25, dense } });

const ids = (candidates: readonly Candidate[]): string[] => candidates.map((candidate) => candidate.chunk.id);
function find(candidates: readonly Candidate[], id: string): Candidate {
  const found = candidates.find((candidate) => candidate.chunk.id === id);
  if (found === undefined) throw new Error(`no candidate ${id} among ${ids(candidates).join(', ')}`);
  return found;
}

describe('fuseLists, reciprocal rank fusion', () => {
  it('sums weight / (k + rank) across retrievers, scaled by the technique weight and the retriever weight', () => {
    const fused = fuseLists(
      [
        list('bm25', 'original', [['b', 9], ['a', 7]]),
        list('dense', 'hyde', [['a', 0.9], ['c', 0.5]], { weight: 0.8 }),
      ],
      rrf(0.5),
    );
    // a: second in BM25 (1/62) plus first in the HyDE list (0.8 × 0.5 / 61) beats b, first in BM25 only.
    expect(ids(fused)).toEqual(['a', 'b', 'c']);
    expect(find(fused, 'a').scores.fused).toBeCloseTo(1 / 62 + (0.8 * 0.5) / 61, 12);
    expect(find(fused, 'b').scores.fused).toBeCloseTo(1 / 61, 12);
    expect(find(fused, 'c').scores.fused).toBeCloseTo((0.8 * 0.5) / 62, 12);
  });

  it('uses rrfK: a larger k flattens the difference between ranks', () => {
    const lists = [list('bm25', 'original', [['a', 3], ['b', 2]])];
    const [first, second] = fuseLists(lists, { ...rrf(), rrfK: 1 });
    expect(first?.scores.fused).toBeCloseTo(1 / 2, 12);
    expect(second?.scores.fused).toBeCloseTo(1 / 3, 12);
  });

  it('counts only the best technique per retriever: a chunk found by three BM25 variants is not counted three times, while a dense hit still adds', () => {
    const lists = [
      list('bm25', 'original', [['x', 5], ['a', 4]]),
      list('bm25', 'prf', [['a', 6]], { weight: 0.5 }),
      list('bm25', 'expansion', [['y', 8], ['z', 7], ['a', 6]], { weight: 0.7 }),
    ];
    const bm25Only = find(fuseLists(lists, rrf()), 'a');
    // original 1/62 ≈ 0.0161 beats expansion 0.7/63 ≈ 0.0111 and prf 0.5/61 ≈ 0.0082: only it counts.
    expect(bm25Only.scores.fused).toBeCloseTo(1 / 62, 12);
    expect(bm25Only.techniques).toEqual(['bm25:original', 'bm25:prf', 'bm25:expansion']);

    const withDense = find(fuseLists([...lists, list('dense', 'original', [['a', 0.7]])], rrf()), 'a');
    expect(withDense.scores.fused).toBeCloseTo(1 / 62 + 1 / 61, 12);
  });
});

describe('fuseLists, weighted', () => {
  it('min-max normalises each list: its best scores 1, its worst 0, a list of one gives 1', () => {
    const fused = fuseLists([list('bm25', 'original', [['a', 10], ['b', 6], ['c', 2]]), list('dense', 'original', [['d', 0.3]])], weighted());
    expect(fused.map((candidate) => [candidate.chunk.id, candidate.scores.fused])).toEqual([
      ['a', 1],
      ['d', 1],
      ['b', 0.5],
      ['c', 0],
    ]);
  });

  it('gives every hit of a list with equal scores full weight', () => {
    const fused = fuseLists([list('dense', 'original', [['e', 0.4], ['f', 0.4]], { weight: 0.8 })], weighted());
    expect(fused.map((candidate) => candidate.scores.fused)).toEqual([0.8, 0.8]);
  });

  it('normalises negative similarities too', () => {
    const fused = fuseLists([list('dense', 'original', [['a', 0.75], ['b', 0.25], ['c', -0.25]])], weighted());
    expect(fused.map((candidate) => candidate.scores.fused)).toEqual([1, 0.5, 0]);
  });

  it('adds the retrievers: normalised BM25 plus weighted normalised dense', () => {
    const fused = fuseLists([list('bm25', 'original', [['a', 10], ['b', 5], ['c', 0]]), list('dense', 'original', [['c', 0.9], ['b', 0.5], ['a', 0.1]])], weighted(0.3));
    expect(find(fused, 'a').scores.fused).toBeCloseTo(1, 12);
    expect(find(fused, 'b').scores.fused).toBeCloseTo(0.5 + 0.3 * 0.5, 12);
    expect(find(fused, 'c').scores.fused).toBeCloseTo(0.3, 12);
  });
});

describe('fuseLists, retriever weights', () => {
  // BM25 and dense disagree completely: the dense order is the BM25 order reversed.
  const lists = [list('bm25', 'original', [['a', 9], ['b', 7], ['c', 5], ['d', 3]]), list('dense', 'original', [['d', 0.9], ['c', 0.7], ['b', 0.5], ['a', 0.3]])];

  it.each([['rrf', rrf], ['weighted', weighted]] as const)('%s: dense weight 0 leaves the BM25 order, a heavy dense weight reverses it', (_, method) => {
    expect(ids(fuseLists(lists, method(0)))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(fuseLists(lists, method(2)))).toEqual(['d', 'c', 'b', 'a']);
  });

  it('bm25 weight 0 leaves the dense order', () => {
    expect(ids(fuseLists(lists, rrf(1, 0)))).toEqual(['d', 'c', 'b', 'a']);
  });
});

describe('fuseLists, explain trace and scores', () => {
  it("keeps one trace entry per list a candidate appeared in, with that list's rank and score, then a fused entry at its fused position", () => {
    const fused = fuseLists(
      [
        list('bm25', 'original', [['b', 8.5], ['a', 4.25]], { query: 'rotate keys' }),
        list('dense', 'original', [['a', 0.75]]),
        list('bm25', 'prf', [['c', 3], ['a', 2]], { weight: 0.5 }),
      ],
      rrf(),
    );
    expect(ids(fused)).toEqual(['a', 'b', 'c']);
    const a = find(fused, 'a');
    expect(a.trace).toHaveLength(4);
    expect(a.trace.slice(0, 3)).toMatchObject([
      { technique: 'bm25:original', rank: 2, score: 4.25 },
      { technique: 'dense:original', rank: 1, score: 0.75 },
      { technique: 'bm25:prf', rank: 2, score: 2 },
    ]);
    expect(a.trace[0]?.detail).toContain('query "rotate keys"');
    expect(a.trace[3]).toMatchObject({ technique: 'fused', rank: 1, score: Math.round((1 / 62 + 1 / 61) * 10_000) / 10_000 });
    expect(a.techniques).toEqual(['bm25:original', 'dense:original', 'bm25:prf']);

    const c = find(fused, 'c');
    expect(c.trace.map((entry) => [entry.technique, entry.rank])).toEqual([
      ['bm25:prf', 1],
      ['fused', 3],
    ]);
    fused.forEach((candidate, index) => expect(candidate.trace.at(-1)).toMatchObject({ technique: 'fused', rank: index + 1 }));
  });

  it('carries the raw BM25 score and dense similarity in scores.bm25 and scores.dense, and only those it has', () => {
    const fused = fuseLists([list('bm25', 'original', [['a', 12.5], ['b', 3]]), list('dense', 'original', [['a', 0.83]])], rrf());
    expect(find(fused, 'a').scores).toEqual({ fused: 2 / 61, bm25: 12.5, dense: 0.83 });
    expect(find(fused, 'b').scores).toEqual({ fused: 1 / 62, bm25: 3 });
  });

  it('marks a chunk found only by follow-up lists with the follow-up query, and not one the first round found', () => {
    const fused = fuseLists(
      [
        list('bm25', 'original', [['a', 5]]),
        list('bm25', 'follow-up', [['w', 4], ['a', 3]], { weight: 0.6, query: 'webhook retries', followUp: true }),
        // a's dense contribution comes from the follow-up only: its BM25 one still says the first round found it.
        list('dense', 'follow-up', [['w', 0.6], ['a', 0.5]], { weight: 0.6, query: 'webhook retries', followUp: true }),
      ],
      rrf(),
    );
    expect(find(fused, 'w')).toMatchObject({ retrievalType: 'follow-up', followUpQuery: 'webhook retries' });
    expect(find(fused, 'w').trace[0]?.detail).toMatch(/^follow-up query "webhook retries"/);
    expect(find(fused, 'a').retrievalType).toBeUndefined();
  });

  // `a` is the last hit of the first-round list (normalised 0) and the first of the follow-up list
  // (0.6): its follow-up contribution is the larger, yet the first round found it.
  it('does not mark a chunk the first round found as follow-up-only, even when its follow-up contribution is the larger', () => {
    const fused = fuseLists(
      [list('bm25', 'original', [['x', 9], ['y', 6], ['a', 2]]), list('bm25', 'follow-up', [['a', 4]], { weight: 0.6, query: 'webhook', followUp: true })],
      weighted(),
    );
    expect(find(fused, 'a').retrievalType).toBeUndefined();
  });
});

describe('fuseLists, determinism', () => {
  it('orders ties by chunk id, whatever the order of the lists', () => {
    const bm25 = list('bm25', 'original', [['b', 5]]);
    const dense = list('dense', 'original', [['a', 0.5]]);
    expect(ids(fuseLists([bm25, dense], rrf()))).toEqual(['a', 'b']);
    expect(ids(fuseLists([dense, bm25], rrf()))).toEqual(['a', 'b']);
  });

  it("breaks a tie for the lead by the question's own list, then by every list's support, before the chunk id", () => {
    // a and z both score 1 (each tops a BM25 list); z is the question's own best.
    const own = list('bm25', 'original', [['z', 9], ['a', 6], ['c', 1]]);
    const joined = list('bm25', 'compounds', [['a', 12], ['z', 9], ['c', 1]]);
    const fused = fuseLists([own, joined], weighted());
    expect(ids(fused).slice(0, 2)).toEqual(['z', 'a']);
    expect(fused[0]?.trace.at(-1)?.detail).toContain("tied, ordered by the question's own lists (1), then all lists together (1.7273)");
    expect(fused[2]?.trace.at(-1)?.detail).not.toContain('tied');
    // Equal on the question's own list: the one the other lists support more leads.
    const both = list('bm25', 'original', [['a', 1], ['z', 1]]);
    const compounds = list('bm25', 'compounds', [['a', 9], ['z', 8], ['c', 0]]);
    const aliases = list('bm25', 'aliases', [['z', 9], ['a', 1], ['c', 0]]);
    expect(ids(fuseLists([both, compounds, aliases], weighted())).slice(0, 2)).toEqual(['z', 'a']);
  });

  it('returns nothing for no lists or empty lists', () => {
    expect(fuseLists([], rrf())).toEqual([]);
    expect(fuseLists([list('bm25', 'original', [])], weighted())).toEqual([]);
  });

  it('is order-independent: any permutation of the lists gives the same candidates, fused scores and trace entries', () => {
    const listArbitrary = fc
      .record({
        retriever: fc.constantFrom<Retriever>('bm25', 'dense'),
        technique: fc.constantFrom('original', 'prf', 'hyde', 'expansion'),
        weight: fc.constantFrom(0.5, 0.8, 1),
        hits: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 }).chain((hitIds) => fc.tuple(fc.constant(hitIds), fc.array(fc.integer({ min: -5, max: 20 }), { minLength: hitIds.length, maxLength: hitIds.length }))),
      })
      .map(({ retriever, technique, weight, hits: [hitIds, scores] }) => {
        // A ranked list is sorted best first.
        const sorted = hitIds.map((id, index): [string, number] => [id, scores[index] ?? 0]).sort((left, right) => right[1] - left[1]);
        return list(retriever, technique, sorted, { weight });
      });
    const scenario = fc.record({
      lists: fc.array(listArbitrary, { maxLength: 5 }),
      method: fc.constantFrom('rrf', 'weighted'),
      denseWeight: fc.constantFrom(0, 0.3, 1),
    }).chain((value) => fc.tuple(fc.constant(value), fc.shuffledSubarray(value.lists, { minLength: value.lists.length, maxLength: value.lists.length })));

    fc.assert(
      fc.property(scenario, ([{ lists, method, denseWeight }, permuted]) => {
        const options = method === 'rrf' ? rrf(denseWeight) : weighted(denseWeight);
        const summary = (candidates: readonly Candidate[]) =>
          candidates.map((candidate) => ({
            id: candidate.chunk.id,
            fused: candidate.scores.fused,
            trace: candidate.trace.map((entry) => `${entry.technique}@${entry.rank}=${entry.score}`).sort(),
          }));
        expect(summary(fuseLists(permuted, options))).toEqual(summary(fuseLists(lists, options)));
      }),
    );
  });
});
