import { describe, expect, it } from 'vitest';
import { distinct, hitAt, ndcgAt, percentile, recallAt, reciprocalRankAt } from './metrics.js';

describe('retrieval metrics', () => {
  it('nDCG@k is 1 for the ideal order and discounts relevant items ranked lower', () => {
    const relevance = new Map([['a', 2], ['b', 1]]);
    expect(ndcgAt(10, ['a', 'b', 'x'], relevance)).toBe(1);
    // DCG = 1/log2(2) + 2/log2(3); IDCG = 2/log2(2) + 1/log2(3)
    expect(ndcgAt(10, ['b', 'a'], relevance)).toBeCloseTo((1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)), 10);
    expect(ndcgAt(1, ['x', 'a'], relevance)).toBe(0);
    expect(ndcgAt(10, ['a'], new Map())).toBe(0);
  });

  it('recall, reciprocal rank and hit look only at the top k', () => {
    const relevant = new Set(['a', 'b']);
    expect(recallAt(2, ['x', 'a', 'b'], relevant)).toBe(0.5);
    expect(recallAt(3, ['x', 'a', 'b'], relevant)).toBe(1);
    expect(reciprocalRankAt(10, ['x', 'y', 'b'], relevant)).toBeCloseTo(1 / 3);
    expect(reciprocalRankAt(2, ['x', 'y', 'b'], relevant)).toBe(0);
    expect(hitAt(1, ['a'], relevant)).toBe(1);
    expect(hitAt(1, ['x', 'a'], relevant)).toBe(0);
  });

  it('percentile takes the nearest rank; distinct keeps first occurrences', () => {
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 0.95)).toBe(5);
    expect(distinct(['a', 'b', 'a', 'c', 'b'])).toEqual(['a', 'b', 'c']);
  });
});
