import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine.js';
import type { Engine } from '../../engine/engine-types.js';
import { runCliCaptured } from '../../testing/run-cli.js';
import { indexFixtureSite } from '../../testing/fixture-index.js';
import type { StaticServer } from '../../testing/static-server.js';
import { createHttpServer, type HttpServerOptions } from './server.js';

let site: StaticServer;
let dbPath: string;
let engine: Engine;
const servers: FastifyInstance[] = [];

/** A server on 127.0.0.1 at a free port; closed after the tests. */
async function serve(options: HttpServerOptions = {}, over: Engine = engine): Promise<string> {
  const app = await createHttpServer(over, options);
  servers.push(app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** The `data:` events of a server-sent event stream, read one at a time as they arrive. */
async function* events(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = (response.body ?? new ReadableStream()).pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      expect(frame.startsWith('data: ')).toBe(true);
      yield JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>;
    }
  }
}

beforeAll(async () => {
  ({ site, dbPath } = await indexFixtureSite('citedocs-http-'));
  engine = createEngine({ dbPath });
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await engine.close();
  await site.close();
});

describe('HTTP API', () => {
  it('GET /healthz answers ok with the size of the index', async () => {
    const base = await serve();
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', pages: expect.any(Number) as number, chunks: expect.any(Number) as number });
  });

  it('GET /openapi.json describes every operation with the request schema that validates it', async () => {
    const base = await serve();
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> };
    expect(Object.keys(document.paths).sort()).toEqual(['/api/chat', '/api/chat/stream', '/ask', '/healthz', '/search', '/web']);
    expect(Object.keys(document.paths['/search']?.post?.requestBody.content['application/json']?.schema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'limit', 'maxTokens']));
  });

  it('POST /search returns the same JSON as `citedocs search --json`, with URL#anchor results', async () => {
    const base = await serve();
    const response = await post(base, '/search', { query: 'create an index concurrently', limit: 3 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { url: string }[] };
    const cli = await runCliCaptured(['search', 'create an index concurrently', '--limit', '3', '--db', dbPath, '--json'], { cwd: process.cwd() });
    expect(cli.code).toBe(0);
    expect(body).toEqual(JSON.parse(cli.stdout));
    expect(body.results[0]?.url).toMatch(/concurrently\.html#/);
  });

  it('POST /search takes `question` for `query`, and keeps the passages inside maxTokens', async () => {
    const base = await serve();
    const body = (await (await post(base, '/search', { question: 'create an index concurrently', maxTokens: 200 })).json()) as { results: { tokenCount: number }[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.reduce((sum, result) => sum + result.tokenCount, 0)).toBeLessThanOrEqual(200);
  });

  it('POST /ask returns the same JSON as `citedocs ask --json`: answer, citations, warnings, selection', async () => {
    const base = await serve();
    const response = await post(base, '/ask', { question: 'how do I drop a table', maxTokens: 800 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { answer: string; citations: { url: string }[] };
    const cli = await runCliCaptured(['ask', 'how do I drop a table', '--max-tokens', '800', '--db', dbPath, '--json'], { cwd: process.cwd() });
    expect(body).toEqual(JSON.parse(cli.stdout));
    expect(body.citations.some((citation) => citation.url.includes('dropping.html#'))).toBe(true);
  });

  it.each([
    ['no query', {}, /`query`: query is required/],
    ['an empty query', { query: '  ' }, /`query`: query must not be empty/],
    ['a limit of 0', { query: 'index', limit: 0 }, /`limit`: limit must be at least 1/],
    ['a fractional maxTokens', { query: 'index', maxTokens: 1.5 }, /`maxTokens`: maxTokens must be a whole number/],
    ['a string limit', { query: 'index', limit: '3' }, /`limit`/],
    ['an unknown field', { query: 'index', top_k: 3 }, /unknown field `top_k`/],
  ])('POST /search refuses %s with 400 naming the field', async (_name, body, message) => {
    const base = await serve();
    const response = await post(base, '/search', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', message: expect.stringMatching(message) as string });
  });

  it('checks a CLI search with the same schema: a limit the API refuses is a usage error (exit 2) naming the field', async () => {
    const cli = await runCliCaptured(['search', 'index', '--limit', '500', '--db', dbPath, '--json'], { cwd: process.cwd() });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/`limit`: limit must be at most 100/);
    const base = await serve();
    expect(((await (await post(base, '/search', { query: 'index', limit: 500 })).json()) as { message: string }).message).toMatch(/`limit`: limit must be at most 100/);
  });

  it.each([
    ['/ask', { query: 'x', question: undefined, limit: 2 }, /unknown field `limit`/],
    ['/api/chat', { messages: [] }, /`messages`: messages must hold at least one message/],
    ['/api/chat', { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }, /`messages\.1`: the last message must be a non-empty user message/],
    ['/api/chat/stream', { messages: [{ role: 'robot', content: 'hi' }] }, /`messages\.0\.role`/],
  ])('POST %s refuses an invalid body with 400 naming the field', async (path, body, message) => {
    const base = await serve();
    const response = await post(base, path, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
  });

  it('refuses malformed JSON with 400, a body that is not JSON with 415, and a body over the limit with 413', async () => {
    const base = await serve({ bodyLimitBytes: 1024 });
    const malformed = await post(base, '/search', '{"query": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toBe('invalid_request');
    const text = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'index' });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/application\/json/) as string });
    const large = await post(base, '/search', { query: 'x'.repeat(2000) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: 'body_too_large' });
  });

  it('answers an unknown route with 404 pointing at /openapi.json', async () => {
    const base = await serve();
    const response = await fetch(`${base}/nope`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toMatch(/openapi\.json/);
  });

  it('POST /api/chat answers the last user message, as /ask would, with the assistant message', async () => {
    const base = await serve();
    const response = await post(base, '/api/chat', { messages: [{ role: 'user', content: 'how do I drop a table' }] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { message: { role: string; content: string }; answer: string };
    const asked = (await (await post(base, '/ask', { question: 'how do I drop a table' })).json()) as { answer: string };
    expect(body.message).toEqual({ role: 'assistant', content: asked.answer });
    expect(body.answer).toBe(asked.answer);
  });

  it('POST /api/chat/stream sends deltas, then citations, warnings and done; joined, the deltas are the non-streamed answer', async () => {
    const base = await serve();
    const messages = [{ role: 'user', content: 'how do I drop a table' }];
    const response = await post(base, '/api/chat/stream', { messages });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen: Record<string, unknown>[] = [];
    for await (const event of events(response)) seen.push(event);
    const types = seen.map((event) => event['type']);
    const firstAfterDeltas = types.findIndex((type) => type !== 'delta');
    expect(firstAfterDeltas).toBeGreaterThan(0);
    expect(types.slice(firstAfterDeltas)).toEqual(['citations', 'warnings', 'done']);
    const streamed = seen.filter((event) => event['type'] === 'delta').map((event) => event['text']).join('');
    const whole = (await (await post(base, '/api/chat', { messages })).json()) as { answer: string; citations: unknown[] };
    expect(streamed).toBe(whole.answer);
    expect(seen.at(-1)?.['answer']).toBe(whole.answer);
    expect(seen[firstAfterDeltas]?.['citations']).toEqual(whole.citations);
  });

  it('uses the conversation for retrieval: a follow-up that points back is answered from the topic before it', async () => {
    const base = await serve();
    const alone = (await (await post(base, '/api/chat', { messages: [{ role: 'user', content: 'what happens to its indexes?' }] })).json()) as { citations: { url: string }[] };
    const followUp = (await (
      await post(base, '/api/chat', {
        messages: [
          { role: 'user', content: 'how do I drop a table' },
          { role: 'assistant', content: 'Use DROP TABLE [1].' },
          { role: 'user', content: 'what happens to its indexes?' },
        ],
      })
    ).json()) as { citations: { url: string }[] };
    expect(followUp.citations[0]?.url).toMatch(/dropping\.html#dropping-a-table$/);
    expect(alone.citations[0]?.url ?? '').not.toMatch(/dropping\.html/);
  });

  it('with API keys, refuses a request without the right bearer token with 401, and serves the health check to anyone', async () => {
    const base = await serve({ apiKeys: ['secret-1'] });
    expect((await post(base, '/search', { query: 'index' })).status).toBe(401);
    expect((await post(base, '/search', { query: 'index' }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(base, '/search', { query: 'index' }, { authorization: 'Bearer secret-1' })).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('allows cross-origin calls from the allow-list only', async () => {
    const base = await serve({ corsOrigins: ['https://docs.example'] });
    const allowed = await post(base, '/search', { query: 'index' }, { origin: 'https://docs.example' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example');
    const other = await post(base, '/search', { query: 'index' }, { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('stops a request at the timeout with 504 and aborts the engine’s work (a stalled engine stand-in)', async () => {
    let aborted = false;
    const stalled: Engine = {
      ...engine,
      search: (_query, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(options.signal?.reason as Error);
          });
        }),
    };
    const base = await serve({ requestTimeoutMs: 50 }, stalled);
    const response = await post(base, '/search', { query: 'index' });
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ error: 'timeout', message: 'The request took longer than 50 ms and was stopped.' });
    expect(aborted).toBe(true);
  });

  it('answers 503 naming the index when it cannot be read', async () => {
    const missing = createEngine({ dbPath: '/nonexistent/citedocs-test/index.db' });
    const base = await serve({}, missing);
    const response = await post(base, '/search', { query: 'index' });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'index_unavailable', message: expect.stringMatching(/No index at \/nonexistent\/citedocs-test\/index\.db/) as string });
    await missing.close();
  });

  it('ends a stream that fails after its first delta with an error event (a failing engine stand-in)', async () => {
    const failing: Engine = {
      ...engine,
      async *askStream() {
        yield { type: 'delta', text: 'Partial answer' };
        throw new Error('model went away');
      },
    };
    const base = await serve({}, failing);
    const response = await post(base, '/api/chat/stream', { messages: [{ role: 'user', content: 'anything' }] });
    expect(response.status).toBe(200);
    const seen: Record<string, unknown>[] = [];
    for await (const event of events(response)) seen.push(event);
    expect(seen).toEqual([
      { type: 'delta', text: 'Partial answer' },
      { type: 'error', error: 'internal_error', message: 'The server failed to answer; see its log.' },
    ]);
  });

  it('GET / serves the chat page, which needs no build step', async () => {
    const base = await serve();
    const response = await fetch(`${base}/`);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('/api/chat/stream');
    expect(html).not.toMatch(/<script[^>]+src=/);
    // The page's own script parses (the HTML lives in a template string, where one escape too few breaks it).
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script.length).toBeGreaterThan(1000);
    expect(() => new Function(script)).not.toThrow();
  });
});
