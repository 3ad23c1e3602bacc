import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { selectCandidates } from './selector.js';

describe('selectCandidates', () => {
  it('keeps score order, skips exact duplicates and stops at the limit', () => {
    const list = [candidate({ text: 'a', anchor: '1' }), candidate({ text: 'a', anchor: '2' }), candidate({ text: 'b', anchor: '3' }), candidate({ text: 'c', anchor: '4' })];
    const selection = selectCandidates(list, { limit: 2, maxTotalTokens: 100 });
    expect(selection.candidates.map((item) => item.chunk.anchor)).toEqual(['1', '3']);
    expect(selection.dropped).toEqual([
      { reason: 'duplicate', url: 'https://d.example/page.html#2', duplicateOf: 'https://d.example/page.html#1', similarity: 1, score: 1 },
      { reason: 'limit', url: 'https://d.example/page.html#4', score: 1 },
    ]);
  });

  it('skips a passage over the remaining budget but takes a smaller one after it', () => {
    const list = [candidate({ text: 'a', anchor: 'a', tokenCount: 60 }), candidate({ text: 'b', anchor: 'b', tokenCount: 50 }), candidate({ text: 'c', anchor: 'c', tokenCount: 30 })];
    const selection = selectCandidates(list, { limit: 10, maxTotalTokens: 100 });
    expect(selection.candidates.map((item) => item.chunk.text)).toEqual(['a', 'c']);
    expect(selection.totalTokens).toBe(90);
    expect(selection.dropped).toEqual([{ reason: 'budget', url: 'https://d.example/page.html#b', score: 1 }]);
  });

  it('gives one result per place: a second passage of a kept section (same page#anchor) is dropped as its duplicate', () => {
    const list = [candidate({ text: 'first part', anchor: 'install', score: 3 }), candidate({ text: 'other section', anchor: 'usage', score: 2 }), candidate({ text: 'second part', anchor: 'install', score: 1 })];
    const selection = selectCandidates(list, { limit: 10, maxTotalTokens: 1000 });
    expect(selection.candidates.map((item) => item.chunk.text)).toEqual(['first part', 'other section']);
    expect(selection.dropped).toEqual([{ reason: 'duplicate', url: 'https://d.example/page.html#install', duplicateOf: 'https://d.example/page.html#install', score: 1 }]);
  });

  it('never exceeds the token budget or the limit, and accounts for every candidate (property)', () => {
    const candidates = fc.array(fc.record({ text: fc.string({ maxLength: 3 }), tokenCount: fc.integer({ min: 1, max: 500 }) }), { maxLength: 40 });
    fc.assert(
      fc.property(candidates, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 12 }), (items, maxTotalTokens, limit) => {
        const selection = selectCandidates(items.map((item) => candidate(item)), { limit, maxTotalTokens });
        const total = selection.candidates.reduce((sum, item) => sum + item.chunk.tokenCount, 0);
        expect(total).toBe(selection.totalTokens);
        expect(total).toBeLessThanOrEqual(maxTotalTokens);
        expect(selection.candidates.length).toBeLessThanOrEqual(limit);
        expect(selection.candidates.length + selection.dropped.length).toBe(items.length);
      }),
    );
  });

  it('drops candidates under the score threshold first, saying so', () => {
    const list = [candidate({ text: 'a', anchor: '1', score: 0.9 }), candidate({ text: 'b', anchor: '2', score: 0.2 })];
    const selection = selectCandidates(list, { limit: 5, maxTotalTokens: 100, scoreThreshold: 0.5 });
    expect(selection.candidates.map((item) => item.chunk.anchor)).toEqual(['1']);
    expect(selection.dropped).toEqual([{ reason: 'threshold', url: 'https://d.example/page.html#2', score: 0.2 }]);
  });

  it('skips a near-duplicate of a kept passage, naming the passage it repeats', () => {
    const list = [candidate({ text: 'alpha beta', anchor: '1', score: 3 }), candidate({ text: 'alpha beta!', anchor: '2', score: 2 }), candidate({ text: 'gamma', anchor: '3', score: 1 })];
    const similarity = (a: Candidate, b: Candidate) => (a.chunk.text.startsWith('alpha') && b.chunk.text.startsWith('alpha') ? 0.95 : 0.1);
    const selection = selectCandidates(list, { limit: 5, maxTotalTokens: 100, similarity });
    expect(selection.candidates.map((item) => item.chunk.anchor)).toEqual(['1', '3']);
    expect(selection.dropped).toEqual([{ reason: 'duplicate', url: 'https://d.example/page.html#2', duplicateOf: 'https://d.example/page.html#1', similarity: 0.95, score: 2 }]);
    expect(selectCandidates(list, { limit: 5, maxTotalTokens: 100, similarity, similarityThreshold: 0.99 }).candidates).toHaveLength(3);
  });

  it('caps the distinct pages but still takes more passages of a kept page', () => {
    const list = [
      candidate({ url: 'https://d.example/a', text: 'a1', score: 4 }),
      candidate({ url: 'https://d.example/b', text: 'b1', score: 3 }),
      candidate({ url: 'https://d.example/a', text: 'a2', anchor: 'x', score: 2 }),
    ];
    const selection = selectCandidates(list, { limit: 5, maxTotalTokens: 100, maxSelectedPages: 1 });
    expect(selection.candidates.map((item) => item.chunk.text)).toEqual(['a1', 'a2']);
    expect(selection.dropped).toEqual([{ reason: 'cap', url: 'https://d.example/b', score: 3 }]);
  });

  const arbitraryCandidates = fc.array(
    fc.record({ page: fc.integer({ min: 0, max: 5 }), text: fc.string({ maxLength: 4 }), tokenCount: fc.integer({ min: 1, max: 300 }), score: fc.integer({ min: 0, max: 5 }), topic: fc.integer({ min: 0, max: 3 }) }),
    { maxLength: 30 },
  );
  const build = (items: { page: number; text: string; tokenCount: number; score: number; topic: number }[]) =>
    items.map((item, index) => ({ ...candidate({ url: `https://d.example/p${item.page}`, anchor: `s${index}`, text: `${item.text}#${index}`, tokenCount: item.tokenCount, score: item.score }), topic: item.topic }));
  const bySameTopic = (topics: Map<string, number>) => (a: Candidate, b: Candidate) => (topics.get(a.chunk.id) === topics.get(b.chunk.id) ? 0.95 : 0.2);

  it('never exceeds the budget or the page cap, never keeps two passages above the similarity threshold (property)', () => {
    fc.assert(
      fc.property(arbitraryCandidates, fc.integer({ min: 1, max: 800 }), fc.integer({ min: 1, max: 4 }), (items, maxTotalTokens, maxSelectedPages) => {
        const list = build(items);
        const topics = new Map(list.map((item) => [item.chunk.id, item.topic]));
        const similarity = bySameTopic(topics);
        const selection = selectCandidates(list, { limit: 10, maxTotalTokens, maxSelectedPages, similarity });
        expect(selection.totalTokens).toBeLessThanOrEqual(maxTotalTokens);
        expect(new Set(selection.candidates.map((item) => item.chunk.pageUrl)).size).toBeLessThanOrEqual(maxSelectedPages);
        for (const [index, a] of selection.candidates.entries()) {
          for (const b of selection.candidates.slice(index + 1)) expect(similarity(a, b)).toBeLessThan(0.9);
        }
        expect(selection.candidates.length + selection.dropped.length).toBe(list.length);
      }),
    );
  });

  it('selects the same passages whatever the input order of equal scores (property)', () => {
    fc.assert(
      fc.property(arbitraryCandidates, fc.integer({ min: 1, max: 800 }), (items, maxTotalTokens) => {
        const list = build(items);
        const options = { limit: 6, maxTotalTokens, maxSelectedPages: 3 };
        const forward = selectCandidates(list, options).candidates.map((item) => item.chunk.id);
        const backward = selectCandidates([...list].reverse(), options).candidates.map((item) => item.chunk.id);
        expect(backward).toEqual(forward);
      }),
    );
  });
});
