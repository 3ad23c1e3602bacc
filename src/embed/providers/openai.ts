import { z } from 'zod';
import { parseRetryAfter } from '../../core/http/retry.js';
import { type AttemptResult, retryLoop } from '../../core/http/retry-loop.js';
import { startAttempt } from '../../core/http/send.js';
import { type Embedder, EmbedderError, normalise } from '../embedder.js';
import { presetFor } from '../model-presets.js';

export interface OpenAiEmbedderOptions {
  /** Up to and including `/v1`: https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), a TEI or vLLM server. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Asks models that can shorten their vectors (text-embedding-3-*) for this many dimensions. */
  dimensions?: number;
  timeoutMs: number;
  retries: number;
  retryBaseDelayMs: number;
  queryPrefix?: string;
  passagePrefix?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const MAX_RETRY_AFTER_MS = 60_000;

const replySchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/** `POST {baseUrl}/embeddings`, the API OpenAI, Ollama, vLLM, TEI and LM Studio share. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const fetchImpl = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const preset = presetFor(options.model);
  const prefix = { query: options.queryPrefix ?? preset.queryPrefix, passage: options.passagePrefix ?? preset.passagePrefix };
  let dimension = options.dimensions;

  /** One POST: the vectors, an error worth retrying (network, timeout, 429, 5xx), or a thrown error. */
  const postOnce = async (body: string, count: number, abortSignal: AbortSignal | undefined): Promise<AttemptResult<Float32Array[], EmbedderError>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) };
    const attempt = startAttempt({ fetch: fetchImpl, timeoutMs: options.timeoutMs, signal: abortSignal });
    try {
      const sent = await attempt.send(url, { method: 'POST', headers, body });
      if (sent.kind === 'failed') {
        abortSignal?.throwIfAborted();
        const reason = sent.timedOut ? `no reply within ${options.timeoutMs} ms` : sent.error instanceof Error ? sent.error.message : String(sent.error);
        return { kind: 'retry', failure: new EmbedderError(`The embeddings server at ${url} failed: ${reason}. Check embed.openai.baseUrl and that the server runs.`, { cause: sent.error }) };
      }
      const { response } = sent;
      const text = await attempt.bounded(response.text()).catch((error: unknown) => {
        abortSignal?.throwIfAborted();
        throw new EmbedderError(`The embeddings server at ${url} broke off its reply: ${attempt.failure(error).reason}`, { cause: error });
      });
      if (!response.ok) {
        const failure = new EmbedderError(`The embeddings server at ${url} answered HTTP ${response.status} for model ${options.model}: ${text.slice(0, 300)}`);
        if (response.status !== 429 && response.status < 500) throw failure;
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        return { kind: 'retry', failure, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      }
      return { kind: 'done', value: parseVectors(text, count) };
    } finally {
      attempt.clear();
    }
  };

  const parseVectors = (text: string, count: number): Float32Array[] => {
    let parsed: z.infer<typeof replySchema>;
    try {
      parsed = replySchema.parse(JSON.parse(text));
    } catch (error) {
      throw new EmbedderError(`The embeddings server at ${url} sent a reply that is not an embeddings list: ${text.slice(0, 200)}`, { cause: error });
    }
    const vectors: Float32Array[] = new Array<Float32Array>(count);
    for (const item of parsed.data) if (item.index < count) vectors[item.index] = normalise(Float32Array.from(item.embedding));
    if (vectors.some((vector) => vector === undefined) || parsed.data.length !== count) {
      throw new EmbedderError(`The embeddings server at ${url} returned ${parsed.data.length} vectors for ${count} texts.`);
    }
    return vectors;
  };

  const post = async (input: string[], abortSignal: AbortSignal | undefined): Promise<Float32Array[]> => {
    const body = JSON.stringify({ model: options.model, input, ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }) });
    abortSignal?.throwIfAborted();
    const outcome = await retryLoop(() => postOnce(body, input.length, abortSignal), {
      retries: options.retries,
      baseDelayMs: options.retryBaseDelayMs,
      // A server that asks for more than a minute is not coming back soon: fail now, with its answer.
      maxWaitMs: MAX_RETRY_AFTER_MS,
      longWait: 'give-up',
      ...(abortSignal === undefined ? {} : { signal: abortSignal }),
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    });
    if (outcome.kind === 'done') return outcome.value;
    if (outcome.kind === 'aborted') throw abortSignal?.reason;
    throw outcome.failure;
  };

  return {
    modelId: `openai:${options.model}${options.dimensions === undefined ? '' : `@${options.dimensions}`}`,
    maxBatchSize: 64,
    async dimension(request) {
      dimension ??= (await post(['dimension probe'], request?.abortSignal))[0]?.length ?? 0;
      return dimension;
    },
    async embed({ texts, mode, abortSignal }) {
      if (texts.length === 0) return [];
      const vectors = await post(
        texts.map((text) => prefix[mode] + text),
        abortSignal,
      );
      dimension ??= vectors[0]?.length;
      return vectors;
    },
    close: () => Promise.resolve(),
  };
}
