import { describe, expect, it } from 'vitest';
import { firstSentence, tokenize, type Token } from './tokenize.js';

const kinds = (tokens: readonly Token[]) => tokens.map((token) => [token.kind, token.raw]);

describe('tokenize', () => {
  it('reads links with a title, images, autolinks and citation markers', () => {
    expect(tokenize('[a](u "t")![b](v)<https://x.example>[1, 2][3]', true)).toEqual([
      { kind: 'link', raw: '[a](u "t")', image: false, label: 'a', destination: 'u', title: ' "t"' },
      { kind: 'link', raw: '![b](v)', image: true, label: 'b', destination: 'v', title: '' },
      { kind: 'autolink', raw: '<https://x.example>', url: 'https://x.example' },
      { kind: 'marker', raw: '[1, 2]', numbers: [1, 2] },
      { kind: 'marker', raw: '[3]', numbers: [3] },
    ]);
  });

  it('reads [1](url) as a link and [x] as text', () => {
    expect(kinds(tokenize('[1](u) [x]', true))).toEqual([['link', '[1](u)'], ['space', ' '], ['text', '[x]']]);
  });

  it('ends a bare URL before sentence punctuation and an unbalanced parenthesis, anywhere in a word', () => {
    expect(kinds(tokenize('(see https://x.example/a_(b)).', true))).toEqual([['text', '(see'], ['space', ' '], ['url', 'https://x.example/a_(b)'], ['text', ').']]);
    expect(kinds(tokenize('(https://x.example/a) wordhttps://y.example[1]', true))).toEqual([
      ['url', '(https://x.example/a)'], ['space', ' '], ['text', 'word'], ['url', 'https://y.example'], ['marker', '[1]'],
    ]);
  });

  it('closes a code span only with a run of the same length, within the paragraph', () => {
    expect(kinds(tokenize('``a ` b`` c', true))).toEqual([['code', '``a ` b``'], ['space', ' '], ['text', 'c']]);
    expect(kinds(tokenize('`a\n\nb` c', true)).slice(0, 2)).toEqual([['text', '`'], ['text', 'a']]);
  });

  it('marks what more text could still change as incomplete, and only that', () => {
    expect(kinds(tokenize('see [a](https://x', false))).toEqual([['text', 'see'], ['space', ' '], ['incomplete', '[a](https://x']]);
    expect(kinds(tokenize('a `code', false)).at(-1)).toEqual(['incomplete', '`code']);
    expect(kinds(tokenize('a <http', false)).at(-1)).toEqual(['incomplete', '<http']);
    expect(kinds(tokenize('a [2]', false)).at(-1)).toEqual(['incomplete', '[2]']);
    expect(kinds(tokenize('a [2]', true)).at(-1)).toEqual(['marker', '[2]']);
    expect(kinds(tokenize('a <b>', false)).at(-1)).toEqual(['text', '<b>']);
  });
});

describe('firstSentence', () => {
  it('ends a sentence at a space after . ! ? with the markers that follow, or at a line break', () => {
    const { tokens, end } = firstSentence('One [1]. [2] Two.', true);
    expect(end).toBeDefined();
    expect(tokens.slice(0, end).map((token) => token.raw).join('')).toBe('One [1]. [2]');
    expect(firstSentence('- item https://x.example\n- next', true).end).toBe(5);
  });

  it('does not end a sentence on a space that a marker follows, nor before it is known whether one does', () => {
    expect(firstSentence('One. [1]', true).end).toBeUndefined();
    expect(firstSentence('One. [1', false).end).toBeUndefined();
    expect(firstSentence('One. Two', false).end).toBe(1);
  });
});
