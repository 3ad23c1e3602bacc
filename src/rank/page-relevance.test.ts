import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../core/config.js';
import type { Chunk } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import { llmOn, pointwiseJudge } from '../testing/fake-judges.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { createMemoryJudgementCache } from './judgement-cache.js';
import { createLlmPointwiseReranker } from './llm-pointwise.js';
import { type PageScoringOptions, scorePages } from './page-relevance.js';

const RERANK = DEFAULT_CONFIG.rerank;

const servers: FakeOpenAiServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

function chunk(url: string, text: string, index: number): Chunk {
  return { id: `${url}#${index}`, pageUrl: url, pageTitle: 'Page', headingPath: [], text, tokenCount: 10, contentHash: `${url}${index}` };
}

const pages = [
  { url: 'https://a.test/flatmap', chunks: [chunk('https://a.test/flatmap', 'Introduction to arrays.', 0), chunk('https://a.test/flatmap', 'The flatMap method maps then flattens.', 1)] },
  { url: 'https://b.test/graphs', chunks: [chunk('https://b.test/graphs', 'Graph databases store nodes.', 0)] },
];

const base: PageScoringOptions = { ranking: { fieldWeights: DEFAULT_CONFIG.retrieve.fieldWeights, ...DEFAULT_CONFIG.retrieve.lexical }, lexicalWeight: 1, denseWeight: 0.3, fragmentsPerPage: 2 };

describe('scorePages', () => {
  it("scores a page by its best fragment's lexical coverage when no model is configured", async () => {
    const { pages: scored, method } = await scorePages('flatMap flattens', pages, base);
    expect(method).toBe('lexical');
    expect(scored[0]?.fragmentScores[0]).toBe(0);
    expect(scored[0]?.score).toBe(scored[0]?.fragmentScores[1]);
    expect(scored[0]?.score).toBeGreaterThan(0.2);
    expect(scored[1]?.score).toBe(0);
  });

  it('joins dense similarity to the lexical score when an embedder is configured, and reuses cached vectors', async () => {
    // A fake embedder: texts about graphs point one way, everything else the other.
    const embedder: Embedder = {
      modelId: 'fake',
      maxBatchSize: 16,
      dimension: async () => 2,
      embed: async ({ texts }) => texts.map((text) => (/graph/i.test(text) ? new Float32Array([1, 0]) : new Float32Array([0, 1]))),
      close: async () => undefined,
    };
    const lexical = await scorePages('flatMap flattens', pages, base);
    const stored = new Map<string, Float32Array>();
    const vectorCache = { get: (key: string) => stored.get(key), set: (key: string, vector: Float32Array) => void stored.set(key, vector) };
    let calls = 0;
    const counting: Embedder = { ...embedder, embed: async (request) => ((calls += 1), embedder.embed(request)) };
    const hybrid = await scorePages('flatMap flattens', pages, { ...base, embedder: counting, vectorCache });
    expect(calls).toBe(2);
    // Again, with the vectors cached: the embedder is not called.
    expect((await scorePages('flatMap flattens', pages, { ...base, embedder: counting, vectorCache })).pages).toEqual(hybrid.pages);
    expect(calls).toBe(2);
    expect(hybrid.method).toBe('hybrid');
    // The query embeds like the non-graph texts: the graph page stays 0, the fragments without a term gain.
    expect(hybrid.pages[1]?.score).toBe(0);
    expect(hybrid.pages[0]?.fragmentScores[0]).toBeGreaterThan(0);
    expect(hybrid.pages[0]?.score).not.toBe(lexical.pages[0]?.score);
  });

  it("uses the LLM's pointwise scores (fake OpenAI-compatible server), page = best fragment, and remembers them", async () => {
    const server = await startFakeOpenAiServer({ chat: pointwiseJudge((body) => (body.includes('Graph') ? 0.9 : body.includes('flatMap') ? 0.4 : 0.1)) });
    servers.push(server);
    const cache = createMemoryJudgementCache({ maxEntries: RERANK.cacheEntries });
    const reranker = createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server), cache });
    const judged = await scorePages('graph storage', pages, { ...base, reranker });
    expect(judged.method).toBe('llm-pointwise');
    expect(judged.pages.map((page) => page.score)).toEqual([0.4, 0.9]);
    const calls = server.requests.length;
    await scorePages('graph storage', pages, { ...base, reranker });
    expect(server.requests.length).toBe(calls);
  });

  it('keeps the lexical score of a page the LLM gave no score (an unparsable reply for its batch), with a warning', async () => {
    const server = await startFakeOpenAiServer({ chat: (body) => (JSON.stringify(body).includes('Graph') ? 'no idea' : JSON.stringify({ scores: [0.8] })) });
    servers.push(server);
    const reranker = createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server), batchSize: 1 });
    const lexical = await scorePages('graph nodes', pages, base);
    const judged = await scorePages('graph nodes', pages, { ...base, reranker, fragmentsPerPage: 1 });
    expect(judged.method).toBe('llm-pointwise');
    expect(judged.pages[0]?.score).toBe(0.8);
    expect(judged.pages[1]?.score).toBe(lexical.pages[1]?.score);
    expect(judged.pages[1]?.score).toBeGreaterThan(0);
    expect(judged.diagnostics.map((entry) => entry.code)).toEqual(['rank.partial', 'rank.pages-unjudged']);
    expect(judged.diagnostics.map((entry) => entry.message).join(' ')).toMatch(/gave 1 page no score; it was scored lexically: https:\/\/b\.test\/graphs/);
  });

  it('falls back to lexical scores with a warning when the LLM fails (fake server answering 500)', async () => {
    const server = await startFakeOpenAiServer({ chat: () => ({ status: 500, body: 'down' }) });
    servers.push(server);
    const reranker = createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server, { retries: 0 }) });
    const result = await scorePages('flatMap flattens', pages, { ...base, reranker });
    expect(result.method).toBe('lexical');
    expect(result.diagnostics.map((entry) => entry.message).join(' ')).toMatch(/llm-pointwise/);
    expect(result.pages[0]?.score).toBeGreaterThan(0);
  });
});
