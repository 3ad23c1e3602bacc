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

  it("never reads two entries that define different names as duplicates, however alike their words (Haddock's eitherDecode and eitherDecode')", () => {
    const entry = (name: string, anchor: string, text: string) => candidate({ url: 'https://d.example/Data-Aeson.html', anchor, headingPath: ['Data.Aeson', `${name} :: FromJSON a => ByteString -> Either String a`], text });
    const lazy = entry('eitherDecode', 'v:eitherDecode', 'Like decode but returns an error message when decoding fails.');
    const strict = entry("eitherDecode'", 'v:eitherDecode-39-', "Like decode' but returns an error message when decoding fails.");
    const overload = entry('eitherDecode', 'v:eitherDecode', 'Like decode but returns an error message when decoding fails!');
    const similarity = passageSimilarity(new Map());
    expect(similarity(lazy, strict)).toBe(0);
    // One name documented twice (a re-export, an overload) may still be a duplicate.
    expect(similarity(lazy, overload)).toBe(1);
  });
});

