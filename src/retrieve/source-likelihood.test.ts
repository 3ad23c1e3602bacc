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

  it('compares shares of passages, not counts: a small library that uses the words as often is as likely as a large one', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(10_000, { fixture: 2000, teardown: 500 })],
      [2, library(100, { fixture: 20, teardown: 5 })],
    ]));
    expect(posteriors.get(1)).toBeCloseTo(0.5, 1);
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
    expect(withTypos.get(1)).toBeCloseTo(0.5, 1);
  });

  it('finds every library alike when the question has no content words', () => {
    const posteriors = sourcePosteriors('how do I', new Map([
      [1, library(100, {})],
      [2, library(5, {})],
    ]));
    expect([...posteriors.values()]).toEqual([0.5, 0.5]);
  });
});
