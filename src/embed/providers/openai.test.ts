import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, hashedEmbedding, startFakeOpenAiServer } from '../../testing/fake-openai-server.js';
import { runEmbedderContract } from '../embedder.contract.js';
import { EmbedderError } from '../embedder.js';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.js';

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(async () => server.close());
const reset = () => server.setEmbeddingHandler((inputs) => inputs.map((text) => hashedEmbedding(text)));

const embedder = (overrides: Partial<OpenAiEmbedderOptions> = {}) =>
  createOpenAiEmbedder({ baseUrl: server.url, model: 'fake-embed', timeoutMs: 5_000, retries: 2, retryBaseDelayMs: 0, sleep: () => Promise.resolve(), ...overrides });

runEmbedderContract('OpenAI-compatible /v1/embeddings on a fake OpenAI-compatible server', () => embedder(), { semantic: true });

describe('OpenAI-compatible embedder against a fake OpenAI-compatible server', () => {
  it('sends the model, the key and the texts with the model’s prefixes, and keeps the server’s order by index', async () => {
    server.setEmbeddingHandler((inputs) => ({
      status: 200,
      body: JSON.stringify({ data: inputs.map((_, index) => ({ index, embedding: [index + 1, 1] })).reverse() }),
    }));
    const requests = server.requests.length;
    const vectors = await embedder({ model: 'nomic-embed-text', apiKey: 'sk-test' }).embed({ texts: ['first', 'second'], mode: 'query' });
    expect(vectors.map((vector) => Math.round((vector[0] ?? 0) / (vector[1] ?? 1)))).toEqual([1, 2]);
    const request = server.requests[requests];
    expect(request?.headers['authorization']).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'nomic-embed-text', input: ['search_query: first', 'search_query: second'] });
    reset();
  });

  it('retries a 429 and a 500, then succeeds', async () => {
    let calls = 0;
    server.setEmbeddingHandler((inputs) => {
      calls += 1;
      if (calls === 1) return { status: 429, body: '{"error":"slow down"}', headers: { 'retry-after': '0' } };
      if (calls === 2) return { status: 500, body: 'oops' };
      return inputs.map(() => [1, 0, 0]);
    });
    await expect(embedder().embed({ texts: ['x'], mode: 'passage' })).resolves.toHaveLength(1);
    expect(calls).toBe(3);
    reset();
  });

  it('fails with the server’s message on a 401, without retrying', async () => {
    let calls = 0;
    server.setEmbeddingHandler(() => {
      calls += 1;
      return { status: 401, body: '{"error":{"message":"bad key"}}' };
    });
    await expect(embedder().embed({ texts: ['x'], mode: 'passage' })).rejects.toThrow(/HTTP 401.*bad key/);
    expect(calls).toBe(1);
    reset();
  });

  it('refuses a reply that is not an embeddings list, or has fewer vectors than texts', async () => {
    server.setEmbeddingHandler(() => ({ status: 200, body: '<html>proxy error</html>' }));
    await expect(embedder().embed({ texts: ['x'], mode: 'passage' })).rejects.toBeInstanceOf(EmbedderError);
    server.setEmbeddingHandler(() => [[1, 0]]);
    await expect(embedder().embed({ texts: ['x', 'y'], mode: 'passage' })).rejects.toThrow(/1 vectors for 2 texts/);
    reset();
  });

  it('names the URL when no server listens there', async () => {
    await expect(embedder({ baseUrl: 'http://127.0.0.1:9/v1', retries: 0 }).embed({ texts: ['x'], mode: 'passage' })).rejects.toThrow(/127\.0\.0\.1:9\/v1\/embeddings/);
  });

  it('fails at once, with the server’s answer, when its Retry-After asks for more than a minute', async () => {
    let calls = 0;
    server.setEmbeddingHandler(() => {
      calls += 1;
      return { status: 429, body: '{"error":"quota"}', headers: { 'retry-after': '120' } };
    });
    await expect(embedder().embed({ texts: ['x'], mode: 'passage' })).rejects.toThrow(/HTTP 429.*quota/);
    expect(calls).toBe(1);
    reset();
  });

  it('ends the dimension probe when its signal aborts, even against a server that never answers', async () => {
    const controller = new AbortController();
    const hanging = embedder({ fetch: () => new Promise<Response>(() => undefined) });
    const probe = hanging.dimension({ abortSignal: controller.signal });
    controller.abort(new Error('stopped by the caller'));
    await expect(probe).rejects.toThrow('stopped by the caller');
  });
});
