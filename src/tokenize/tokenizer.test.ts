import { describe, expect, it } from 'vitest';
import { loadTokenizer } from './tokenizer.js';

describe('loadTokenizer', () => {
  it('counts tokens with the real tiktoken vocabulary, not characters', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('CREATE INDEX CONCURRENTLY')).toBeLessThan('CREATE INDEX CONCURRENTLY'.length / 2);
  });

  it('differs between encodings the way the models do', async () => {
    const text = 'Создание индекса без блокировки записи в таблицу';
    const [cl100k, o200k] = await Promise.all([loadTokenizer('cl100k_base'), loadTokenizer('o200k_base')]);
    expect(cl100k.count(text)).toBeGreaterThan(o200k.count(text));
  });

  // Stored token counts, budgets and eval figures rest on these: a change of tokenizer that moves
  // any of them is a change of every figure, not a refactoring.
  it.each([
    ['hello world', 2, 2],
    ['CREATE INDEX CONCURRENTLY idx ON orders (customer_id);', 12, 12],
    ['Создание индекса без блокировки записи в таблицу', 11, 17],
    ['漢字とかなカナ、한국어 텍스트', 12, 16],
    ['😀 👍🏽 👨‍👩‍👧 🇫🇷', 16, 25],
    ["they'rE THEY'RE we'Ll", 9, 8],
    ['  \t\n\n   indented\r\n', 6, 6],
    ['x'.repeat(1000), 125, 125],
    ['https://docs.python.org/3/library/json.html#json.dumps', 13, 13],
  ])('counts %j as %i tokens in o200k_base and %i in cl100k_base', async (text, inO200k, inCl100k) => {
    const [o200k, cl100k] = await Promise.all([loadTokenizer('o200k_base'), loadTokenizer('cl100k_base')]);
    expect([o200k.count(text), cl100k.count(text)]).toEqual([inO200k, inCl100k]);
  });

  it('counts text that spells a special token as text instead of refusing the page', async () => {
    const text = 'The model ends a document with <|endoftext|>.';
    const [o200k, cl100k] = await Promise.all([loadTokenizer('o200k_base'), loadTokenizer('cl100k_base')]);
    expect([o200k.count(text), cl100k.count(text)]).toEqual([13, 12]);
  });
});
