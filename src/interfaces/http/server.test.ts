import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Llm } from '../../llm/llm.js';
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

/** A request with any `Host` and `Origin` (fetch would not send a Host of our choosing). */
function raw(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (body += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

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
    expect(Object.keys(document.paths).sort()).toEqual(['/api/chat', '/api/chat/stream', '/api/sources', '/ask', '/healthz', '/search', '/web']);
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

  it('POST /search with groupByPage adds `pages` (as `citedocs search --group-by-page --json`): each page once, holding exactly the results', async () => {
    const base = await serve();
    const body = (await (await post(base, '/search', { query: 'create an index', limit: 8, groupByPage: true })).json()) as {
      results: { url: string; tokenCount: number }[];
      pages: { url: string; tokenCount: number; sections: { url: string }[] }[];
    };
    const cli = await runCliCaptured(['search', 'create an index', '--limit', '8', '--group-by-page', '--db', dbPath, '--json'], { cwd: process.cwd() });
    expect(body).toEqual(JSON.parse(cli.stdout));
    expect(new Set(body.pages.map((page) => page.url)).size).toBe(body.pages.length);
    expect(body.pages.flatMap((page) => page.sections.map((section) => section.url)).sort()).toEqual(body.results.map((result) => result.url).sort());
    for (const page of body.pages) for (const section of page.sections) expect(section.url.split('#')[0]).toBe(page.url);
    expect(body.pages.reduce((sum, page) => sum + page.tokenCount, 0)).toBe(body.results.reduce((sum, result) => sum + result.tokenCount, 0));
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

  it('returns diagnostics beside warnings and the usage of model calls, in /search, /ask and the stream', async () => {
    const base = await serve();
    const searched = (await (await post(base, '/search', { query: 'kubernetes helm chart' })).json()) as { warnings: string[]; diagnostics: unknown[]; usage: { llm: { calls: number } } };
    expect(searched.diagnostics).toEqual([{ code: 'retrieve.no-match', stage: 'retrieve', message: searched.warnings[0] }]);
    expect(searched.usage.llm.calls).toBe(0);
    const asked = (await (await post(base, '/ask', { question: 'kubernetes helm chart' })).json()) as { diagnostics: { code: string }[]; usage: unknown };
    expect(asked.diagnostics.map((entry) => entry.code)).toEqual(['retrieve.no-match']);
    expect(asked.usage).toBeDefined();
    const response = await post(base, '/api/chat/stream', { messages: [{ role: 'user', content: 'kubernetes helm chart' }] });
    const seen: Record<string, unknown>[] = [];
    for await (const event of events(response)) seen.push(event);
    expect(seen.find((event) => event['type'] === 'warnings')).toEqual({ type: 'warnings', warnings: searched.warnings, diagnostics: searched.diagnostics });
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

  it('GET / serves the chat page with its scripts from this server only, under a policy that runs no inline script', async () => {
    const base = await serve();
    const response = await fetch(`${base}/`);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['/assets/marked.js', '/assets/purify.js', '/assets/render.js', '/assets/chat.js']);
    expect(html).not.toMatch(/<script>|\son\w+=|style="/);
  });

  it('serves the Markdown renderer and the sanitiser from node_modules, and a page script that parses', async () => {
    const base = await serve();
    const marked = await fetch(`${base}/assets/marked.js`);
    expect(marked.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await marked.text()).toMatch(/^\/\*\*\n \* marked v\d+/);
    expect(await (await fetch(`${base}/assets/purify.js`)).text()).toMatch(/DOMPurify/);
    const script = await (await fetch(`${base}/assets/chat.js`)).text();
    expect(script).toContain('/api/chat/stream');
    const renderer = await (await fetch(`${base}/assets/render.js`)).text();
    expect(renderer).toContain('citedocsRender');
    // The scripts live in raw template strings, where one backtick too many would break them.
    expect(() => new Function(script)).not.toThrow();
    expect(() => new Function(renderer)).not.toThrow();
    expect((await fetch(`${base}/assets/chat.css`)).headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('GET /api/sources says what is indexed, with topics to try taken from page titles, or the configured questions', async () => {
    const base = await serve();
    const body = (await (await fetch(`${base}/api/sources`)).json()) as { pages: number; chunks: number; sources: { url: string; pages: number }[]; examples: string[] };
    expect(body.pages).toBe((await engine.stats()).pages);
    expect(body.chunks).toBe((await engine.stats()).chunks);
    expect(body.sources).toMatchObject([{ url: `${site.url}docs/`, pages: body.pages }]);
    expect(body.sources).toHaveLength(1);
    expect(body.examples.length).toBeGreaterThan(0);
    expect(body.examples.length).toBeLessThanOrEqual(4);
    for (const example of body.examples) expect(example).not.toMatch(/^(chapter|\d)|documentation$/i);
    const configured = await serve({ exampleQuestions: ['how do I drop a table'] });
    expect(((await (await fetch(`${configured}/api/sources`)).json()) as { examples: string[] }).examples).toEqual(['how do I drop a table']);
    const locked = await serve({ apiKeys: ['secret-1'] });
    expect((await fetch(`${locked}/api/sources`)).status).toBe(401);
  });
});

describe('the Host and Origin guard (DNS rebinding, cross-site calls)', () => {
  const chat = JSON.stringify({ messages: [{ role: 'user', content: 'how do I drop a table' }] });
  const mcpList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it.each([
    ['/', 'GET', {}, undefined],
    ['/search', 'POST', { 'content-type': 'application/json' }, JSON.stringify({ query: 'index' })],
    ['/api/chat/stream', 'POST', { 'content-type': 'application/json' }, chat],
    ['/mcp', 'POST', mcpHeaders, mcpList],
  ])('refuses %s under a foreign Host with 403 naming --allowed-hosts', async (path, method, headers, body) => {
    const base = await serve();
    const port = new URL(base).port;
    const response = await raw(base, path, { method, headers: { ...headers, host: `rebind.evil.example:${port}` }, ...(body === undefined ? {} : { body }) });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ error: 'forbidden_host', message: expect.stringContaining('--allowed-hosts rebind.evil.example') as string });
  });

  it.each([
    ['/search', { 'content-type': 'application/json' }, JSON.stringify({ query: 'index' })],
    ['/api/chat/stream', { 'content-type': 'application/json' }, chat],
    ['/mcp', mcpHeaders, mcpList],
  ])("refuses %s called from another site's page with 403 naming --allowed-origins", async (path, headers, body) => {
    const base = await serve();
    const response = await raw(base, path, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ error: 'forbidden_origin', message: expect.stringContaining('--allowed-origins https://evil.example') as string });
  });

  it('answers localhost, the bound address and its own pages (Origin = the Host), and /mcp for agents that send no Origin', async () => {
    const base = await serve();
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const response = await raw(base, '/search', { method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'index' }) });
      expect(response.status).toBe(200);
    }
    expect((await raw(base, '/mcp', { method: 'POST', headers: mcpHeaders, body: mcpList })).status).toBe(200);
  });

  it('answers the names and origins it was given, and the CORS origins', async () => {
    const base = await serve({ allowedHosts: ['docs.internal'], allowedOrigins: ['https://portal.example'], corsOrigins: ['https://widget.example'] });
    const search = (headers: Record<string, string>) => raw(base, '/search', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: 'index' }) });
    expect((await search({ host: 'docs.internal:443', origin: 'https://docs.internal' })).status).toBe(200);
    expect((await search({ origin: 'https://portal.example' })).status).toBe(200);
    expect((await search({ origin: 'https://widget.example' })).status).toBe(200);
    expect((await search({ host: 'other.internal' })).status).toBe(403);
  });
});

