import { describe, expect, it } from 'vitest';
import { type PageChoice, type PageSelectOptions, selectPages } from './page-selector.js';

const page = (url: string, relevance: number, options: Partial<PageChoice> = {}): PageChoice => ({ url, relevance, factor: 1, rank: 1, fragmentScores: [relevance], ...options });

function options(overrides: Partial<PageSelectOptions> = {}, costs: Record<string, number> = {}, fragmentCosts: Record<string, number[]> = {}): PageSelectOptions {
  return {
    maxTotalTokens: 1000,
    maxSelectedPages: 5,
    scoreThreshold: 0.1,
    similarityThreshold: 0.9,
    similarity: () => 0,
    cost: (url, fragments) => (fragments === undefined ? (costs[url] ?? 100) : fragments.reduce((sum, index) => sum + (fragmentCosts[url]?.[index] ?? 10), 5)),
    sectionShare: 0.5,
    wholeShare: 0.3,
    ...overrides,
  };
}

describe('selectPages', () => {
  it('orders by relevance times the domain factor, so an official page beats an equally relevant blog', () => {
    const { selected } = selectPages([page('blog', 0.7, { rank: 1 }), page('official', 0.68, { factor: 1.3, rank: 2 })], options());
    expect(selected.map((choice) => choice.url)).toEqual(['official', 'blog']);
  });

  it('breaks equal scores by search rank', () => {
    const { selected } = selectPages([page('second', 0.5, { rank: 2 }), page('first', 0.5, { rank: 1 })], options());
    expect(selected.map((choice) => choice.url)).toEqual(['first', 'second']);
  });

  it('drops pages under the threshold and beyond the page cap, saying why', () => {
    const { selected, dropped } = selectPages([page('a', 0.9), page('b', 0.8), page('c', 0.7), page('weak', 0.05)], options({ maxSelectedPages: 2 }));
    expect(selected.map((choice) => choice.url)).toEqual(['a', 'b']);
    expect(dropped).toEqual([
      { url: 'c', reason: 'cap', score: 0.7 },
      { url: 'weak', reason: 'threshold', score: 0.05 },
    ]);
  });

  it('skips a near-duplicate of a selected page and names the page it copies', () => {
    const similarity = (a: string, b: string) => ([a, b].sort().join() === 'copy-a,copy-b' ? 0.95 : 0.1);
    const { selected, dropped } = selectPages([page('copy-a', 0.8), page('copy-b', 0.79), page('other', 0.5)], options({ similarity }));
    expect(selected.map((choice) => choice.url)).toEqual(['copy-a', 'other']);
    expect(dropped).toEqual([{ url: 'copy-b', reason: 'duplicate', score: 0.79, duplicateOf: 'copy-a', similarity: 0.95 }]);
  });

  it('takes the best sections of a page over the remaining budget, in reading order, and never exceeds the budget', () => {
    const big = page('big', 0.9, { fragmentScores: [0.1, 0.9, 0.2, 0.6, 0.85] });
    const { selected, totalTokens } = selectPages([page('small', 0.95), big], options({ maxTotalTokens: 400 }, { small: 150, big: 5000 }, { big: [100, 100, 100, 100, 100] }));
    expect(selected[0]).toEqual({ url: 'small', cost: 150 });
    // 250 left: two 100-token fragments (+5) fit; the best two by score are 1 and 4, kept in reading order.
    expect(selected[1]).toEqual({ url: 'big', fragments: [1, 4], partial: 'budget', cost: 205 });
    expect(totalTokens).toBe(355);
  });

  it('gives only the best sections of a page far less relevant than the best one, even when the whole page fits', () => {
    const marginal = page('marginal', 0.2, { fragmentScores: [0.2, 0.02, 0.15] });
    const { selected } = selectPages([page('best', 0.9), marginal], options({ wholeShare: 0.5 }, { best: 100, marginal: 300 }, { marginal: [50, 50, 50] }));
    expect(selected[1]).toEqual({ url: 'marginal', fragments: [0, 2], partial: 'marginal', cost: 105 });
  });

  it('drops a page none of whose sections fit, and still takes a smaller page after it', () => {
    const { selected, dropped } = selectPages([page('huge', 0.9, { fragmentScores: [0.9] }), page('small', 0.5)], options({ maxTotalTokens: 120 }, { huge: 5000, small: 100 }, { huge: [400] }));
    expect(selected.map((choice) => choice.url)).toEqual(['small']);
    expect(dropped).toEqual([{ url: 'huge', reason: 'budget', score: 0.9 }]);
  });
});
