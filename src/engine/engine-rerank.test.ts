import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatPrompts, pointwiseJudge } from '../testing/fake-judges.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { createEngine } from './engine.js';

const files: Record<string, string> = {
  'a.md': '# Alpha\n\n## Timeouts\n\nThe request timeout is set with timeoutMs in the config file.',
  'b.md': '# Beta\n\n## Timeouts again\n\nTimeouts, timeouts, timeouts: the timeout word many times, but nothing on how to set it.',
  'c.md': '# Gamma\n\n## Retry timeouts\n\nRetries wait between attempts; the timeout applies per attempt.',
  'd.md': '# Delta\n\n## Proxy\n\nSet the proxy with HTTPS_PROXY; timeouts are unaffected.',
  'e.md': '# Epsilon\n\n## Logging\n\nLogs go to stderr; a timeout is logged as a warning.',
};

let server: FakeOpenAiServer;
let dbPath: string;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
  const root = mkdtempSync(join(tmpdir(), 'citedocs-rerank-'));
  const docs = join(root, 'docs');
  mkdirSync(docs);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(docs, name), text);
  dbPath = join(root, 'index.db');
  const writer = createEngine({ dbPath });
  await writer.ingest(docs);
  await writer.close();
});
afterAll(async () => server.close());

const withLlm = (rerank: Record<string, unknown> = {}) => ({ dbPath, llm: { model: 'judge', baseUrl: server.url, retries: 0, timeoutMs: 2000 }, rerank: { protectTopK: 0, ...rerank } });

describe('reranking in search (LLM judge on a fake OpenAI-compatible server)', () => {
  it('orders by the model’s pointwise scores when an LLM is configured', async () => {
    server.setChatHandler(pointwiseJudge((passage) => (passage.includes('timeoutMs') ? 0.95 : 0.1)));
    const bm25 = await createEngine({ dbPath }).search('timeout', { limit: 5 });
    expect(bm25.results[0]?.url).not.toMatch(/a\.md/);
    const response = await createEngine(withLlm()).search('timeout', { limit: 5, explain: true });
    expect(response.results[0]?.url).toMatch(/a\.md#timeouts$/);
    expect(response.results[0]?.explain?.map((step) => step.technique)).toContain('rerank:llm-pointwise');
    expect(response.warnings).toEqual([]);
  });

  it('keeps the retrieval order and says why when the model fails', async () => {
    server.setChatHandler(() => ({ status: 500, body: 'model crashed' }));
    const bm25 = await createEngine({ dbPath }).search('timeout', { limit: 5 });
    const response = await createEngine(withLlm()).search('timeout', { limit: 5 });
    expect(response.results.map((result) => result.url)).toEqual(bm25.results.map((result) => result.url));
    expect(response.warnings.join('\n')).toMatch(/Reranking with llm-pointwise failed, so the fused-score order was kept/);
  });

  it('keeps the top 3 by retrieval score when the model finds nothing relevant', async () => {
    server.setChatHandler(pointwiseJudge(() => 0.05));
    const response = await createEngine(withLlm()).search('timeout', { limit: 5 });
    expect(response.results).toHaveLength(3);
    expect(response.warnings.join('\n')).toMatch(/relevant/i);
  });

  it('does not ask the model about fewer candidates than minCandidatesForAssessment', async () => {
    const before = chatPrompts(server).length;
    server.setChatHandler(() => '{"scores":[]}');
    await createEngine(withLlm({ minCandidatesForAssessment: 50 })).search('timeout', { limit: 5 });
    // Query expansion may still ask the model; no passage is sent to be judged.
    expect(chatPrompts(server).slice(before).filter((prompt) => prompt.includes('<passage'))).toEqual([]);
  });
});

describe('selection in search', () => {
  it('caps the pages with maxPages and explains every candidate left out', async () => {
    const response = await createEngine({ dbPath }).search('timeout', { limit: 5, maxPages: 2, explain: true });
    expect(new Set(response.results.map((result) => result.url.split('#')[0])).size).toBeLessThanOrEqual(2);
    expect(response.selection?.dropped.some((drop) => drop.reason === 'cap')).toBe(true);
    expect(response.selection?.totalTokens).toBe(response.results.reduce((sum, result) => sum + result.tokenCount, 0));
  });
});
