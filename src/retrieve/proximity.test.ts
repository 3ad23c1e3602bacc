import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testChunk } from '../testing/text-index-double.js';
import type { Candidate } from '../core/types.js';
import { liftByProximity, pairsTogether, questionPairs } from './proximity.js';

const candidate = (id: string, text: string, fused: number): Candidate => ({ chunk: testChunk({ id, text }), scores: { fused }, techniques: ['bm25'], trace: [] });

describe('questionPairs', () => {
  it('pairs neighbouring content words in the index form, bridging stop-words', () => {
    expect(questionPairs('save the chart as an image file')).toEqual([
      ['save', 'chart'],
      ['chart', 'imag'],
      ['imag', 'file'],
    ]);
  });

  it('breaks a phrase at punctuation and at quoted spans (the asker’s own values), and pairs no word with itself', () => {
    expect(questionPairs('delete file `filename`, then close it')).toEqual([['delet', 'file']]);
    expect(questionPairs('test test runner')).toEqual([['test', 'runner']]);
    expect(questionPairs('how do I')).toEqual([]);
    expect(questionPairs('use os.path.join with pathlib. Then stop')).toEqual([
      ['os', 'path'],
      ['path', 'join'],
      ['join', 'pathlib'],
    ]);
  });
});

describe('pairsTogether', () => {
  it('counts the share of pairs whose words stand within the window, in either order', () => {
    const pairs = questionPairs('output file, log level');
    expect(pairsTogether('the output to a file', pairs, 3)).toBe(0.5);
    expect(pairsTogether('file output; level of the log', pairs, 3)).toBe(1);
    expect(pairsTogether('output, then one two three four five words, then file', pairs, 3)).toBe(0);
  });

  it('is a share between 0 and 1 for any text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('output', 'file', 'the', 'log', 'level', 'x'), { maxLength: 40 }), (tokens) => {
        const share = pairsTogether(tokens.join(' '), questionPairs('output file log level'), 3);
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('liftByProximity', () => {
  it('lifts a passage by at most `weight` of its score, so a clearly better text match keeps its place', () => {
    const candidates = [candidate('best', 'output here and much later a file', 1), candidate('close', 'the output file', 0.95), candidate('weak', 'the output file', 0.5)];
    const lifted = liftByProximity(candidates, 'output file', { weight: 0.1, window: 3 });
    expect(lifted.map((entry) => entry.chunk.id)).toEqual(['close', 'best', 'weak']);
    expect(lifted.find((entry) => entry.chunk.id === 'weak')?.scores.fused).toBeCloseTo(0.55);
    expect(lifted.find((entry) => entry.chunk.id === 'close')?.trace.at(-1)?.technique).toBe('proximity');
  });

  it('changes nothing for a one-word question or a zero weight', () => {
    const candidates = [candidate('a', 'x', 1), candidate('b', 'output file', 0.9)];
    expect(liftByProximity(candidates, 'output', { weight: 0.1, window: 3 })).toEqual(candidates);
    expect(liftByProximity(candidates, 'output file', { weight: 0, window: 3 })).toEqual(candidates);
  });
});
