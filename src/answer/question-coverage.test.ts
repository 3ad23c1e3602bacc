import { describe, expect, it } from 'vitest';
import { askedTerms, termsOf } from './question-coverage.js';

describe('the terms of a question and of the sentences that answer it', () => {
  it('reads an operator a sentence states as a term it holds, so a question about that operator is not left uncovered', () => {
    const sentence = termsOf('The `//` operator returns the left side when it is defined, else the right side.');
    expect(sentence.has('//')).toBe(true);
    const asked = askedTerms('what does // return for undefined values', [sentence]).map(({ term }) => term);
    expect(asked).toContain('//');
    expect(asked.filter((term) => !sentence.has(term))).not.toContain('//');
  });
});
