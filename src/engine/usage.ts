import { AsyncLocalStorage } from 'node:async_hooks';
import { logger } from '../core/log.js';
import type { Tokenizer } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm, LlmRequest } from '../llm/llm.js';

/**
 * What one request (a search, an answer, a web lookup) cost in model calls. Tokens are the
 * provider's own counts when it reports them (an LLM's `usage`), else counted with the configured
 * tokenizer (streamed answers, embeddings). `ms` adds up each call's duration, so calls made in
 * parallel count each.
 */
export interface Usage {
  llm: { calls: number; promptTokens: number; completionTokens: number; ms: number };
  embedding: { calls: number; tokens: number; ms: number };
}

export interface UsageMeter {
  recordLlm(call: { promptTokens: number; completionTokens: number; ms: number }): void;
  recordEmbedding(call: { tokens: number; ms: number }): void;
  total(): Usage;
}

export function createUsageMeter(): UsageMeter {
  const usage: Usage = { llm: { calls: 0, promptTokens: 0, completionTokens: 0, ms: 0 }, embedding: { calls: 0, tokens: 0, ms: 0 } };
  return {
    recordLlm({ promptTokens, completionTokens, ms }) {
      usage.llm.calls += 1;
      usage.llm.promptTokens += promptTokens;
      usage.llm.completionTokens += completionTokens;
      usage.llm.ms = tenths(usage.llm.ms + ms);
    },
    recordEmbedding({ tokens, ms }) {
      usage.embedding.calls += 1;
      usage.embedding.tokens += tokens;
      usage.embedding.ms = tenths(usage.embedding.ms + ms);
    },
    total: () => ({ llm: { ...usage.llm }, embedding: { ...usage.embedding } }),
  };
}

/** The meter of the request being served: model calls made while it runs are counted on it. */
const currentRequest = new AsyncLocalStorage<UsageMeter>();

/** Runs one request's work with `meter` counting the model calls it makes (through metered models). */
export function metering<T>(meter: UsageMeter, work: () => Promise<T>): Promise<T> {
  return currentRequest.run(meter, work);
}

/** The meter of the request running now, if any. */
export function requestMeter(): UsageMeter | undefined {
  return currentRequest.getStore();
}

/**
 * The LLM with each call timed and its tokens recorded on the meter `meterOf` gives at call time
 * (none: the call passes straight through), and logged (debug) in the `llm` stage.
 */
export function meterLlm(llm: Llm, meterOf: () => UsageMeter | undefined, tokenizer: () => Promise<Tokenizer>): Llm {
  const promptTokens = async (request: LlmRequest) => {
    const counter = await tokenizer();
    return request.messages.reduce((sum, message) => sum + counter.count(message.content), 0);
  };
  return {
    modelId: llm.modelId,
    async complete(request) {
      const meter = meterOf();
      if (meter === undefined) return llm.complete(request);
      const started = performance.now();
      const response = await llm.complete(request);
      const ms = performance.now() - started;
      const usage = response.usage ?? { promptTokens: await promptTokens(request), completionTokens: (await tokenizer()).count(response.text) };
      meter.recordLlm({ ...usage, ms });
      logger('llm').debug({ model: llm.modelId, ...usage, reported: response.usage !== undefined, ms: tenths(ms) }, 'LLM call');
      return response;
    },
    stream(request) {
      const meter = meterOf();
      if (meter === undefined) return llm.stream(request);
      return (async function* () {
        const started = performance.now();
        let text = '';
        try {
          for await (const delta of llm.stream(request)) {
            text += delta;
            yield delta;
          }
        } finally {
          // A stream cut short (an abort, a failure) still cost what it streamed.
          const ms = performance.now() - started;
          const usage = { promptTokens: await promptTokens(request), completionTokens: (await tokenizer()).count(text) };
          meter.recordLlm({ ...usage, ms });
          logger('llm').debug({ model: llm.modelId, ...usage, streamed: true, ms: tenths(ms) }, 'LLM call');
        }
      })();
    },
  };
}

/** The embedder with each embed() call timed and its texts' tokens (counted) recorded on the meter of the moment. */
export function meterEmbedder(embedder: Embedder, meterOf: () => UsageMeter | undefined, tokenizer: () => Promise<Tokenizer>): Embedder {
  return {
    modelId: embedder.modelId,
    maxBatchSize: embedder.maxBatchSize,
    dimension: () => embedder.dimension(),
    close: () => embedder.close(),
    async embed(request) {
      const meter = meterOf();
      if (meter === undefined) return embedder.embed(request);
      const started = performance.now();
      const vectors = await embedder.embed(request);
      const ms = performance.now() - started;
      const counter = await tokenizer();
      const tokens = request.texts.reduce((sum, text) => sum + counter.count(text), 0);
      meter.recordEmbedding({ tokens, ms });
      logger('embed').debug({ model: embedder.modelId, texts: request.texts.length, tokens, ms: tenths(ms) }, 'embedding call');
      return vectors;
    },
  };
}

function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}
