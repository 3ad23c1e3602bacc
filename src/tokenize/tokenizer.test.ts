import { describe, expect, it } from 'vitest';
import { createTokenizer } from './tokenizer.js';

describe('createTokenizer', () => {
  it('counts tokens with the real tiktoken vocabulary, not characters', () => {
    const tokenizer = createTokenizer('o200k_base');
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('CREATE INDEX CONCURRENTLY')).toBeLessThan('CREATE INDEX CONCURRENTLY'.length / 2);
  });

  it('differs between encodings the way the models do', () => {
    const text = 'Создание индекса без блокировки записи в таблицу';
    expect(createTokenizer('cl100k_base').count(text)).toBeGreaterThan(createTokenizer('o200k_base').count(text));
  });
});
