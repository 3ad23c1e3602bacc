import { z } from 'zod';
import { abortableSleep, backoffMs, parseRetryAfter } from '../../core/retry.js';
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
  const sleep = options.sleep ?? abortableSleep;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const preset = presetFor(options.model);
  const prefix = { query: options.queryPrefix ?? preset.queryPrefix, passage: options.passagePrefix ?? preset.passagePrefix };
  let dimension = options.dimensions;

  const post = async (input: string[], abortSignal: AbortSignal | undefined): Promise<Float32Array[]> => {
    const body = JSON.stringify({ model: options.model, input, ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }) });
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) };
    for (let attempt = 0; ; attempt += 1) {
      abortSignal?.throwIfAborted();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = abortSignal === undefined ? timeout : AbortSignal.any([abortSignal, timeout]);
      let response: Response;
      try {
        response = await fetchImpl(url, { method: 'POST', headers, body, signal });
      } catch (error) {
        abortSignal?.throwIfAborted();
        const reason = timeout.aborted ? `no reply within ${options.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
        if (attempt < options.retries) {
          await sleep(backoffMs(options.retryBaseDelayMs, attempt), abortSignal);
          continue;
        }
        throw new EmbedderError(`The embeddings server at ${url} failed: ${reason}. Check embed.openai.baseUrl and that the server runs.`, { cause: error });
      }
      const text = await response.text();
      if ((response.status === 429 || response.status >= 500) && attempt < options.retries) {
        const wait = parseRetryAfter(response.headers.get('retry-after')) ?? backoffMs(options.retryBaseDelayMs, attempt);
        // A server that asks for more than a minute is not coming back soon: fail now, with its answer.
        if (wait <= MAX_RETRY_AFTER_MS) {
          await sleep(wait, abortSignal);
          continue;
        }
      }
      if (!response.ok) {
        throw new EmbedderError(`The embeddings server at ${url} answered HTTP ${response.status} for model ${options.model}: ${text.slice(0, 300)}`);
      }
      let parsed: z.infer<typeof replySchema>;
      try {
        parsed = replySchema.parse(JSON.parse(text));
      } catch (error) {
        throw new EmbedderError(`The embeddings server at ${url} sent a reply that is not an embeddings list: ${text.slice(0, 200)}`, { cause: error });
      }
      const vectors: Float32Array[] = new Array<Float32Array>(input.length);
      for (const item of parsed.data) if (item.index < input.length) vectors[item.index] = normalise(Float32Array.from(item.embedding));
      if (vectors.some((vector) => vector === undefined) || parsed.data.length !== input.length) {
        throw new EmbedderError(`The embeddings server at ${url} returned ${parsed.data.length} vectors for ${input.length} texts.`);
      }
      return vectors;
    }
  };

  return {
    modelId: `openai:${options.model}${options.dimensions === undefined ? '' : `@${options.dimensions}`}`,
    maxBatchSize: 64,
    async dimension() {
      dimension ??= (await post(['dimension probe'], undefined))[0]?.length ?? 0;
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
