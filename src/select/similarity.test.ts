import { describe, expect, it } from 'vitest';
import { normalise } from '../core/vectors.js';
import { candidate } from '../testing/candidates.js';
import { passageSimilarity } from './similarity.js';

const lower = candidate({ anchor: 'str.lower', text: 'Return a copy of the string with all the cased characters converted to lowercase.' });
const casefold = candidate({ anchor: 'str.casefold', text: 'Return a casefolded copy of the string. Casefolded strings may be used for caseless matching.' });
const lowerAgain = candidate({ anchor: 'mirror', text: 'Return a copy of the string with all the cased characters converted to lowercase!' });

describe('passageSimilarity', () => {
  it('is the word overlap without vectors', () => {
    const similarity = passageSimilarity(new Map());
    expect(similarity(lower, lowerAgain)).toBe(1);
    expect(similarity(lower, casefold)).toBeLessThan(0.5);
  });

  it('uses the vectors only for passages that share most of their words: close embeddings of distinct entries are not duplicates', () => {
    const close = normalise(Float32Array.from([1, 0.1, 0]));
    const alsoClose = normalise(Float32Array.from([1, 0.12, 0]));
    const vectors = new Map([
      [lower.chunk.id, close],
      [casefold.chunk.id, alsoClose],
      [lowerAgain.chunk.id, alsoClose],
    ]);
    const similarity = passageSimilarity(vectors);
    expect(similarity(lower, casefold)).toBeLessThan(0.5);
    expect(similarity(lower, lowerAgain)).toBeGreaterThan(0.99);
  });
});
