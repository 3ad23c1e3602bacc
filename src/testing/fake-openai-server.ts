import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, like /v1/chat/completions */
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body parsed, or the raw text when it is not JSON. */
  body: unknown;
}

export interface ChatRequestBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  response_format?: { type: string };
  max_tokens?: number;
  temperature?: number;
}

export interface EmbeddingRequestBody {
  model?: string;
  input?: string | string[];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
}

/** Any status, headers and body, sent as they are: malformed JSON, 429 with Retry-After, 500. */
export interface RawReply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** The reply text; `{ delayMs }` alone delays the default reply (a slow model). Streamed when the request asks. */
export type ChatReply = string | { text: string; delayMs?: number } | { delayMs: number } | RawReply;
/** One vector per input; `{ delayMs }` alone delays the default vectors. */
export type EmbeddingReply = number[][] | { vectors: number[][]; delayMs?: number } | { delayMs: number } | RawReply;

/** `index` counts the calls of this kind, from 0: scripts "fail twice, then answer". */
export type ChatHandler = (body: ChatRequestBody, context: { index: number; request: RecordedRequest }) => ChatReply | Promise<ChatReply>;
export type EmbeddingHandler = (inputs: string[], context: { index: number; body: EmbeddingRequestBody; request: RecordedRequest }) => EmbeddingReply | Promise<EmbeddingReply>;

export interface FakeOpenAiServer {
  /** API root, like http://127.0.0.1:PORT/v1 */
  url: string;
  /** Every request, in order of arrival. */
  requests: RecordedRequest[];
  setChatHandler(handler: ChatHandler): void;
  setEmbeddingHandler(handler: EmbeddingHandler): void;
  /** Ends open connections and pending delayed replies too. */
  close(): Promise<void>;
}

export interface FakeOpenAiServerOptions {
  /** The model named in replies when the request names none. @default "fake-model" */
  model?: string;
  /** When given, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  chat?: ChatHandler;
  embeddings?: EmbeddingHandler;
}

export const FAKE_EMBEDDING_DIMENSIONS = 64;

/** The default reply: the last user message echoed, as a JSON object when JSON mode is asked for. */
export function defaultChatReply(body: ChatRequestBody): string {
  const last = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user')?.content ?? '';
  return body.response_format?.type === 'json_object' ? JSON.stringify({ echo: last }) : `Echo: ${last}`;
}

/**
 * A deterministic hashed bag-of-words vector, L2-normalised: lowercased words are hashed
 * (FNV-1a) into `dimensions` buckets, so texts sharing words are close. A text without words
 * is the zero vector.
 */
export function hashedEmbedding(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0x811c9dc5;
    for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    vector[hash % dimensions] = (vector[hash % dimensions] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** An OpenAI-compatible API on 127.0.0.1 (a free port): /v1/chat/completions, /v1/embeddings, /v1/models. */
export async function startFakeOpenAiServer(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
  const model = options.model ?? 'fake-model';
  const requests: RecordedRequest[] = [];
  let chatHandler: ChatHandler = options.chat ?? defaultChatReply;
  let embeddingHandler: EmbeddingHandler = options.embeddings ?? defaultEmbeddings;
  const counts = { chat: 0, embeddings: 0 };
  const state = { closing: false, pending: new Set<() => void>() };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const recorded: RecordedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body: parseOrRaw(text) };
    requests.push(recorded);
    const path = new URL(recorded.path, 'http://localhost').pathname.replace(/\/+$/, '');
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(response, 401, openAiError('Incorrect API key provided.', 'invalid_api_key'));
    }
    if (request.method === 'GET' && path === '/v1/models') return sendJson(response, 200, { object: 'list', data: [{ id: model, object: 'model', owned_by: 'fake' }] });
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/embeddings')) {
      return sendJson(response, 404, openAiError(`Unknown request URL: ${recorded.method} ${recorded.path}.`, 'unknown_url'));
    }
    if (typeof recorded.body !== 'object' || recorded.body === null) return sendJson(response, 400, openAiError('The request body is not a JSON object.', null));

