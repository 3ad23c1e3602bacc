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
});
