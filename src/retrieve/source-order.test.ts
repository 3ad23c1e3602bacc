import { describe, expect, it } from 'vitest';
import type { Candidate, TermStats } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { orderWithinSources, type SourceOrderOptions } from './source-order.js';

const passage = (library: 'a' | 'b' | 'c', name: string, score = 1) => candidate({ url: `https://${library}.example/${name}.html`, text: name, score });
const sourceOf = (item: Candidate) => ({ 'https://a.': 1, 'https://b.': 2, 'https://c.': 3 })[item.chunk.pageUrl.slice(0, 10)];
const names = (items: readonly Candidate[]) => items.map((item) => item.chunk.text);

/** Term statistics where library a's passages hold "fixture" often and library b's never, or both alike. */
const stats = (frequencies: Record<number, number>) => (source: number, words: readonly string[]): Promise<TermStats> =>
  Promise.resolve({ documents: 100, documentFrequency: new Map(words.map((word) => [word, frequencies[source] ?? 0])) });

const options = (own: Map<number, Candidate[]>, termStatsWithin: SourceOrderOptions['termStatsWithin'], extra: Partial<SourceOrderOptions> = {}): SourceOrderOptions => ({
  question: 'fixture teardown',
  sourceOf,
  retrieveWithin: (id) => Promise.resolve(own.get(id) ?? []),
  termStatsWithin,
  maxSources: 8,
  ...extra,
});

describe('orderWithinSources', () => {
  it("gives a question plainly about one library that library's own ranking first, as if scoped to it, the others after", async () => {
    // Globally b1 comes first (a word of the question is rare in the whole index); the words are a's.
    const global = [passage('b', 'b1', 0.9), passage('a', 'a2', 0.8), passage('b', 'b2', 0.7), passage('a', 'a1', 0.6)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a2')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    const ordered = await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 })));
    expect(names(ordered)).toEqual(['a1', 'a2', 'b1', 'b2']);
    // Each position keeps the whole-index score there, so scores still fall; a moved passage says why.
    expect(ordered.map((item) => item.scores.fused)).toEqual([0.9, 0.8, 0.7, 0.6]);
    expect(ordered[0]?.trace.at(-1)).toMatchObject({ technique: 'source-order', rank: 1 });
    expect(ordered[0]?.trace.at(-1)?.detail).toMatch(/own ranking, which the question is about with probability 1\.000/);
  });

  it('ranks every library of a small index alone, even one none of whose passages made the whole-index ranking', async () => {
    // A large library's passages fill the whole-index ranking; the question's words are a's.
    const global = [passage('b', 'b1', 0.9), passage('b', 'b2', 0.8)];
    const own = new Map([
      [1, [passage('a', 'a1')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    expect(names(await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 }), { allSources: [1, 2] })))).toEqual(['a1', 'b1']);
    // More sources than it may re-order: only those the ranking holds.
    expect(names(await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 }), { allSources: [1, 2, 3], maxSources: 2 })))).toEqual(['b1', 'b2']);
  });

  it('interleaves the best passages of libraries the question fits alike', async () => {
    const global = [passage('a', 'a2', 0.9), passage('a', 'a3', 0.8), passage('a', 'a1', 0.7), passage('b', 'b1', 0.6)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a2'), passage('a', 'a3')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    const ordered = await orderWithinSources(global, options(own, stats({ 1: 10, 2: 10 })));
    // Each library's first (½ / 1), then each one's second (½ / 2): a3, third in a, comes last.
    expect(names(ordered)).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it("brings in a library's own best passage that the whole-index ranking missed, never lists a passage twice, and returns no more than it was given", async () => {
    const global = [passage('a', 'a2', 0.9), passage('b', 'b1', 0.8), passage('a', 'a3', 0.7)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a2'), passage('a', 'a3')]],
      [2, [passage('b', 'b1')]],
    ]);
    const ordered = await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 })));
    // b1, of a library the question is not about, falls off the end of a list of three.
    expect(names(ordered)).toEqual(['a1', 'a2', 'a3']);
  });

  it("keeps a passage the whole index ranked but its library's own ranking did not, after that library's own list", async () => {
    // a9 came from a round the scoped retrieval did not run (a follow-up query, say).
    const global = [passage('a', 'a9', 0.9), passage('b', 'b1', 0.8), passage('a', 'a1', 0.7), passage('b', 'b2', 0.6)];
    const own = new Map([
      [1, [passage('a', 'a1')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    const ordered = await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 })));
    expect(names(ordered)).toEqual(['a1', 'a9', 'b1', 'b2']);
  });

  it("lists a passage once even when a library's own ranking repeats it", async () => {
    const global = [passage('a', 'a1', 0.9), passage('b', 'b1', 0.8), passage('a', 'a2', 0.7)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a1'), passage('a', 'a2')]],
      [2, [passage('b', 'b1')]],
    ]);
    const ordered = await orderWithinSources(global, options(own, stats({ 1: 40, 2: 0 })));
    expect(names(ordered)).toEqual(['a1', 'a2', 'b1']);
  });

  it('changes nothing when no source may be re-ordered (maxSources 0)', async () => {
    const global = [passage('b', 'b1', 0.9), passage('a', 'a1', 0.8)];
    const ordered = await orderWithinSources(global, { ...options(new Map(), stats({ 1: 40 })), maxSources: 0 });
    expect(names(ordered)).toEqual(['b1', 'a1']);
  });

  it('changes nothing when the ranking holds one source only, and retrieves nothing more', async () => {
    const global = [passage('a', 'a2', 0.9), passage('a', 'a1', 0.8)];
    let retrievals = 0;
    const ordered = await orderWithinSources(global, { ...options(new Map(), stats({})), retrieveWithin: () => ((retrievals += 1), Promise.resolve([])) });
    expect(names(ordered)).toEqual(['a2', 'a1']);
    expect(retrievals).toBe(0);
  });

  it('re-orders at most maxSources sources, the most frequent in the ranking; the others keep their whole-index ranks', async () => {
    const global = [passage('c', 'c1', 0.9), passage('a', 'a2', 0.8), passage('a', 'a3', 0.7), passage('b', 'b1', 0.6), passage('b', 'b2', 0.5)];
    const asked: number[] = [];
    const own = new Map([
      [1, [passage('a', 'a3'), passage('a', 'a2')]],
      [2, [passage('b', 'b2'), passage('b', 'b1')]],
    ]);
    const ordered = await orderWithinSources(global, { ...options(own, stats({ 1: 10, 2: 10 })), retrieveWithin: (id) => (asked.push(id), Promise.resolve(own.get(id) ?? [])), maxSources: 2 });
    expect(asked.sort()).toEqual([1, 2]);
    // a and b are alike (½ each): their own firsts a3, b2, then c1, the first of the sources not re-ordered, weighted as
    // the least likely one (½); then a2, b1 (¼).
    expect(names(ordered)).toEqual(['a3', 'b2', 'c1', 'a2', 'b1']);
  });
});
