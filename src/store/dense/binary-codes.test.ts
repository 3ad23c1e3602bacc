import { describe, expect, it } from 'vitest';
import { hammingShortlist, packCodes, signBits, wordsFor } from './binary-codes.js';

let seed = 7;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
const randomVector = (dimension: number) => Float32Array.from({ length: dimension }, random);

/** Hamming distance the slow way: compare the sign of every component. */
const naiveDistance = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + ((value > 0) !== ((b[index] ?? 0) > 0) ? 1 : 0), 0);

describe('binary codes', () => {
  it('sizes a code in whole 32-bit words', () => {
    expect(wordsFor(16)).toBe(1);
    expect(wordsFor(384)).toBe(12);
    expect(wordsFor(385)).toBe(13);
    expect(signBits(randomVector(100)).length).toBe(16);
  });

  it('shortlists exactly the k codes nearest in Hamming distance, ties by row id, for dimensions that fill words and that do not', () => {
    for (const dimension of [64, 100, 512]) {
      const vectors = Array.from({ length: 500 }, () => randomVector(dimension));
      const segment = packCodes(dimension, vectors.map((vector, index) => ({ rowId: 1000 + index * 3, code: signBits(vector) })));
      const query = randomVector(dimension);
      const expected = vectors
        .map((vector, index) => ({ rowId: 1000 + index * 3, distance: naiveDistance(query, vector) }))
        .sort((a, b) => a.distance - b.distance || a.rowId - b.rowId)
        .slice(0, 37)
        .map((entry) => entry.rowId);
      expect(hammingShortlist(segment, query, 37)).toEqual(expected);
    }
  });

  it('returns every code when k exceeds the segment, and nothing for an empty one', () => {
    const vectors = [randomVector(32), randomVector(32), randomVector(32)];
    const segment = packCodes(32, vectors.map((vector, index) => ({ rowId: index + 1, code: signBits(vector) })));
    expect(hammingShortlist(segment, vectors[1] ?? new Float32Array(32), 10).sort()).toEqual([1, 2, 3]);
    expect(hammingShortlist(segment, vectors[1] ?? new Float32Array(32), 10)[0]).toBe(2);
    expect(hammingShortlist(packCodes(32, []), randomVector(32), 10)).toEqual([]);
  });
});
