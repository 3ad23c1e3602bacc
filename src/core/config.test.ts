import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema, DEFAULT_CONFIG, parseConfig } from './config.js';
import { ConfigError } from './errors.js';

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
}

describe('config', () => {
  it('has a default for every knob but the few whose absence means something (off, the model’s own, none)', () => {
    const leaves: string[] = [];
    const walk = (node: JsonSchemaNode, path: string): void => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        if (child.properties === undefined) leaves.push(path + key);
        else walk(child, `${path}${key}.`);
      }
    };
    walk(z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode, '');
    const valueAt = (path: string): unknown => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], DEFAULT_CONFIG);
    const unset = leaves.filter((path) => valueAt(path) === undefined);
    expect(unset).toEqual([
      'crawl.maxDepth',
      'embed.embedder',
      'embed.batchSize',
      'embed.workers',
      'embed.queryPrefix',
      'embed.passagePrefix',
      'embed.openai.dimensions',
      'embed.transformers.cacheDir',
      'embed.transformers.dtype',
      'llm.model',
      'rerank.retrievalWeight',
      'rerank.crossEncoderModel',
      'select.maxSelectedPages',
      'select.scoreThreshold',
      'answer.systemPrompt',
      'answer.userTemplate',
      'web.cache.path',
    ]);
    expect(leaves.length).toBeGreaterThan(100);
    expect(DEFAULT_CONFIG).toMatchObject({
      dbPath: './citedocs.db',
      tokenizer: { encoding: 'o200k_base' },
      retrieve: { topK: 40 },
      select: { finalK: 8, maxTotalTokens: 4000, similarityThreshold: 0.9 },
      rerank: { minCandidatesForAssessment: 4, protectTopK: 1, maxDemotion: 2, relevanceThreshold: 0.5, topOnNoneRelevant: 3 },
    });
  });

  it('merges a partial config over the defaults', () => {
    const config = parseConfig({ select: { maxTotalTokens: 900 }, rerank: { pointwise: { batchSize: 2 } } });
    expect(config.select).toEqual({ ...DEFAULT_CONFIG.select, maxTotalTokens: 900 });
    expect(config.rerank.pointwise).toEqual({ ...DEFAULT_CONFIG.rerank.pointwise, batchSize: 2 });
    // Everything not named stays exactly as the defaults have it.
    expect({ ...config, select: DEFAULT_CONFIG.select, rerank: DEFAULT_CONFIG.rerank }).toEqual(DEFAULT_CONFIG);
  });

  it('rejects a bad value with the path of the field and what to do', () => {
    expect(() => parseConfig({ crawl: { concurrency: 0 } }, 'citedocs.config.json')).toThrow(ConfigError);
    expect(() => parseConfig({ crawl: { concurrency: 0 } }, 'citedocs.config.json')).toThrow(/Invalid citedocs.config.json at "crawl.concurrency".*Fix the value/);
  });

  it('rejects a misspelt key, naming it, instead of ignoring it', () => {
    expect(() => parseConfig({ rerank: { protectTopk: 2 } }, 'citedocs.config.json')).toThrow(/protectTopk/);
    expect(() => parseConfig({ selct: {} }, 'citedocs.config.json')).toThrow(/selct/);
  });
});
