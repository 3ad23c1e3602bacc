import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../core/config.js';
import { messagesOf } from '../core/diagnostics.js';
import type { Candidate } from '../core/types.js';
import type { Llm } from '../llm/llm.js';
import { candidate } from '../testing/candidates.js';
import { type FakeOpenAiServer, type FakeOpenAiServerOptions, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { llmOn, pointwiseJudge } from '../testing/fake-judges.js';
import { createFusedOrderReranker } from './fused-order.js';
import { createLlmListwiseReranker } from './llm-listwise.js';
import { createLlmPointwiseReranker } from './llm-pointwise.js';
import { protectRetrievalHits, type RerankPolicy, rerankWithPolicy } from './policy.js';
import { copyCandidate, type Reranker } from './reranker.js';

const RERANK = DEFAULT_CONFIG.rerank;

/** The policy as the engine resolves it from the configuration's defaults. */
const { retrievalWeight: _unset, ...configured } = DEFAULT_CONFIG.rerank;
const CONFIGURED: RerankPolicy = configured;
/** The same without rank-aware blending, where a test is about the reranker's own order. */
const UNPROTECTED: RerankPolicy = { ...CONFIGURED, protectTopK: 0, maxDemotion: 0 };

const servers: FakeOpenAiServer[] = [];
async function fakeServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  servers.push(server);
  return server;
}
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

/** Retrieval order A > B > C > D; the model, by the letter in each passage, prefers D, then C. */
const passages = (): Candidate[] => [
  candidate({ url: 'https://d.example/a.html', text: 'A: passage', score: 1.0 }),
  candidate({ url: 'https://d.example/b.html', text: 'B: passage', score: 0.8 }),
  candidate({ url: 'https://d.example/c.html', text: 'C: passage', score: 0.6 }),
  candidate({ url: 'https://d.example/d.html', text: 'D: passage', score: 0.2 }),
];
const modelScores: Record<string, number> = { A: 0.1, B: 0.5, C: 0.9, D: 1.0 };
const judge = pointwiseJudge((body) => modelScores[/\b([A-D]):/.exec(body)?.[1] ?? ''] ?? 0);
const letters = (candidates: readonly Candidate[]): string[] => candidates.map((item) => item.chunk.text[0] ?? '?');
const fallbackTrace = (item: Candidate | undefined) => item?.trace.find((entry) => entry.technique === 'rerank:fallback');

