import { describe, expect, it } from 'vitest';
import type { SearchResult } from './engine-types.js';
import { groupByPage } from './page-groups.js';

const result = (url: string, score: number, tokenCount = 10): SearchResult => ({
  url,
  library: 'lib',
  version: '1.0',
  title: `Title of ${url.split('#')[0] ?? url}`,
  headingPath: [],
  text: `text of ${url}`,
  score,
  tokenCount,
});

describe('groupByPage', () => {
  it('lists each page once, in the order of its best result, with its sections best first', () => {
    const groups = groupByPage([result('https://d.test/a.html#x', 0.9), result('https://d.test/b.html#y', 0.8), result('https://d.test/a.html#z', 0.7), result('https://d.test/b.html', 0.6)]);
    expect(groups.map((group) => group.url)).toEqual(['https://d.test/a.html', 'https://d.test/b.html']);
    expect(groups[0]?.sections.map((section) => section.url)).toEqual(['https://d.test/a.html#x', 'https://d.test/a.html#z']);
    expect(groups[1]?.sections.map((section) => section.url)).toEqual(['https://d.test/b.html#y', 'https://d.test/b.html']);
    expect(groups.map((group) => group.score)).toEqual([0.9, 0.8]);
  });

  it('holds exactly the results given, so a grouped answer costs the same tokens as the flat one', () => {
    const results = [result('https://d.test/a.html#x', 0.9, 120), result('https://d.test/b.html#y', 0.8, 30), result('https://d.test/a.html#z', 0.7, 45)];
    const groups = groupByPage(results);
    expect(groups.flatMap((group) => group.sections)).toHaveLength(results.length);
    expect(groups.reduce((sum, group) => sum + group.tokenCount, 0)).toBe(195);
    expect(groups[0]?.tokenCount).toBe(165);
  });

  it('gives nothing for no results', () => {
    expect(groupByPage([])).toEqual([]);
  });
});
