import { describe, expect, it } from 'vitest';
import { keywords } from './keywords.js';

describe('keywords', () => {
  it('drops question boilerplate and keeps the words that carry the question', () => {
    expect(keywords('How do I create an index concurrently?')).toEqual(['create', 'index', 'concurrently']);
  });

  it('keeps identifiers apart at punctuation, once each', () => {
    expect(keywords('json.dumps vs json.loads')).toEqual(['json', 'dumps', 'vs', 'loads']);
  });

  it('splits a compound name into its words', () => {
    expect(keywords('what does add_argument return')).toEqual(['add', 'argument', 'return']);
  });

  it('still searches when every word is common', () => {
    expect(keywords('how to use it')).toEqual(['how', 'to', 'use', 'it']);
  });

  it('writes contractions out instead of keeping their pieces', () => {
    expect(keywords("print() output doesn't show up")).toEqual(['print', 'output', 'show', 'up']);
  });

  it('keeps a function word written in capitals in a lower-case question: an operator or a keyword', () => {
    expect(keywords('filter a queryset with an OR between two conditions')).toEqual(['filter', 'queryset', 'or', 'between', 'two', 'conditions']);
    expect(keywords('HOW DO I CREATE AN INDEX')).toEqual(['create', 'index']);
  });
});
