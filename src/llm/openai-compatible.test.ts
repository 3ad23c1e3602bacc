import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, type FakeOpenAiServerOptions, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { runLlmContract } from './llm.contract.js';
import { LlmError, type LlmRequest } from './llm.js';
import { createOpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from './openai-compatible.js';

const servers: FakeOpenAiServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function fakeServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  servers.push(server);
  return server;
}

const sleeps: number[] = [];
afterEach(() => void sleeps.splice(0));
function llmFor(server: FakeOpenAiServer, overrides: Partial<OpenAiCompatibleLlmOptions> = {}) {
  return createOpenAiCompatibleLlm({
    baseUrl: server.url, model: 'test-model', timeoutMs: 5000, retries: 2, retryBaseDelayMs: 10,
    sleep: async (ms) => void sleeps.push(ms), ...overrides,
  });
}
const ask = (content: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({ messages: [{ role: 'user', content }], ...extra });
async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error: unknown = await promise.then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}
async function collect(deltas: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const delta of deltas) all.push(delta);
  return all;
}

runLlmContract('openai-compatible on the fake OpenAI-compatible server', async () => llmFor(await fakeServer()));

describe('createOpenAiCompatibleLlm on the fake OpenAI-compatible server', () => {
  it('returns the reply text, the model and the token usage', async () => {
    const server = await fakeServer();
    const llm = llmFor(server);
    expect(llm.modelId).toBe('openai-compatible:test-model');
    const response = await llm.complete({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }], maxTokens: 50, temperature: 0 });
    expect(response).toEqual({ text: 'Echo: hello there', model: 'test-model', usage: { promptTokens: 4, completionTokens: 3 } });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } });
    expect(server.requests[0]?.body).toEqual({ model: 'test-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }], max_tokens: 50, temperature: 0 });
  });

  it('streams several deltas that concatenate to the text complete() returns', async () => {
    const server = await fakeServer();
    const llm = llmFor(server);
    const deltas = await collect(llm.stream(ask('how are chunks split into passages')));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe((await llm.complete(ask('how are chunks split into passages'))).text);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it('streams the whole reply when the server ignores stream: true and answers with JSON', async () => {
    const server = await fakeServer({ chat: () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: 'all at once' } }] }) }) });
    expect(await collect(llmFor(server).stream(ask('hi')))).toEqual(['all at once']);
  });

  it('fails with an LlmError naming the URL when the reply is not JSON, without retrying', async () => {
    const server = await fakeServer({ chat: () => ({ status: 200, body: '{"choices": [' }) });
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.message).toContain(`${server.url}/chat/completions (model "test-model") returned a reply that is not JSON`);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(server.requests).toHaveLength(1);
  });

  it('fails with an LlmError when the JSON reply has no message content', async () => {
    const server = await fakeServer({ chat: () => ({ status: 200, body: '{"choices": [{"message": {"content": null}}]}' }) });
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.message).toMatch(/returned a reply without choices\[0\]\.message\.content/);
  });

  it('fails with an LlmError when a stream event is malformed or reports an error', async () => {
    const server = await fakeServer({ chat: (_, { index }) => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: index === 0 ? 'data: {"choices": [\n\n' : 'data: {"error": {"message": "model crashed"}}\n\n' }) });
    expect((await failure(collect(llmFor(server).stream(ask('hi'))))).message).toMatch(/sent a stream event that is not JSON/);
    expect((await failure(collect(llmFor(server).stream(ask('hi'))))).message).toMatch(/reported an error while streaming: model crashed/);
  });

  it('waits as long as a 429 Retry-After asks, then succeeds', async () => {
    const server = await fakeServer({ chat: (body, { index }) => index === 0 ? { status: 429, headers: { 'retry-after': '3' }, body: '{"error": {"message": "Rate limit reached"}}' } : `ok ${body.model ?? ''}` });
    expect((await llmFor(server).complete(ask('hi'))).text).toBe('ok test-model');
    expect(sleeps).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('fails instead of stalling when Retry-After is longer than it waits', async () => {
    const server = await fakeServer({ chat: () => ({ status: 429, headers: { 'retry-after': '3600' } }) });
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/retry after 3600 s, longer than the 60 s citedocs waits/);
    expect(sleeps).toEqual([]);
  });

  it('retries a 500 twice with exponential backoff, then succeeds', async () => {
    const server = await fakeServer({ chat: (_, { index }) => (index < 2 ? { status: 500, body: 'upstream exploded' } : 'recovered') });
    expect((await llmFor(server).complete(ask('hi'))).text).toBe('recovered');
    expect(sleeps).toEqual([10, 20]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the configured retries with the status and the server message', async () => {
    const server = await fakeServer({ chat: () => ({ status: 503, body: '{"error": {"message": "model is loading"}}' }) });
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.status).toBe(503);
    expect(error.message).toBe(`LLM request to ${server.url}/chat/completions (model "test-model") returned HTTP 503: model is loading (3 attempts). The server failed: check its logs, try again later or raise the retries.`);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([10, 20]);
  });

  it('fails at once on a 401, with the server message and a hint about the key', async () => {
    const server = await fakeServer({ apiKey: 'sk-right' });
    const error = await failure(llmFor(server, { apiKey: 'sk-wrong' }).complete(ask('hi')));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/returned HTTP 401: Incorrect API key provided\. Check the API key\.$/);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('says how to fix a 404 (base URL or a model the server lacks)', async () => {
    const server = await fakeServer({ chat: () => ({ status: 404, body: '{"error": "model \\"test-model\\" not found, try pulling it first"}' }) });
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.message).toMatch(/HTTP 404: model "test-model" not found, try pulling it first\. Check that baseUrl ends in \/v1 .*ollama pull test-model/);
  });

  it('times out a slow reply, retries it, then fails with an LlmError naming the timeout', async () => {
    const server = await fakeServer({ chat: () => ({ delayMs: 2000 }) });
    const error = await failure(llmFor(server, { timeoutMs: 100, retries: 1 }).complete(ask('hi')));
    expect(error.message).toMatch(/timed out after 100 ms \(2 attempts\)\. The model may be loading or slow: raise timeoutMs/);
    expect(error.status).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('times out a stream that stalls after its first delta (injected fetch)', async () => {
    const encoder = new TextEncoder();
    const stalled = (): Promise<Response> => Promise.resolve(new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: {"choices": [{"delta": {"content": "Hel"}}]}\n\n'));
      },
    }), { headers: { 'content-type': 'text/event-stream' } }));
    const llm = createOpenAiCompatibleLlm({ baseUrl: 'http://llm.invalid/v1', model: 'm', timeoutMs: 100, retries: 0, retryBaseDelayMs: 10, fetch: stalled });
    const deltas: string[] = [];
    const iterate = async (): Promise<void> => {
      for await (const delta of llm.stream(ask('hi'))) deltas.push(delta);
    };
    expect((await failure(iterate())).message).toMatch(/^LLM request to http:\/\/llm\.invalid\/v1\/chat\/completions \(model "m"\) stalled: no data for 100 ms while streaming\./);
    expect(deltas).toEqual(['Hel']);
  });

  it('times out an attempt even when an injected fetch ignores its signal', async () => {
    const llm = createOpenAiCompatibleLlm({ baseUrl: 'http://llm.invalid/v1', model: 'm', timeoutMs: 50, retries: 0, retryBaseDelayMs: 10, fetch: () => new Promise<Response>(() => undefined) });
    expect((await failure(llm.complete(ask('hi')))).message).toMatch(/timed out after 50 ms\./);
  });

  it('retries after a network error and says to check the server', async () => {
    const server = await fakeServer();
    await server.close();
    const error = await failure(llmFor(server).complete(ask('hi')));
    expect(error.message).toMatch(/failed: ECONNREFUSED.*\(3 attempts\)\. Check that the server is running at http:\/\/127\.0\.0\.1:\d+\/v1\./);
    expect(sleeps).toEqual([10, 20]);
  });

  it('stops at once when the caller aborts a slow reply', async () => {
    const server = await fakeServer({ chat: () => ({ delayMs: 5000 }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 50);
    const error = await failure(llmFor(server).complete(ask('hi', { abortSignal: controller.signal })));
    expect(error.message).toMatch(/was aborted\.$/);
    expect(error.cause).toEqual(new Error('user pressed Ctrl-C'));
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('stops at once when the caller aborts during the backoff between retries', async () => {
    const server = await fakeServer({ chat: () => ({ status: 500 }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const llm = createOpenAiCompatibleLlm({ baseUrl: server.url, model: 'test-model', timeoutMs: 5000, retries: 3, retryBaseDelayMs: 10_000 });
    expect((await failure(llm.complete(ask('hi', { abortSignal: controller.signal })))).message).toMatch(/was aborted/);
    expect(server.requests).toHaveLength(1);
  });

  it('stops a stream when the caller aborts after the first delta', async () => {
    const server = await fakeServer({ chat: () => 'one two three four five six seven eight' });
    const controller = new AbortController();
    const deltas: string[] = [];
    const iterate = async (): Promise<void> => {
      for await (const delta of llmFor(server).stream(ask('hi', { abortSignal: controller.signal }))) {
        deltas.push(delta);
        controller.abort();
      }
    };
    expect((await failure(iterate())).message).toMatch(/was aborted/);
    expect(deltas).toEqual(['one ']);
  });

  it('asks for a JSON object with response_format in json mode', async () => {
    const server = await fakeServer();
    const response = await llmFor(server).complete(ask('list the anchors', { json: true }));
    expect(JSON.parse(response.text)).toEqual({ echo: 'list the anchors' });
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('asks again without response_format when the server rejects it, and stops offering it', async () => {
    const server = await fakeServer({
      chat: (body) => body.response_format === undefined ? '{"ok": true}' : { status: 400, body: '{"error": {"message": "Invalid parameter: response_format json_object is not supported with this model."}}' },
    });
    const llm = llmFor(server);
    expect((await llm.complete(ask('hi', { json: true }))).text).toBe('{"ok": true}');
    expect((await llm.complete(ask('again', { json: true }))).text).toBe('{"ok": true}');
    expect(server.requests.map((request) => 'response_format' in (request.body as object))).toEqual([true, false, false]);
    expect(sleeps).toEqual([]);
  });

  it('sends the Authorization header only when an API key is given', async () => {
    const server = await fakeServer();
    await llmFor(server, { apiKey: 'sk-test' }).complete(ask('hi'));
    await llmFor(server).complete(ask('hi'));
    await collect(llmFor(server, { apiKey: 'sk-test' }).stream(ask('hi')));
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-test', undefined, 'Bearer sk-test']);
  });

  it('accepts a base URL with a trailing slash', async () => {
    const server = await fakeServer();
    await llmFor(server, { baseUrl: `${server.url}/` }).complete(ask('hi'));
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });
});
