import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm } from '../llm/llm.js';
import { createUsageMeter, meterEmbedder, meterLlm, metering, requestMeter } from './usage.js';

/** One token a word: easy to count by eye. */
const words: Tokenizer = { encoding: 'words', count: (text) => text.split(/\s+/).filter(Boolean).length };
const tokenizer = () => Promise.resolve(words);

function scriptedLlm(usage?: { promptTokens: number; completionTokens: number }): Llm {
  return {
    modelId: 'test:scripted',
    complete: () => Promise.resolve({ text: 'three word reply', model: 'scripted', ...(usage === undefined ? {} : { usage }) }),
    async *stream() {
      yield 'streamed ';
      yield 'reply';
    },
  };
}

const request = { messages: [{ role: 'user' as const, content: 'a five word long question' }] };

describe('meterLlm', () => {
  it("records the provider's own token counts when it reports them", async () => {
    const meter = createUsageMeter();
    await meterLlm(scriptedLlm({ promptTokens: 120, completionTokens: 7 }), () => meter, tokenizer).complete(request);
    expect(meter.total().llm).toMatchObject({ calls: 1, promptTokens: 120, completionTokens: 7 });
  });

  it('counts the tokens with the tokenizer when the provider reports none, and for a stream', async () => {
    const meter = createUsageMeter();
    const llm = meterLlm(scriptedLlm(), () => meter, tokenizer);
    await llm.complete(request);
    let streamed = '';
    for await (const delta of llm.stream(request)) streamed += delta;
    expect(streamed).toBe('streamed reply');
    const { llm: usage } = meter.total();
    expect(usage).toMatchObject({ calls: 2, promptTokens: 10, completionTokens: 3 + 2 });
    expect(usage.ms).toBeGreaterThanOrEqual(0);
  });

  it('records a stream the caller stops early: what it streamed was paid for', async () => {
    const meter = createUsageMeter();
    for await (const delta of meterLlm(scriptedLlm(), () => meter, tokenizer).stream(request)) if (delta !== '') break;
    expect(meter.total().llm).toMatchObject({ calls: 1, promptTokens: 5, completionTokens: 1 });
  });

  it('passes calls straight through when no request is being metered', async () => {
    const meter = createUsageMeter();
    const llm = meterLlm(scriptedLlm(), requestMeter, tokenizer);
    await llm.complete(request);
    expect(meter.total().llm.calls).toBe(0);
    await metering(meter, () => llm.complete(request));
    expect(meter.total().llm.calls).toBe(1);
  });

  it('keeps the calls of concurrent requests apart', async () => {
    const llm = meterLlm(scriptedLlm(), requestMeter, tokenizer);
    const first = createUsageMeter();
    const second = createUsageMeter();
    await Promise.all([
      metering(first, async () => {
        await llm.complete(request);
        await llm.complete(request);
      }),
      metering(second, () => llm.complete(request)),
    ]);
    expect([first.total().llm.calls, second.total().llm.calls]).toEqual([2, 1]);
  });
});

describe('meterEmbedder', () => {
  it("records each embed call with its texts' tokens, and forwards the rest of the contract", async () => {
    const closed: string[] = [];
    const embedder: Embedder = {
      modelId: 'test:vectors',
      maxBatchSize: 4,
      dimension: () => Promise.resolve(2),
      embed: ({ texts }) => Promise.resolve(texts.map(() => new Float32Array([1, 0]))),
      close: () => Promise.resolve(void closed.push('closed')),
    };
    const meter = createUsageMeter();
    const metered = meterEmbedder(embedder, () => meter, tokenizer);
    expect([metered.modelId, metered.maxBatchSize, await metered.dimension()]).toEqual(['test:vectors', 4, 2]);
    expect(await metered.embed({ texts: ['two words', 'and three more'], mode: 'passage' })).toHaveLength(2);
    await metered.close();
    expect(meter.total().embedding).toMatchObject({ calls: 1, tokens: 5 });
    expect(closed).toEqual(['closed']);
  });
});
