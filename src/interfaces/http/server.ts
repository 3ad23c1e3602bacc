import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CitedocsError, StoreError, UsageError } from '../../core/errors.js';
import type { Engine } from '../../engine/engine-types.js';
import { askRequest, chatRequest, describeIssues, given, searchRequest, webRequest } from '../requests.js';
import { SearchBlockedError } from '../../sources/web/search-backend.js';
import { CHAT_ASSETS, CHAT_PAGE_SECURITY_HEADERS } from './assets.js';
import { CHAT_PAGE_HTML } from './chat-page.js';
import { createHostCheck } from './host-check.js';
import { indexOverview } from './index-overview.js';
import { openApiDocument } from './openapi.js';
import { handleMcpHttpRequest } from '../mcp/transports.js';
import { streamChat } from './sse.js';

export interface HttpServerOptions {
  /** Bearer tokens that may call the API; empty: no authentication (bind to 127.0.0.1 then). */
  apiKeys?: readonly string[];
  /** Origins allowed by CORS; empty: no cross-origin access. Their pages also pass the Origin check. */
  corsOrigins?: readonly string[];
  /**
   * Host names (or name:port) this server may be reached under besides localhost and IP
   * addresses; `*`: any. A request under another name gets 403 (DNS rebinding).
   */
  allowedHosts?: readonly string[];
  /** Origins of other sites whose pages may call the API; `*`: any. Another site's request gets 403. */
  allowedOrigins?: readonly string[];
  /** Questions the chat page suggests when it is empty; none: topics taken from page titles. */
  exampleQuestions?: readonly string[];
  /** A request that takes longer is aborted with 504. */
  requestTimeoutMs?: number;
  /** MCP's index_docs may start ingest jobs (`--allow-indexing`); off: it refuses. */
  allowIndexing?: boolean;
  bodyLimitBytes?: number;
  /** Structured JSON logs (one line per request) to stderr; off in tests. */
  log?: boolean;
  /** Where the logs go instead of stderr. */
  logStream?: { write(line: string): void };
  /** A pino logger for the request logs instead of `log`/`logStream`: `citedocs serve` passes its `http` stage logger (levels from --quiet, --verbose, CITEDOCS_LOG). */
  logger?: FastifyBaseLogger;
}

/** A request failure a client can act on: its status and a message naming what to change. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The HTTP API over one engine (one index): the same operations, JSON and link guarantees as
 * the CLI, validated by the schemas the CLI and MCP share, plus the chat page at `/`.
 */