    if (path === '/v1/chat/completions') {
      const body = recorded.body as ChatRequestBody;
      const reply = await chatHandler(body, { index: counts.chat++, request: recorded });
      if (typeof reply === 'object' && reply.delayMs !== undefined && !(await delay(reply.delayMs, response, state))) return;
      if (typeof reply === 'object' && 'status' in reply) return sendRaw(response, reply);
      const content = typeof reply === 'string' ? reply : 'text' in reply ? reply.text : defaultChatReply(body);
      return sendChat(response, body, content, body.model ?? model, state);
    }

    const body = recorded.body as EmbeddingRequestBody;
    const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : undefined;
    if (inputs === undefined) return sendJson(response, 400, openAiError("'input' must be a string or an array of strings.", null));
    const reply = await embeddingHandler(inputs, { index: counts.embeddings++, body, request: recorded });
    if (!Array.isArray(reply) && reply.delayMs !== undefined && !(await delay(reply.delayMs, response, state))) return;
    if (!Array.isArray(reply) && 'status' in reply) return sendRaw(response, reply);
    const vectors = Array.isArray(reply) ? reply : 'vectors' in reply ? reply.vectors : defaultEmbeddings(inputs, { body });
    const words = inputs.reduce((sum, input) => sum + countWords(input), 0);
    sendJson(response, 200, {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding: body.encoding_format === 'base64' ? toBase64(embedding) : embedding })),
      model: body.model ?? model,
      usage: { prompt_tokens: words, total_tokens: words },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else sendJson(response, 500, openAiError(`The fake server's handler failed: ${String(error)}`, null));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setChatHandler: (handler) => void (chatHandler = handler),
    setEmbeddingHandler: (handler) => void (embeddingHandler = handler),
    close: () => {
      state.closing = true;
      for (const finish of [...state.pending]) finish();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface ServerState {
  closing: boolean;
  /** Delayed replies still waiting: close() ends them. */
  pending: Set<() => void>;
}

function defaultEmbeddings(inputs: string[], context: { body: EmbeddingRequestBody }): number[][] {
  return inputs.map((input) => hashedEmbedding(input, context.body.dimensions ?? FAKE_EMBEDDING_DIMENSIONS));
}

/** Waits `ms`; false when the client left or the server closed meanwhile. */
function delay(ms: number, response: ServerResponse, state: ServerState): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      state.pending.delete(finish);
      response.off('close', finish);
      resolve(!state.closing && !response.destroyed);
    };
    const timer = setTimeout(finish, ms);
    state.pending.add(finish);
    response.on('close', finish);
  });
}

async function sendChat(response: ServerResponse, body: ChatRequestBody, content: string, model: string, state: ServerState): Promise<void> {
  const base = { id: 'chatcmpl-fake', created: 1_700_000_000, model };
  const promptTokens = (body.messages ?? []).reduce((sum, message) => sum + countWords(String(message.content)), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: countWords(content), total_tokens: promptTokens + countWords(content) };
  if (body.stream !== true) {
    return sendJson(response, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage });
  }
  const chunk = (delta: object, finishReason: string | null): string =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const events = [
    ': keep-alive\n\n',
    chunk({ role: 'assistant', content: '' }, null),
    ...(content.match(/\S+\s*|\s+/g) ?? []).map((piece) => chunk({ content: piece }, null)),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ];
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of events) {
    // Each event goes out in two writes, split mid-line (even mid-character), as proxies do.
    const bytes = Buffer.from(event);
    const half = Math.ceil(bytes.length / 2);
    for (const part of [bytes.subarray(0, half), bytes.subarray(half)]) {
      if (state.closing || response.destroyed) return;
      response.write(part);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  response.end();
}

function sendRaw(response: ServerResponse, reply: RawReply): void {
  response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body ?? '');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** OpenAI's error shape, which clients parse for the message. */
function openAiError(message: string, code: string | null): unknown {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

/** The base64 of little-endian float32s, as OpenAI sends for encoding_format "base64". */
function toBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
