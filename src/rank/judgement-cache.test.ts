import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../core/config.js';
import { sha256 } from '../core/hash.js';
import type { Llm, LlmRequest } from '../llm/llm.js';
import { completeJudgement, createMemoryJudgementCache, judgementKey } from './judgement-cache.js';

const RERANK = DEFAULT_CONFIG.rerank;

/** A typed spy double: answers from a script and counts calls. */
function scriptedLlm(replies: string[]): Llm & { calls: LlmRequest[] } {
  const calls: LlmRequest[] = [];
  return {
    modelId: 'spy:model',
    calls,
    complete: (request) => {
      calls.push(request);
      return Promise.resolve({ text: replies[calls.length - 1] ?? '', model: 'model' });
    },
    stream: () => {
      throw new Error('not used');
    },
  };
}

const request: LlmRequest = { messages: [{ role: 'user', content: 'score these' }], temperature: 0 };
const parseNumber = (text: string): number | undefined => (Number.isFinite(Number.parseFloat(text)) ? Number.parseFloat(text) : undefined);

describe('judgement cache', () => {
  it('keys by the sha256 of model id and prompt', () => {
    expect(judgementKey('m', 'p')).toBe(sha256('m\np'));
    expect(judgementKey('m1', 'p')).not.toBe(judgementKey('m2', 'p'));
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = createMemoryJudgementCache({ maxEntries: 2 });
    cache.set('a', '1');
    cache.set('b', '2');
    expect(cache.get('a')).toBe('1'); // a is now the most recent
    cache.set('c', '3');
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('1');
    expect(cache.get('c')).toBe('3');
  });

  it('asks the model once for the same prompt, and again for another model or prompt', async () => {
    const cache = createMemoryJudgementCache({ maxEntries: RERANK.cacheEntries });
    const llm = scriptedLlm(['0.7', '0.2']);
    expect(await completeJudgement(llm, cache, request, parseNumber)).toEqual({ value: 0.7, text: '0.7', cached: false });
    expect(await completeJudgement(llm, cache, request, parseNumber)).toEqual({ value: 0.7, text: '0.7', cached: true });
    expect(llm.calls).toHaveLength(1);
    await completeJudgement(llm, cache, { ...request, messages: [{ role: 'user', content: 'other' }] }, parseNumber);
    expect(llm.calls).toHaveLength(2);
  });

  it('does not remember a reply it could not parse', async () => {
    const cache = createMemoryJudgementCache({ maxEntries: RERANK.cacheEntries });
    const llm = scriptedLlm(['no idea', '0.4']);
    expect((await completeJudgement(llm, cache, request, parseNumber)).value).toBeUndefined();
    expect(cache.size).toBe(0);
    expect((await completeJudgement(llm, cache, request, parseNumber)).value).toBe(0.4);
    expect(llm.calls).toHaveLength(2);
  });
});