export async function createHttpServer(engine: Engine, options: HttpServerOptions = {}): Promise<FastifyInstance> {
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const app = Fastify({
    // Logs never go to stdout: `citedocs serve` prints only its address there.
    ...(options.logger === undefined
      ? { logger: options.log === true ? { level: 'info', redact: ['req.headers.authorization'], stream: options.logStream ?? process.stderr } : false }
      : { loggerInstance: options.logger }),
    bodyLimit: options.bodyLimitBytes ?? 64 * 1024,
    requestTimeout: timeoutMs + 5_000,
  });
  // JSON only: a text body is refused with 415 instead of failing validation as a string.
  app.removeContentTypeParser('text/plain');
  // Before CORS and every route (the chat page, the API, /mcp): a page of another site gets nothing.
  const checkHost = createHostCheck({ allowedHosts: options.allowedHosts ?? [], allowedOrigins: [...(options.allowedOrigins ?? []), ...(options.corsOrigins ?? [])] });
  app.addHook('onRequest', async (request) => {
    const verdict = checkHost({ host: request.headers.host, origin: request.headers.origin });
    if (!verdict.ok) throw new HttpError(403, verdict.code, verdict.message);
  });
  await app.register(cors, { origin: options.corsOrigins === undefined || options.corsOrigins.length === 0 ? false : [...options.corsOrigins] });

  const keys = new Set(options.apiKeys ?? []);
  const authorize = (request: FastifyRequest) => {
    if (keys.size === 0) return;
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!keys.has(token)) throw new HttpError(401, 'unauthorized', 'Send an API key of this server as `Authorization: Bearer <key>`.');
  };
  const parse = <Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> => {
    const result = schema.safeParse(body ?? {});
    if (!result.success) throw new HttpError(400, 'invalid_request', `Invalid request body: ${describeIssues(result.error)}.`);
    return result.data;
  };
  /** Aborted at the timeout or when the client goes away: the engine stops its work. */
  const signalOf = (reply: FastifyReply): AbortSignal => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort(new HttpError(499, 'client_closed', 'The client closed the connection.'));
    });
    return AbortSignal.any([gone.signal, AbortSignal.timeout(timeoutMs)]);
  };

  app.setErrorHandler((error, request, reply) => {
    const failure = httpFailure(error, timeoutMs);
    if (failure.status >= 500) request.log.error({ err: error }, failure.message);
    void reply.status(failure.status).send({ error: failure.code, message: failure.message });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url}. See GET /openapi.json.` });
  });

  app.get('/', (_request, reply) => reply.headers(CHAT_PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(CHAT_PAGE_HTML));
  for (const [path, asset] of Object.entries(CHAT_ASSETS)) {
    app.get(path, (_request, reply) => {
      const { contentType, body } = asset();
      return reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').type(contentType).send(body);
    });
  }
  // Browsers ask for it on every page: no icon, and no 404 in their console.
  app.get('/favicon.ico', (_request, reply) => reply.status(204).send());
  app.get('/api/sources', (request) => {
    authorize(request);
    return indexOverview(engine, options.exampleQuestions);
  });
  app.get('/healthz', async () => {
    const stats = await engine.stats();
    const indexVersion = engine.indexVersion();
    const database = engine.databaseHealth();
    // pid: which process answered, when `serve --workers N` runs several; indexVersion: the index a PostgreSQL replica serves;
    // database (PostgreSQL): `unreachable` (since, databaseError, failedAttempts) while the replica answers from what it has read.
    return { status: 'ok', pages: stats.pages, chunks: stats.chunks, pid: process.pid, ...(indexVersion === undefined ? {} : { indexVersion }), ...database };
  });
  app.get('/openapi.json', () => openApiDocument());

  app.post('/search', async (request, reply) => {
    authorize(request);
    const { query, ...rest } = parse(searchRequest, request.body);
    return engine.search(query, { ...given(rest), signal: signalOf(reply) });
  });
  // Web results are untrusted URLs: from the API they are never fetched on private addresses, whatever the configuration says.
  app.post('/web', async (request, reply) => {
    authorize(request);
    const { query, ...rest } = parse(webRequest, request.body);
    return engine.web(query, { ...given(rest), allowPrivateHosts: false, signal: signalOf(reply) });
  });
  app.post('/ask', async (request, reply) => {
    authorize(request);
    const { question, ...rest } = parse(askRequest, request.body);
    return engine.ask(question, { ...given(rest), signal: signalOf(reply) });
  });
  app.post('/api/chat', async (request, reply) => {
    authorize(request);
    const { question, options } = conversationOf(parse(chatRequest, request.body));
    const response = await engine.ask(question, { ...options, signal: signalOf(reply) });
    return { message: { role: 'assistant', content: response.answer }, ...response };
  });
  // MCP over streamable HTTP, for agents: the same tools as `citedocs mcp` on stdio.
  app.post('/mcp', async (request, reply) => {
    authorize(request);
    reply.hijack();
    await handleMcpHttpRequest(engine, request.raw, reply.raw, request.body, { allowIndexing: options.allowIndexing === true });
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    handler: (_request, reply) => reply.status(405).header('allow', 'POST').send({ error: 'method_not_allowed', message: 'This MCP endpoint is stateless: send each JSON-RPC request as a POST.' }),
  });
  app.post('/api/chat/stream', async (request: FastifyRequest, reply: FastifyReply) => {
    authorize(request);
    const { question, options } = conversationOf(parse(chatRequest, request.body));
    await streamChat(reply, engine.askStream(question, { ...options, signal: signalOf(reply) }), (error) => httpFailure(error, timeoutMs));
  });
  return app;
}

/** The question to answer (the last user message) and the user's earlier questions. */
function conversationOf(request: z.output<typeof chatRequest>) {
  const { messages, ...budget } = request;
  const users = messages.filter((message) => message.role === 'user').map((message) => message.content);
  return { question: users.at(-1) ?? '', options: { ...given(budget), earlierQuestions: users.slice(0, -1) } };
}

/** The status and message a failure becomes: the client's fault (4xx) with what to fix, or ours (5xx). */
export function httpFailure(error: unknown, timeoutMs: number): { status: number; code: string; message: string } {
  if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof DOMException && error.name === 'TimeoutError') return { status: 504, code: 'timeout', message: `The request took longer than ${timeoutMs} ms and was stopped.` };
  if (error instanceof StoreError) return { status: 503, code: 'index_unavailable', message: error.message };
  if (error instanceof UsageError) return { status: 400, code: 'invalid_request', message: error.message };
  if (error instanceof SearchBlockedError) return { status: 503, code: 'search_unavailable', message: error.message };
  if (error instanceof CitedocsError) return { status: 502, code: 'upstream_failed', message: error.message };
  const fastify = error as { statusCode?: number; code?: string; message?: string };
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const message = fastify.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The request body is too large.' : `${fastify.message ?? 'Bad request'}. Send a JSON body with Content-Type: application/json.`;
    return { status: fastify.statusCode, code: fastify.statusCode === 413 ? 'body_too_large' : 'invalid_request', message };
  }
  return { status: 500, code: 'internal_error', message: 'The server failed to answer; see its log.' };
}
