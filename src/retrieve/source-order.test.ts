import { describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { orderWithinSources } from './source-order.js';

const passage = (library: 'a' | 'b', name: string, score = 1) => candidate({ url: `https://${library}.example/${name}.html`, text: name, score });
const sourceOf = (item: Candidate) => (item.chunk.pageUrl.startsWith('https://a.') ? 1 : item.chunk.pageUrl.startsWith('https://b.') ? 2 : undefined);
const names = (items: readonly Candidate[]) => items.map((item) => item.chunk.text);

describe('orderWithinSources', () => {
  it("keeps each library's slots of the global ranking and fills them in the library's own order", async () => {
    // Globally a2 outranks a1 (a word of a1's is common in library b); library a alone ranks a1 first.
    const global = [passage('a', 'a2', 0.9), passage('b', 'b1', 0.8), passage('a', 'a1', 0.7), passage('b', 'b2', 0.6)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a2')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    const ordered = await orderWithinSources(global, { sourceOf, retrieveWithin: (id) => Promise.resolve(own.get(id) ?? []), maxSources: 8 });
    expect(names(ordered)).toEqual(['a1', 'b1', 'a2', 'b2']);
    // The slot's score stays, so scores still fall along the list; the trace says whose slot it is.
    expect(ordered.map((item) => item.scores.fused)).toEqual([0.9, 0.8, 0.7, 0.6]);
    expect(ordered[0]?.trace.at(-1)).toMatchObject({ technique: 'source-order', rank: 1 });
  });

  it("brings in a library's own best passage that the global ranking missed, and never lists a passage twice", async () => {
    const global = [passage('a', 'a2', 0.9), passage('b', 'b1', 0.8), passage('a', 'a3', 0.7)];
    const own = new Map([
      [1, [passage('a', 'a1'), passage('a', 'a2')]],
      [2, [passage('b', 'b1')]],
    ]);
    const ordered = await orderWithinSources(global, { sourceOf, retrieveWithin: (id) => Promise.resolve(own.get(id) ?? []), maxSources: 8 });
    expect(names(ordered)).toEqual(['a1', 'b1', 'a2']);
  });

  it('changes nothing when the ranking holds one source only, and retrieves nothing more', async () => {
    const global = [passage('a', 'a2', 0.9), passage('a', 'a1', 0.8)];
    let retrievals = 0;
    const ordered = await orderWithinSources(global, { sourceOf, retrieveWithin: () => ((retrievals += 1), Promise.resolve([])), maxSources: 8 });
    expect(names(ordered)).toEqual(['a2', 'a1']);
    expect(retrievals).toBe(0);
  });

  it('re-orders at most maxSources sources, the most frequent in the ranking; the others keep their global order', async () => {
    const global = [passage('b', 'b2', 0.9), passage('a', 'a2', 0.8), passage('a', 'a3', 0.7), passage('b', 'b1', 0.6)];
    const asked: number[] = [];
    const own = new Map([
      [1, [passage('a', 'a3'), passage('a', 'a2')]],
      [2, [passage('b', 'b1'), passage('b', 'b2')]],
    ]);
    const ordered = await orderWithinSources([...global, passage('a', 'a4', 0.5)], {
      sourceOf,
      retrieveWithin: (id) => (asked.push(id), Promise.resolve(own.get(id) ?? [])),
      maxSources: 1,
    });
    expect(asked).toEqual([1]);
    expect(names(ordered)).toEqual(['b2', 'a3', 'a2', 'b1', 'a4']);
  });
});