describe('streaming with a model', () => {
  it('sends `cited` with the sources numbered so far before the deltas that follow, so [n] can be linked mid-stream (an LLM stand-in)', async () => {
    const pieces = ['Use DROP TABLE to remove a table ', '[1]. ', 'It also drops ', 'its indexes [1]. ', 'Add CASCADE ', 'for dependent views [2].'];
    const llm: Llm = {
      modelId: 'test:scripted',
      complete: () => Promise.reject(new Error('not used: the answer is streamed')),
      async *stream() {
        yield* pieces;
      },
    };
    const modelEngine = createEngine({ dbPath, rerank: { method: 'fused' }, retrieve: { techniques: { hyde: { enabled: false }, expansion: { enabled: false } } } }, { llm });
    try {
      const base = await serve({}, modelEngine);
      const response = await post(base, '/api/chat/stream', { messages: [{ role: 'user', content: 'how do I drop a table' }] });
      const seen: Record<string, unknown>[] = [];
      for await (const event of events(response)) seen.push(event);
      const types = seen.map((event) => event['type']);
      const firstCited = types.indexOf('cited');
      expect(firstCited).toBeGreaterThanOrEqual(0);
      expect(types.slice(types.indexOf('citations'))).toEqual(['citations', 'warnings', 'done']);
      const final = seen.find((event) => event['type'] === 'citations')?.['citations'] as { n: number; url: string }[];
      const cited = seen.filter((event) => event['type'] === 'cited').map((event) => event['citations'] as { n: number; url: string }[]);
      // Each `cited` is the final list so far: numbers never change meaning during the stream.
      for (const list of cited) expect(final.slice(0, list.length)).toEqual(list);
      expect(final[0]?.url).toMatch(/dropping\.html#/);
      // [1] is announced while the answer is still being written: before the text of its last sentence.
      expect(cited[0]?.[0]?.n).toBe(1);
      expect(firstCited).toBeLessThan(seen.findIndex((event) => event['type'] === 'delta' && String(event['text']).includes('CASCADE')));
    } finally {
      await modelEngine.close();
    }
  });
});
