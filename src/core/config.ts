import { z } from 'zod';
import { ConfigError } from './errors.js';
import { crawlConfigSchema } from './crawl-config.js';
import { retrieveConfigSchema } from './retrieve-config.js';
import { webConfigSchema } from './web-config.js';

/** The one source of truth for every knob and its default (its larger sections in crawl-config.ts, retrieve-config.ts and web-config.ts). Units are in the names. */
export const configSchema = z.strictObject({
  /** Path of the SQLite index file. */
  dbPath: z.string().min(1).default('./citedocs.db'),
  tokenizer: z
    .strictObject({
      /** tiktoken encoding of the target LLM: o200k_base (GPT-4o and later), cl100k_base (GPT-4, GPT-3.5). */
      encoding: z.enum(['o200k_base', 'cl100k_base']).default('o200k_base'),
    })
    .prefault({}),
  crawl: crawlConfigSchema,
  local: z
    .strictObject({
      /**
       * How a Markdown file's path becomes its published URL: `clean` → base/a/b,
       * `slash` → base/a/b/, `html` → base/a/b.html. `a/b.md`, `a/b.mdx` and `a/b/index.md`
       * all map to the same URL.
       */
      urlStyle: z.enum(['clean', 'slash', 'html']).default('clean'),
    })
    .prefault({}),
  chunk: z
    .strictObject({
      /** Target chunk size in tokens; a table row, or a code block up to four times this, larger than this stays whole (longer listings split between lines). */
      maxTokens: z.number().int().min(32).default(400),
      /** Tokens of whole sentences or blocks repeated from the previous chunk when a section splits. */
      overlapTokens: z.number().int().min(0).default(0),
    })
    .prefault({}),
  embed: z
    .strictObject({
      /**
       * The embedder for dense retrieval: none, use (the Universal Sentence Encoder shipped in
       * an npm package), transformers:<model id or folder>, openai:<model>. Unset: ingest embeds
       * nothing and search uses the embedder the index was built with, if any.
       */
      embedder: z.string().min(1).optional(),
      /** Texts per embedding call; the provider's own size when unset. */
      batchSize: z.number().int().min(1).max(2048).optional(),
      /** Worker threads for CPU-bound local models (use); one per core, at most 4, when unset. */
      workers: z.number().int().min(1).max(16).optional(),
      /** Embedding calls in flight at once. */
      concurrency: z.number().int().min(1).max(32).default(2),
      /** Overrides the model's own query/passage prefixes (bge's instruction, e5's "query: "). */
      queryPrefix: z.string().optional(),
      passagePrefix: z.string().optional(),
      openai: z
        .strictObject({
          /** Up to /v1: OpenAI, or a local Ollama (http://127.0.0.1:11434/v1), vLLM, TEI, LM Studio. */
          baseUrl: z.string().url().default('https://api.openai.com/v1'),
          /** The environment variable holding the API key (none is sent when it is unset). */
          apiKeyEnv: z.string().min(1).default('OPENAI_API_KEY'),
          dimensions: z.number().int().positive().optional(),
          timeoutMs: z.number().int().positive().default(60_000),
          retries: z.number().int().min(0).max(10).default(3),
          retryBaseDelayMs: z.number().int().min(0).default(500),
        })
        .prefault({}),
      transformers: z
        .strictObject({
          cacheDir: z.string().min(1).optional(),
          /** Download a model missing from the cache. Off: citedocs never downloads unless told to. */
          allowRemote: z.boolean().default(false),
          dtype: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4']).optional(),
        })
        .prefault({}),
    })
    .prefault({}),
  retrieve: retrieveConfigSchema,
  llm: z
    .strictObject({
      /** An OpenAI-compatible chat model (OpenAI, Ollama, vLLM, llama.cpp, LM Studio); none when unset. */
      model: z.string().min(1).optional(),
      baseUrl: z.string().url().default('https://api.openai.com/v1'),
      /** The environment variable holding the API key (none is sent when it is unset). */
      apiKeyEnv: z.string().min(1).default('OPENAI_API_KEY'),
      timeoutMs: z.number().int().positive().default(60_000),
      retries: z.number().int().min(0).max(10).default(2),
      retryBaseDelayMs: z.number().int().min(0).default(500),
    })
    .prefault({}),
  rerank: z
    .strictObject({
      /**
       * How candidates are re-ordered before selection: auto (llm-pointwise when llm.model is
       * set, otherwise fused), fused (retrieval order), llm-pointwise, llm-listwise, cross-encoder.
       */
      method: z.enum(['auto', 'fused', 'llm-pointwise', 'llm-listwise', 'cross-encoder']).default('auto'),
      /** The best candidates by retrieval score that the reranker judges; the rest follow. */
      candidates: z.number().int().min(1).max(200).default(20),
      /** Fewer candidates than this are kept in retrieval order without asking the reranker. */
      minCandidatesForAssessment: z.number().int().min(1).default(4),
      /** Final score = w × retrieval + (1 − w) × reranker, e.g. 0.3; unset: the reranker's order. */
      retrievalWeight: z.number().min(0).max(1).optional(),
      /** The best retrieval hits that may drop at most `maxDemotion` places (a reranker cannot bury them). */
      protectTopK: z.number().int().min(0).default(1),
      maxDemotion: z.number().int().min(0).default(2),
      /** A reranker score at or above this counts as relevant; when none is, the top `topOnNoneRelevant` by retrieval score are kept. */
      relevanceThreshold: z.number().min(0).max(1).default(0.5),
      topOnNoneRelevant: z.number().int().min(1).default(3),
      /** A Transformers.js cross-encoder (e.g. Xenova/ms-marco-MiniLM-L-6-v2), for method cross-encoder. */
      crossEncoderModel: z.string().min(1).optional(),
      /** Judgements remembered (by model and prompt) so the same question never costs twice. */
      cacheEntries: z.number().int().min(0).default(1000),
      /** Method llm-pointwise: passages judged in one request, requests in flight at once, characters of each passage shown. */
      pointwise: z
        .strictObject({
          batchSize: z.number().int().min(1).default(8),
          concurrency: z.number().int().min(1).default(2),
          snippetChars: z.number().int().min(1).default(800),
        })
        .prefault({}),
      /** Method llm-listwise: characters of each listed passage shown to the model. */
      listwise: z.strictObject({ snippetChars: z.number().int().min(1).default(300) }).prefault({}),
      /** Method cross-encoder: (query, passage) pairs scored in one model run; tokens of one pair (longer ones are truncated). */
      crossEncoder: z.strictObject({ batchSize: z.number().int().min(1).default(16), maxTokens: z.number().int().min(8).default(512) }).prefault({}),
    })
    .prefault({}),
  select: z
    .strictObject({
      /** Passages returned at most. */
      finalK: z.number().int().positive().default(8),
      /** Token budget of all selected passages together, counted with the target tokenizer. */
      maxTotalTokens: z.number().int().positive().default(4000),
      /** Distinct pages the passages may come from; unset: no cap. */
      maxSelectedPages: z.number().int().positive().optional(),
      /** Candidates scoring below this are dropped; unset: none is. */
      scoreThreshold: z.number().optional(),
      /** A passage this similar to a kept one (vector cosine, or word overlap without vectors) is skipped. */
      similarityThreshold: z.number().min(0).max(1).default(0.9),
      /** Host → score multiplier, e.g. {"docs.python.org": 1.3}; subdomains match too. */
      domainWeights: z.record(z.string().min(1), z.number().min(0)).default({}),
      /** Newer pages (Last-Modified) score up to 1 + weight times more; 0 turns it off. */
      freshness: z.strictObject({ weight: z.number().min(0).default(0), halfLifeDays: z.number().positive().default(365) }).prefault({}),
    })
    .prefault({}),
  answer: z
    .strictObject({
      /** Sentences quoted at most in an extractive answer. */
      maxSentences: z.number().int().positive().default(5),
      /** auto: written by the LLM when llm.model is set, else extractive (quoted sentences). */
      mode: z.enum(['auto', 'llm', 'extractive']).default('auto'),
      /** Tokens the model may write. */
      maxAnswerTokens: z.number().int().positive().default(800),
      /** Replaces the system prompt of LLM answers. */
      systemPrompt: z.string().min(1).optional(),
      /** Replaces the user message of LLM answers: {{sources}} and {{question}} are filled in. */
      userTemplate: z.string().includes('{{sources}}').includes('{{question}}').optional(),
    })
    .prefault({}),
  web: webConfigSchema,
});

export type CitedocsConfig = z.output<typeof configSchema>;
export type CitedocsConfigInput = z.input<typeof configSchema>;

/** The defaults, as one object (what `citedocs` uses with no config file). */
export const DEFAULT_CONFIG: CitedocsConfig = configSchema.parse({});

export function parseConfig(input: unknown, origin = 'configuration'): CitedocsConfig {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at "${issue.path.join('.')}"`;
    const unknown = issue?.code === 'unrecognized_keys' ? ' (the known keys are listed in docs/configuration.md)' : '';
    throw new ConfigError(`Invalid ${origin}${where}: ${issue?.message ?? result.error.message}${unknown}. Fix the value or remove it to use the default.`);
  }
  return result.data;
}
