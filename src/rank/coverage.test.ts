import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../core/config.js';
import type { Chunk, LexicalRanking } from '../core/types.js';
import { lexicalCoverage } from './coverage.js';

const ranking: LexicalRanking = { fieldWeights: DEFAULT_CONFIG.retrieve.fieldWeights, ...DEFAULT_CONFIG.retrieve.lexical };

function chunk(text: string, options: { title?: string; headingPath?: string[] } = {}): Chunk {
  return { id: text.slice(0, 30), pageUrl: 'https://example.test/page', pageTitle: options.title ?? 'Page', headingPath: options.headingPath ?? [], text, tokenCount: text.split(' ').length, contentHash: text };
}

describe('lexicalCoverage', () => {
  it('is 0 for a passage without any query term and grows with the terms matched', () => {
    const [none, one, both] = lexicalCoverage('flatMap callback', [chunk('Graph databases store nodes and edges.'), chunk('The flatMap method returns a new array.'), chunk('The flatMap method calls a callback on each element.')], ranking);
    expect(none).toBe(0);
    expect(one).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(one as number);
  });

  it('stays below 1 and ranks a passage naming the API in its title and headings above one that mentions it in passing', () => {
    const scores = lexicalCoverage('Array.prototype.flatMap', [
      chunk('Array.prototype.flatMap() maps each element, then flattens the result by one level.', { title: 'Array.prototype.flatMap()', headingPath: ['Array.prototype.flatMap()'] }),
      chunk('Many array methods exist; see also flatMap for mapping and flattening.', { title: 'Arrays', headingPath: ['Overview'] }),
    ], ranking);
    for (const score of scores) expect(score).toBeLessThan(1);
    expect(scores[0]).toBeGreaterThan((scores[1] as number) * 1.5);
  });

  it('hardly depends on how many other passages of similar length are scored with it', () => {
    const passage = chunk('The flatMap method calls a callback on each element and flattens the result.');
    const alone = lexicalCoverage('flatMap flattens', [passage], ranking)[0] as number;
    const withOthers = lexicalCoverage('flatMap flattens', [passage, ...Array.from({ length: 20 }, (_, index) => chunk(`Unrelated text number ${index} about storage engines, their pages, logs and caches on disk.`))], ranking)[0] as number;
    expect(withOthers).toBeCloseTo(alone, 1);
  });

  it('gives every passage 0 for a query of stop words only or an empty list', () => {
    expect(lexicalCoverage('flatMap', [], ranking)).toEqual([]);
    expect(lexicalCoverage('the of and', [chunk('The flatMap method.')], ranking).every((score) => score >= 0)).toBe(true);
  });
});