describe('rerankWithPolicy with an LLM on the fake OpenAI-compatible server', () => {
  it('uses the model order when the reply is well-formed', async () => {
    const server = await fakeServer({ chat: judge });
    const result = await rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server) }), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('reranked');
    expect(letters(result.candidates)).toEqual(['D', 'C', 'B', 'A']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
  });

  it.each([
    ['pointwise', (llm: Llm) => createLlmPointwiseReranker({ ...RERANK.pointwise, llm }), 'llm-pointwise', /gave no usable relevance score/],
    ['listwise', (llm: Llm) => createLlmListwiseReranker({ maxCandidates: RERANK.candidates, ...RERANK.listwise, llm }), 'llm-listwise', /replied without a list of candidate indices/],
  ] as const)('falls back to fused order with a warning when the %s reply is malformed', async (_, create, name, reason) => {
    const server = await fakeServer({ chat: () => 'Happy to help! What would you like to know?' });
    const result = await rerankWithPolicy(create(llmOn(server)), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('reranker-failed');
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C', 'D']);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['rank.reranker-failed']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(new RegExp(`^Reranking with ${name} failed, so the fused-score order was kept: `));
    expect(messagesOf(result.diagnostics)[0]).toMatch(reason);
    expect(fallbackTrace(result.candidates[0])).toMatchObject({ rank: 1, score: 1, detail: expect.stringMatching(new RegExp(`^${name} failed, fused-score order kept`)) as unknown });
  });

  it('falls back to fused order with a warning when the model is too slow (timeoutMs)', async () => {
    const server = await fakeServer({ chat: () => ({ delayMs: 1000 }) });
    const result = await rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server, { timeoutMs: 100 }) }), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('reranker-failed');
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C', 'D']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/llm-pointwise failed.*timed out after 100 ms/);
  });

  it('retries after a 429 and then uses the model order', async () => {
    const server = await fakeServer({
      chat: (body, context) => (context.index === 0 ? { status: 429, headers: { 'retry-after': '0' }, body: '{"error":{"message":"slow down"}}' } : judge(body, context)),
    });
    const result = await rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server, { retries: 1 }) }), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(server.requests).toHaveLength(2);
    expect(result.outcome).toBe('reranked');
    expect(letters(result.candidates)).toEqual(['D', 'C', 'B', 'A']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
  });

  it('falls back to fused order with a warning naming the error on HTTP 500', async () => {
    const server = await fakeServer({ chat: () => ({ status: 500, body: '{"error":{"message":"CUDA out of memory"}}' }) });
    const result = await rerankWithPolicy(createLlmListwiseReranker({ maxCandidates: RERANK.candidates, ...RERANK.listwise, llm: llmOn(server) }), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('reranker-failed');
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C', 'D']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/^Reranking with llm-listwise failed, .*HTTP 500: CUDA out of memory/);
  });

  it('does not ask the model for fewer candidates than minCandidatesForAssessment: a trace note, not a warning', async () => {
    const server = await fakeServer({ chat: judge });
    const result = await rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server) }), { query: 'q', candidates: passages().slice(0, 3) }, UNPROTECTED);
    expect(server.requests).toHaveLength(0);
    expect(result.outcome).toBe('too-few-candidates');
    expect(messagesOf(result.diagnostics)).toEqual([]);
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C']);
    expect(fallbackTrace(result.candidates[2])?.detail).toBe('3 candidates, fewer than minCandidatesForAssessment 4: fused-score order kept, llm-pointwise not asked');
  });

  it('keeps the top 3 by fused score, with a warning, when the model finds nothing relevant', async () => {
    const server = await fakeServer({ chat: pointwiseJudge(() => 0.2) });
    const result = await rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server) }), { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('none-relevant');
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C']);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['rank.none-relevant']);
    expect(messagesOf(result.diagnostics)).toEqual(['llm-pointwise judged none of 4 candidates relevant (best 0.2 < relevanceThreshold 0.5), so the 3 best by fused score were kept.']);
    expect(fallbackTrace(result.candidates[0])?.detail).toMatch(/kept the 3 best by fused score$/);
    // The model's judgement stays visible in the explain trace.
    expect(result.candidates[0]?.scores.rerank).toBe(0.2);
  });

  it('treats an empty listwise selection as nothing relevant', async () => {
    const server = await fakeServer({ chat: () => '{"ranking": []}' });
    const result = await rerankWithPolicy(createLlmListwiseReranker({ maxCandidates: RERANK.candidates, ...RERANK.listwise, llm: llmOn(server) }), { query: 'q', candidates: passages() }, { ...UNPROTECTED, topOnNoneRelevant: 2 });
    expect(result.outcome).toBe('none-relevant');
    expect(letters(result.candidates)).toEqual(['A', 'B']);
  });

  it('rejects instead of falling back when the caller aborts', async () => {
    const server = await fakeServer({ chat: () => ({ delayMs: 1000 }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(rerankWithPolicy(createLlmPointwiseReranker({ ...RERANK.pointwise, llm: llmOn(server) }), { query: 'q', candidates: passages(), abortSignal: controller.signal }, UNPROTECTED)).rejects.toThrow();
  });
});

/** A typed stub: ranks by the model scores above, as an LLM reranker would. */
const stubReranker: Reranker = {
  name: 'stub',
  rerank: ({ candidates }) =>
    Promise.resolve({
      candidates: [...candidates]
        .map((item) => Object.assign(copyCandidate(item), { scores: { ...item.scores, rerank: modelScores[item.chunk.text[0] ?? ''] ?? 0 } }))
        .sort((a, b) => (b.scores.rerank ?? 0) - (a.scores.rerank ?? 0)),
      warnings: [],
    }),
};

describe('rerankWithPolicy blending', () => {
  it('orders by 0.3 × normalised fused + 0.7 × rerank with retrievalWeight 0.3', async () => {
    // Normalised fused A 1, B 0.75, C 0.5, D 0 → A 0.37, B 0.575, C 0.78, D 0.7: C overtakes D.
    const result = await rerankWithPolicy(stubReranker, { query: 'q', candidates: passages() }, { ...UNPROTECTED, retrievalWeight: 0.3 });
    expect(letters(result.candidates)).toEqual(['C', 'D', 'B', 'A']);
    expect(result.candidates[0]?.trace.at(-1)).toEqual({ technique: 'rerank:hybrid', rank: 1, score: 0.78, detail: '0.3 × retrieval 0.5 + 0.7 × rerank 0.9' });
  });

  it('keeps a protected retrieval hit within maxDemotion places of its retrieval rank', async () => {
    const demoted = await rerankWithPolicy(stubReranker, { query: 'q', candidates: passages() }, { ...UNPROTECTED, protectTopK: 1, maxDemotion: 1 });
    expect(letters(demoted.candidates)).toEqual(['D', 'A', 'C', 'B']);
    expect(demoted.candidates[1]?.trace.at(-1)).toEqual({
      technique: 'rerank:protected', rank: 2, score: 0.1,
      detail: 'retrieval rank 1 is protected (protectTopK 1, maxDemotion 1): stub put it at 4, kept at 2',
    });
    const kept = await rerankWithPolicy(stubReranker, { query: 'q', candidates: passages() }, { ...UNPROTECTED, protectTopK: 2 });
    expect(letters(kept.candidates)).toEqual(['A', 'B', 'D', 'C']);
  });

  it('falls back when a reranker loses or repeats candidates', async () => {
    const broken: Reranker = { name: 'broken', rerank: ({ candidates }) => Promise.resolve({ candidates: [...candidates.slice(1), ...candidates.slice(1, 2)], warnings: [] }) };
    const result = await rerankWithPolicy(broken, { query: 'q', candidates: passages() }, UNPROTECTED);
    expect(result.outcome).toBe('reranker-failed');
    expect(messagesOf(result.diagnostics)[0]).toMatch(/broken returned 4 candidates for 4 given, not each of them once/);
  });

  it('with the configuration’s defaults, keeps the top retrieval hit within two places, as the engine does', async () => {
    // The stub puts A (retrieval rank 1) last; protectTopK 1 and maxDemotion 2 hold it at third.
    const result = await rerankWithPolicy(stubReranker, { query: 'q', candidates: passages() }, CONFIGURED);
    expect(letters(result.candidates)).toEqual(['D', 'C', 'A', 'B']);
  });

  it('leaves the fused-order default untouched and unwarned', async () => {
    const result = await rerankWithPolicy(createFusedOrderReranker(), { query: 'q', candidates: passages() }, CONFIGURED);
    expect(result).toMatchObject({ outcome: 'reranked', diagnostics: [] });
    expect(letters(result.candidates)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('protectRetrievalHits: a permutation where each top-k hit ends at most maxDemotion below its rank, others keep their relative order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }), fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: 4 }))), ([order, protectTopK, maxDemotion]) => {
        // Candidate i has retrieval rank i + 1 (fused score falls with i); `order` is the reranker's.
        const byIndex = order.map((index) => candidate({ url: `https://d.example/${index}.html`, text: `t${index}`, score: 100 - index }));
        const result = protectRetrievalHits(byIndex, protectTopK, maxDemotion);
        const ranks = result.map((item) => 100 - item.scores.fused);
        expect([...ranks].sort((a, b) => a - b)).toEqual([...order].sort((a, b) => a - b));
        ranks.forEach((rank, position) => {
          if (rank < protectTopK) expect(position).toBeLessThanOrEqual(rank + maxDemotion);
        });
        const unprotected = (list: number[]) => list.filter((rank) => rank >= protectTopK);
        expect(unprotected(ranks)).toEqual(unprotected(order));
      }),
    );
  });
});
