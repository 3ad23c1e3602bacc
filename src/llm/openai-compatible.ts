import { z } from 'zod';
import { describeCause } from '../core/errors.js';
import { type Llm, LlmError, type LlmRequest, type LlmResponse } from './llm.js';
import { type AttemptTimer, parseRetryAfter, raceAbort } from '../core/http/retry.js';
import { type AttemptResult, retryLoop } from '../core/http/retry-loop.js';
import { type AttemptFailure, startAttempt } from '../core/http/send.js';
import { readServerSentEvents } from './sse.js';

export interface OpenAiCompatibleLlmOptions {
  /** API root ending in /v1: https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when given; local servers need none. */
  apiKey?: string;
  /** Limit of one attempt. A stream may run longer: the limit then applies to each wait for data. */
  timeoutMs: number;
  /** Retries after a network error, a timeout, a 429 or a 5xx, with exponential backoff from `retryBaseDelayMs`. */
  retries: number;
  retryBaseDelayMs: number;
  /** A Retry-After longer than this fails the call instead of stalling it. @default 60_000 */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const completionSchema = z.object({
  model: z.string().optional().catch(undefined),
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
  // Token counts are informative: a server that reports them oddly still answered.
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).optional().catch(undefined),
});

const chunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).nullish() })).nullish(),
  error: z.unknown().optional(),
});

interface Retryable {
  reason: string;
  hint: string;
  status?: number;
  cause?: unknown;
}

type Outcome<T> =
  | AttemptResult<T, Retryable>
  /** The server rejected response_format: ask again without it. */
  | { kind: 'without-json' };

type Retry = Extract<Outcome<unknown>, { kind: 'retry' }>;

/**
 * An Llm over POST {baseUrl}/chat/completions, the API of OpenAI, Ollama, vLLM, llama.cpp
 * server and LM Studio. Network errors, timeouts, 429 and 5xx are retried with exponential
 * backoff (honouring Retry-After); other answers fail at once with the server's message.
 */
