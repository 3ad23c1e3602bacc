import { sha256 } from '../core/hash.js';
import type { JudgementCache } from '../core/judgement-cache.js';
import type { Llm, LlmRequest } from '../llm/llm.js';

export type { JudgementCache } from '../core/judgement-cache.js';

/** sha256 of the model id and the prompt: the same prompt to the same model is the same judgement. */
export function judgementKey(modelId: string, prompt: string): string {
  return sha256(`${modelId}\n${prompt}`);
}

export interface MemoryJudgementCache extends JudgementCache {
  readonly size: number;
}

/** An in-memory LRU of at most `maxEntries` judgements (`rerank.cacheEntries`). */
export function createMemoryJudgementCache(options: { maxEntries: number }): MemoryJudgementCache {
  const maxEntries = Math.max(1, options.maxEntries);
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  const entries = new Map<string, string>();
  return {
    get size() {
      return entries.size;
    },
    get(key) {
      const reply = entries.get(key);
      if (reply !== undefined) {
        entries.delete(key);
        entries.set(key, reply);
      }
      return reply;
    },
    set(key, reply) {
      entries.delete(key);
      entries.set(key, reply);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
  };
}

/**
 * The parsed reply to `request`, from the cache when this model has answered this prompt
 * before. Only replies that `parse` accepts are cached, so a malformed reply is asked again
 * next time instead of being remembered.
 */
export async function completeJudgement<T>(
  llm: Llm,
  cache: JudgementCache | undefined,
  request: LlmRequest,
  parse: (text: string) => T | undefined,
): Promise<{ value: T | undefined; text: string; cached: boolean }> {
  const prompt = JSON.stringify({ messages: request.messages, maxTokens: request.maxTokens, temperature: request.temperature, json: request.json });
  const key = judgementKey(llm.modelId, prompt);
  const stored = cache?.get(key);
  if (stored !== undefined) {
    const value = parse(stored);
    if (value !== undefined) return { value, text: stored, cached: true };
  }
  const { text } = await llm.complete(request);
  const value = parse(text);
  if (value !== undefined) cache?.set(key, text);
  return { value, text, cached: false };
}
