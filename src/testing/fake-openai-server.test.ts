import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, type FakeOpenAiServerOptions, hashedEmbedding, startFakeOpenAiServer } from './fake-openai-server.js';

const servers: FakeOpenAiServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));
async function fakeServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  servers.push(server);
  return server;
}
const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const chat = (content: string, extra: object = {}) => ({ model: 'm', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content }], ...extra });
const cosine = (a: number[], b: number[]): number => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('fake OpenAI-compatible server: chat completions', () => {
  it('echoes the last user message with usage, on 127.0.0.1 under /v1', async () => {
    const server = await fakeServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(`${server.url}/chat/completions`, chat('hello world'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Echo: hello world' }, finish_reason: 'stop' }], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } });
    expect(server.requests).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/chat/completions', body: chat('hello world') })]);
  });

  it('streams several SSE deltas, a keep-alive comment and [DONE]', async () => {
    const server = await fakeServer();
    const response = await post(`${server.url}/chat/completions`, chat('split me into pieces', { stream: true }));
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events[0]).toBe(': keep-alive');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(1, -1).map((event) => JSON.parse(event.replace(/^data: /, '')) as { choices: { delta: { content?: string }; finish_reason: string | null }[] });
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '');
    expect(deltas.filter((delta) => delta !== '').length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Echo: split me into pieces');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('replies with a JSON object in JSON mode', async () => {
    const server = await fakeServer();
    const body = (await (await post(`${server.url}/chat/completions`, chat('hi', { response_format: { type: 'json_object' } }))).json()) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(body.choices[0]?.message.content ?? '')).toEqual({ echo: 'hi' });
  });

  it('lets a handler script text, raw statuses and delays, counting calls', async () => {
    const server = await fakeServer();
    server.setChatHandler((_, { index }) => [
      'scripted',
      { status: 429, headers: { 'retry-after': '2' }, body: '{"error": {"message": "slow down"}}' },
      { status: 200, body: '{"choices": [' },
      { text: 'late', delayMs: 100 },
    ][index] ?? { delayMs: 0 });
    const url = `${server.url}/chat/completions`;
    expect(await (await post(url, chat('a'))).json()).toMatchObject({ choices: [{ message: { content: 'scripted' } }] });
    const limited = await post(url, chat('b'));
    expect([limited.status, limited.headers.get('retry-after'), await limited.text()]).toEqual([429, '2', '{"error": {"message": "slow down"}}']);
    expect(await (await post(url, chat('c'))).text()).toBe('{"choices": [');
    const started = Date.now();
    expect(await (await post(url, chat('d'))).json()).toMatchObject({ choices: [{ message: { content: 'late' } }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(await (await post(url, chat('e'))).json()).toMatchObject({ choices: [{ message: { content: 'Echo: e' } }] });
  });

  it('answers 401 without the configured key, 404 for unknown paths, and lists its model', async () => {
    const server = await fakeServer({ apiKey: 'sk-1', model: 'tiny' });
    expect((await post(`${server.url}/chat/completions`, chat('hi'))).status).toBe(401);
    expect((await post(`${server.url}/chat/completions`, chat('hi'), { authorization: 'Bearer sk-1' })).status).toBe(200);
    expect((await post(`${server.url}/completions`, {}, { authorization: 'Bearer sk-1' })).status).toBe(404);
    expect(await (await fetch(`${server.url}/models`, { headers: { authorization: 'Bearer sk-1' } })).json()).toMatchObject({ data: [{ id: 'tiny' }] });
  });

  it('ends open connections and pending slow replies on close()', async () => {
    const server = await startFakeOpenAiServer({ chat: () => ({ delayMs: 60_000 }) });
    const pending = post(`${server.url}/chat/completions`, chat('hi')).then(() => 'answered', () => 'connection closed');
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    // Were it left open, the reply would come after 60 s, far past the test's time limit.
    expect(await pending).toBe('connection closed');
  });
});

describe('fake OpenAI-compatible server: embeddings', () => {
  it('embeds a string or an array of strings as normalised 64-dimension hashed bag-of-words vectors', async () => {
    const server = await fakeServer();
    const single = (await (await post(`${server.url}/embeddings`, { model: 'e', input: 'Token budget' })).json()) as { data: { index: number; embedding: number[] }[]; model: string; usage: { prompt_tokens: number } };
    expect(single).toMatchObject({ model: 'e', data: [{ index: 0 }], usage: { prompt_tokens: 2 } });
    expect(single.data[0]?.embedding).toEqual(hashedEmbedding('token BUDGET'));
    const many = (await (await post(`${server.url}/embeddings`, { model: 'e', input: ['a b', 'c'] })).json()) as { data: { index: number; embedding: number[] }[] };
    expect(many.data.map((item) => item.index)).toEqual([0, 1]);
    expect(many.data[1]?.embedding).toEqual(hashedEmbedding('c'));
  });

  it('makes texts that share words closer than texts that do not', () => {
    const query = hashedEmbedding('keep the answer inside a token budget');
    expect(query).toHaveLength(64);
    expect(Math.hypot(...query)).toBeCloseTo(1, 10);
    expect(cosine(query, hashedEmbedding('the token budget of selected passages'))).toBeGreaterThan(cosine(query, hashedEmbedding('crawl robots sitemap')));
    expect(hashedEmbedding('...')).toEqual(new Array(64).fill(0));
  });

  it('honours dimensions and base64 encoding, and rejects a missing input', async () => {
    const server = await fakeServer();
    const sized = (await (await post(`${server.url}/embeddings`, { input: 'x y', dimensions: 8 })).json()) as { data: { embedding: number[] }[] };
    expect(sized.data[0]?.embedding).toHaveLength(8);
    const encoded = (await (await post(`${server.url}/embeddings`, { input: 'x y', encoding_format: 'base64' })).json()) as { data: { embedding: string }[] };
    const decoded = Array.from(new Float32Array(Uint8Array.from(Buffer.from(encoded.data[0]?.embedding ?? '', 'base64')).buffer));
    expect(decoded).toHaveLength(64);
    expect(decoded.map((value) => value.toFixed(6))).toEqual(hashedEmbedding('x y').map((value) => value.toFixed(6)));
    expect((await post(`${server.url}/embeddings`, { model: 'e' })).status).toBe(400);
  });

  it('lets setEmbeddingHandler script vectors and failures', async () => {
    const server = await fakeServer();
    server.setEmbeddingHandler((inputs, { index }) => (index === 0 ? { status: 500, body: 'boom' } : inputs.map((input) => [input.length, 0])));
    expect((await post(`${server.url}/embeddings`, { input: ['abc'] })).status).toBe(500);
    expect(await (await post(`${server.url}/embeddings`, { input: ['abc', 'de'] })).json()).toMatchObject({ data: [{ index: 0, embedding: [3, 0] }, { index: 1, embedding: [2, 0] }] });
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
  });
});
