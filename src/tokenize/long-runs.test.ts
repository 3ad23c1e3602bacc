import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countInLinearTime, hasLongRun, LONG_RUNS, MAX_RUN_LENGTH } from './long-runs.js';
import { loadTokenizer } from './tokenizer.js';

/** A count function that records what it was given. */
function recordingCount() {
  const calls: string[] = [];
  return { calls, count: (text: string) => (calls.push(text), text.length) };
}

describe('countInLinearTime', () => {
  it('counts ordinary text in one call, exactly as the tokenizer does', () => {
    const { calls, count } = recordingCount();
    const text = 'CREATE INDEX CONCURRENTLY builds the index without locking writes. '.repeat(50);
    expect(countInLinearTime(text, count)).toBe(text.length);
    expect(calls).toEqual([text]);
  });

  it('never gives the tokenizer a run of letters, symbols or whitespace longer than the slice length, and loses no text', () => {
    const runs = ['a'.repeat(200_000), '漢'.repeat(5_000), '='.repeat(3_000), ' '.repeat(3_000)];
    for (const run of runs) {
      const { calls, count } = recordingCount();
      const text = `Intro words ${run} closing words`;
      expect(countInLinearTime(text, count)).toBe(text.length);
      expect(calls.join('')).toBe(text);
      expect(Math.max(...calls.map((call) => call.length))).toBeLessThanOrEqual(Math.max(MAX_RUN_LENGTH, 'Intro words '.length));
    }
  });

  it('never splits a surrogate pair between two slices', () => {
    const { calls, count } = recordingCount();
    countInLinearTime(`x${'😀'.repeat(1_000)}`, count);
    expect(calls.length).toBeGreaterThan(1);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const call of calls) expect(call).not.toMatch(loneSurrogate);
  });

  it('stays within about one token per slice of the exact count of a long word', async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const word = 'supercalifragilisticexpialidocious'.repeat(100);
    const exact = countTokens(word);
    const sliced = countInLinearTime(word, countTokens);
    expect(Math.abs(sliced - exact)).toBeLessThanOrEqual(Math.ceil(word.length / MAX_RUN_LENGTH));
  });
});

describe('loadTokenizer on hostile input', () => {
  it('counts a 200 KB single word through the sliced path (bench:tokenize times it)', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const count = tokenizer.count('a'.repeat(200_000));
    // 'a' × 8 is one o200k token: 25,000 for the whole, give or take one per slice.
    expect(Math.abs(count - 25_000)).toBeLessThanOrEqual(200_000 / MAX_RUN_LENGTH);
  });
});

describe('hasLongRun', () => {
  it('finds exactly the runs the long-run pattern matches, for any mix of letters, marks, digits, symbols, spaces and surrogates', () => {
    const pieces = ['a', 'Z', '漢', 'é', '\u0301', '7', '٣', '=', '-', '\u00a0', ' ', '\n', '\t', '😀', '\uD800', '\uDC00', '𝔸'];
    const runOf = fc.record({ piece: fc.constantFrom(...pieces), length: fc.integer({ min: 1, max: MAX_RUN_LENGTH + 2 }) });
    fc.assert(
      fc.property(fc.array(runOf, { maxLength: 6 }), (runs) => {
        const text = runs.map(({ piece, length }) => piece.repeat(length)).join('');
        expect(hasLongRun(text)).toBe(new RegExp(LONG_RUNS.source, 'u').test(text));
      }),
      { numRuns: 500 },
    );
  });
});
