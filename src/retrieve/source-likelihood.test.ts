import { describe, expect, it } from 'vitest';
import type { TermStats } from '../core/types.js';
import { contentWords, sourcePosteriors } from './source-likelihood.js';

const library = (documents: number, frequencies: Record<string, number>): TermStats => ({ documents, documentFrequency: new Map(Object.entries(frequencies)) });

describe('contentWords', () => {
  it('keeps the words that say what a question is about, a compound name whole and as its parts, each once', () => {
    expect(contentWords('How do I close the ssh_channel with closeChannel and close it?')).toEqual(['close', 'ssh_channel', 'ssh', 'channel', 'closechannel']);
  });
});

describe('sourcePosteriors', () => {
  it('makes the library whose passages hold the words more often the likelier one, the probabilities summing to 1', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(1000, { fixture: 200, teardown: 50 })],
      [2, library(1000, { fixture: 2, teardown: 1 })],
    ]));
    expect(posteriors.get(1)).toBeGreaterThan(0.99);
    expect((posteriors.get(1) ?? 0) + (posteriors.get(2) ?? 0)).toBeCloseTo(1, 12);
  });

  it('compares shares of passages, then counts every passage alike: of two libraries that use the words as often, the larger is likelier by its size', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(3000, { fixture: 600, teardown: 150 })],
      [2, library(1000, { fixture: 200, teardown: 50 })],
    ]));
    expect(posteriors.get(1)).toBeCloseTo(0.75, 2);
  });

  it('lets the words outweigh the sizes: a small library whose passages hold them far more often stays the likelier', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(20_000, { fixture: 200, teardown: 20 })],
      [2, library(1000, { fixture: 300, teardown: 100 })],
    ]));
    expect(posteriors.get(2)).toBeGreaterThan(0.99);
  });

  it('lowers, without ruling out, a library that lacks a word of the question', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(100, { fixture: 10, teardown: 0 })],
      [2, library(100, { fixture: 10, teardown: 1 })],
    ]));
    expect(posteriors.get(1)).toBeGreaterThan(0);
    expect(posteriors.get(1)).toBeLessThan(posteriors.get(2) ?? 0);
  });

  it('ignores a word no library holds (a typo, a name of the asker): it would favour the smallest library', () => {
    const sources = new Map([
      [1, library(20_000, { fixture: 2000 })],
      [2, library(1000, { fixture: 100 })],
    ]);
    const without = sourcePosteriors('fixture', sources);
    const withTypos = sourcePosteriors('fixture my_var fomrat', sources);
    expect(withTypos.get(1)).toBeCloseTo(without.get(1) ?? 0, 12);
  });

  it('goes by size alone when the question has no content words', () => {
    const posteriors = sourcePosteriors('how do I', new Map([
      [1, library(300, {})],
      [2, library(100, {})],
    ]));
    expect(posteriors.get(1)).toBeCloseTo(0.75, 12);
    expect(posteriors.get(2)).toBeCloseTo(0.25, 12);
  });
});
