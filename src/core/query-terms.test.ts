import { describe, expect, it } from 'vitest';
import { queryTerms } from './query-terms.js';

describe('queryTerms', () => {
  it('drops question boilerplate and keeps the words that carry the question', () => {
    expect(queryTerms('How do I create an index concurrently?')).toEqual(['create', 'index', 'concurrently']);
  });

  it('keeps identifiers apart at punctuation, once each', () => {
    expect(queryTerms('json.dumps vs json.loads')).toEqual(['json', 'dumps', 'vs', 'loads']);
  });

  it('still searches when every word is common', () => {
    expect(queryTerms('how to use it')).toEqual(['how', 'to', 'use', 'it']);
  });
});