export function createOpenAiCompatibleLlm(options: OpenAiCompatibleLlmOptions): Llm {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const where = `${url} (model "${options.model}")`;
  const fetchImpl = options.fetch ?? fetch;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  // Once a server has refused response_format, later calls do not offer it again.
  let jsonModeAccepted = true;

  const failure = (reason: string, hint: string, extra: { status?: number; cause?: unknown } = {}): LlmError =>
    new LlmError(`LLM request to ${where} ${reason}.${hint === '' ? '' : ` ${hint}`}`, extra);
  const aborted = (signal: AbortSignal): LlmError => failure('was aborted', '', { cause: signal.reason });
  const malformedHint = 'Check that baseUrl points at an OpenAI-compatible API (it usually ends in /v1).';

  function interrupted(failure: AttemptFailure, signal: AbortSignal | undefined): Retry {
    const { error } = failure;
    if (failure.aborted && signal !== undefined) throw aborted(signal);
    if (failure.timedOut) return { kind: 'retry', failure: { reason: `timed out after ${options.timeoutMs} ms`, hint: 'The model may be loading or slow: raise timeoutMs or use a smaller model.', cause: error } };
    return { kind: 'retry', failure: { reason: `failed: ${failure.reason}`, hint: `Check that the server is running at ${options.baseUrl}.`, cause: error } };
  }

  async function attemptOnce<T>(request: LlmRequest, stream: boolean, json: boolean, read: (response: Response, timer: AttemptTimer) => Promise<T>): Promise<Outcome<T>> {
    const signal = request.abortSignal;
    const attempt = startAttempt({ fetch: fetchImpl, timeoutMs: options.timeoutMs, signal });
    let keepTimer = false;
    try {
      const sent = await attempt.send(url, { method: 'POST', headers: headers(options.apiKey, stream), body: requestBody(options.model, request, stream, json) });
      if (sent.kind === 'failed') return interrupted(sent, signal);
      const { response } = sent;
      const { status } = response;
      if (status === 429 || status >= 500) {
        const detail = serverMessage(await attempt.bounded(response.text()).catch(() => ''));
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        const hint = status === 429 ? 'The server is rate-limiting: wait and try again, or raise the retries.' : 'The server failed: check its logs, try again later or raise the retries.';
        return { kind: 'retry', failure: { reason: `returned HTTP ${status}${detail}`, hint, status }, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      }
      if (!response.ok) {
        const text = await attempt.bounded(response.text()).catch(() => '');
        if (json && (status === 400 || status === 422) && /response_format|json_object/i.test(text)) return { kind: 'without-json' };
        throw failure(`returned HTTP ${status}${serverMessage(text)}`, hintFor(status, options), { status });
      }
      try {
        const value = await attempt.bounded(read(response, attempt.timer));
        keepTimer = stream;
        return { kind: 'done', value };
      } catch (error) {
        if (error instanceof LlmError) throw error;
        return interrupted(attempt.failure(error), signal);
      }
    } finally {
      if (!keepTimer) attempt.clear();
    }
  }

  async function call<T>(request: LlmRequest, stream: boolean, read: (response: Response, timer: AttemptTimer) => Promise<T>): Promise<T> {
    const signal = request.abortSignal;
    if (signal?.aborted) throw aborted(signal);
    const outcome = await retryLoop(
      async (): Promise<AttemptResult<T, Retryable>> => {
        // Loops once at most: only an attempt that offered response_format can answer `without-json`.
        for (;;) {
          const outcome = await attemptOnce(request, stream, request.json === true && jsonModeAccepted, read);
          if (outcome.kind !== 'without-json') return outcome;
          jsonModeAccepted = false;
        }
      },
      {
        retries: options.retries,
        baseDelayMs: options.retryBaseDelayMs,
        maxWaitMs: maxRetryAfterMs,
        longWait: 'give-up',
        ...(signal === undefined ? {} : { signal }),
        ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
      },
    );
    switch (outcome.kind) {
      case 'done':
        return outcome.value;
      case 'aborted':
        throw aborted(signal ?? AbortSignal.abort());
      case 'exhausted':
      case 'wait-too-long': {
        const { reason, hint, status, cause } = outcome.failure;
        const extra = { ...(status === undefined ? {} : { status }), cause };
        if (outcome.kind === 'wait-too-long') {
          throw failure(`${reason}; the server asks to retry after ${Math.round(outcome.waitMs / 1000)} s, longer than the ${Math.round(maxRetryAfterMs / 1000)} s citedocs waits`, 'Try again later.', extra);
        }
        throw failure(`${reason}${outcome.attempts === 1 ? '' : ` (${outcome.attempts} attempts)`}`, hint, extra);
      }
    }
  }

  async function readCompletion(response: Response): Promise<LlmResponse> {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw failure(`returned a reply that is not JSON (${preview(text)})`, malformedHint, { status: response.status, cause: error });
    }
    const parsed = completionSchema.safeParse(body);
    if (!parsed.success) throw failure(`returned a reply without choices[0].message.content (${preview(text)})`, malformedHint, { status: response.status, cause: parsed.error });
    const { model, choices, usage } = parsed.data;
    return {
      text: choices[0]?.message.content ?? '',
      model: model ?? options.model,
      ...(usage === undefined ? {} : { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } }),
    };
  }

  function deltaOf(data: string): string {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      throw failure(`sent a stream event that is not JSON (${preview(data)})`, malformedHint, { cause: error });
    }
    const chunk = chunkSchema.safeParse(value);
    if (!chunk.success) throw failure(`sent a stream event without choices (${preview(data)})`, malformedHint, { cause: chunk.error });
    if (chunk.data.error !== undefined) throw failure(`reported an error while streaming${serverMessage(data)}`, 'Try again, or use complete() to see whether the error persists.');
    return chunk.data.choices?.[0]?.delta?.content ?? '';
  }

  async function* stream(request: LlmRequest): AsyncGenerator<string, void, undefined> {
    const signal = request.abortSignal;
    const { response, timer } = await call(request, true, (response, timer) => Promise.resolve({ response, timer }));
    try {
      // A server that ignores `stream: true` answers with one JSON reply.
      if (/^application\/json\b/i.test(response.headers.get('content-type') ?? '')) {
        yield (await raceAbort(readCompletion(response), timer.signal)).text;
        return;
      }
      if (response.body === null) throw failure('returned an empty stream', malformedHint, { status: response.status });
      for await (const data of readServerSentEvents(response.body, { signal: timer.signal, onRead: () => timer.restart() })) {
        if (data === '[DONE]') return;
        const delta = deltaOf(data);
        if (delta !== '') yield delta;
        if (signal?.aborted) throw aborted(signal);
      }
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (signal?.aborted) throw aborted(signal);
      if (timer.timedOut) throw failure(`stalled: no data for ${options.timeoutMs} ms while streaming`, 'Raise timeoutMs or use a smaller model.', { cause: error });
      throw failure(`broke off while streaming: ${describeCause(error)}`, `Check that the server is running at ${options.baseUrl}.`, { cause: error });
    } finally {
      timer.clear();
    }
  }

  return {
    modelId: `openai-compatible:${options.model}`,
    complete: (request) => call(request, false, readCompletion),
    stream,
  };
}

function requestBody(model: string, request: LlmRequest, stream: boolean, json: boolean): string {
  return JSON.stringify({
    model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(json ? { response_format: { type: 'json_object' } } : {}),
    ...(stream ? { stream: true } : {}),
  });
}

function headers(apiKey: string | undefined, stream: boolean): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    ...(apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
  };
}

function hintFor(status: number, options: OpenAiCompatibleLlmOptions): string {
  if (status === 401 || status === 403) return `Check the API key${options.apiKey === undefined || options.apiKey === '' ? ' (none was given)' : ''}.`;
  if (status === 404) return `Check that baseUrl ends in /v1 and that the server has model "${options.model}" (Ollama: ollama pull ${options.model}).`;
  return 'Check the model name and that the prompt fits its context length.';
}

/** ": message" from an error body (OpenAI, Ollama and FastAPI shapes, or the raw text), or "". */
function serverMessage(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as unknown;
    const error = field(body, 'error');
    const candidate = [field(error, 'message'), error, field(body, 'message'), field(body, 'detail')].find((value) => typeof value === 'string');
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // Not JSON: the raw text is the message.
  }
  // The message ends the sentence it is put into, so its own full stop goes.
  const flat = message.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  return flat === '' ? '' : `: ${flat.length > 300 ? `${flat.slice(0, 300)}…` : flat}`;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'an empty body';
  return `"${flat.length > 120 ? `${flat.slice(0, 120)}…` : flat}"`;
}
