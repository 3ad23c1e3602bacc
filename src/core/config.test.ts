import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from './config.js';
import { ConfigError } from './errors.js';

describe('config', () => {
  it('has one default for every knob', () => {
    expect(DEFAULT_CONFIG).toMatchObject({
      dbPath: './citedocs.db',
      tokenizer: { encoding: 'o200k_base' },
      retrieve: { topK: 40 },
      select: { finalK: 8, maxTotalTokens: 4000 },
    });
  });

  it('merges a partial config over the defaults', () => {
    const config = parseConfig({ select: { maxTotalTokens: 900 } });
    expect(config.select).toMatchObject({ finalK: 8, maxTotalTokens: 900, similarityThreshold: 0.9 });
    expect(config.crawl.concurrency).toBe(4);
  });

  it('rejects a bad value with the path of the field and what to do', () => {
    expect(() => parseConfig({ crawl: { concurrency: 0 } }, 'citedocs.config.json')).toThrow(ConfigError);
    expect(() => parseConfig({ crawl: { concurrency: 0 } }, 'citedocs.config.json')).toThrow(/Invalid citedocs.config.json at "crawl.concurrency".*Fix the value/);
  });
});
