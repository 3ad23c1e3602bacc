import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidate } from '../testing/candidates.js';
import { selectCandidates } from './selector.js';

describe('selectCandidates', () => {
  it('keeps score order, skips exact duplicates and stops at the limit', () => {
    const list = [candidate({ text: 'a', anchor: '1' }), candidate({ text: 'a', anchor: '2' }), candidate({ text: 'b', anchor: '3' }), candidate({ text: 'c', anchor: '4' })];
    const selection = selectCandidates(list, { limit: 2, maxTotalTokens: 100 });
    expect(selection.candidates.map((item) => item.chunk.anchor)).toEqual(['1', '3']);
    expect(selection.dropped).toEqual([
      { reason: 'duplicate', url: 'https://d.example/page.html#2' },
      { reason: 'limit', url: 'https://d.example/page.html#4' },
    ]);
  });

  it('skips a passage over the remaining budget but takes a smaller one after it', () => {
    const list = [candidate({ text: 'a', tokenCount: 60 }), candidate({ text: 'b', tokenCount: 50 }), candidate({ text: 'c', tokenCount: 30 })];
    const selection = selectCandidates(list, { limit: 10, maxTotalTokens: 100 });
    expect(selection.candidates.map((item) => item.chunk.text)).toEqual(['a', 'c']);
    expect(selection.totalTokens).toBe(90);
    expect(selection.dropped).toEqual([{ reason: 'budget', url: 'https://d.example/page.html' }]);
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
});
