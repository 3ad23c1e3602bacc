import { availableParallelism } from 'node:os';
import type { CitedocsConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import type { Embedder } from './embedder.js';
import { createOpenAiEmbedder } from './providers/openai.js';
import { createTransformersEmbedder } from './providers/transformers.js';
import { createUseEmbedder, USE_MODEL_ID } from './providers/use.js';
import { createWorkerPoolEmbedder } from './worker-pool.js';
import { assertUseInstalled } from './optional-packages.js';

export type EmbedConfig = CitedocsConfig['embed'];

export interface EmbedderDependencies {
  /** Where API keys are read from (the CLI passes process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

export const EMBEDDER_NAMES_HELP = 'none, use, transformers:<model id or folder>, openai:<model>';

/** Refuses a name that selects no embedder, before any work is done with it. */
export function assertEmbedderName(name: string): void {
  if (!/^(none|use|transformers:.+|openai:.+)$/.test(name.trim())) throw new UsageError(`Unknown embedder "${name}". Use one of: ${EMBEDDER_NAMES_HELP}.`);
}

/** Refuses, before any work, a name that selects no embedder or one whose optional packages are not installed. */
export function assertEmbedderUsable(name: string): void {
  assertEmbedderName(name);
  if (name.trim() === USE_MODEL_ID) assertUseInstalled();
}

/**
 * Builds the embedder a name selects: `none` (undefined: BM25 only), `use` (the Universal Sentence
 * Encoder shipped in an npm package), `transformers:<model id or folder>`, `openai:<model>`.
 */
export function createEmbedder(name: string, config: EmbedConfig, dependencies: EmbedderDependencies = {}): Embedder | undefined {
  const [provider = '', ...rest] = name.trim().split(':');
  const model = rest.join(':').trim();
  const prefixes = {
    ...(config.queryPrefix === undefined ? {} : { queryPrefix: config.queryPrefix }),
    ...(config.passagePrefix === undefined ? {} : { passagePrefix: config.passagePrefix }),
  };
  switch (provider) {
    case 'none':
      return undefined;
    case USE_MODEL_ID:
      assertUseInstalled();
      return splitByMode(
        createUseEmbedder(),
        createWorkerPoolEmbedder({ provider: 'use' }, { modelId: USE_MODEL_ID, maxBatchSize: 16, dimension: () => Promise.resolve(512) }, workerCount(config)),
      );
    case 'transformers': {
      if (model === '') break;
      // onnxruntime spreads one batch over every core itself: one model in this thread is enough.
      return createTransformersEmbedder({
        model,
        allowRemote: config.transformers.allowRemote,
        ...(config.transformers.cacheDir === undefined ? {} : { cacheDir: config.transformers.cacheDir }),
        ...(config.transformers.dtype === undefined ? {} : { dtype: config.transformers.dtype }),
        ...prefixes,
      });
    }
    case 'openai': {
      if (model === '') break;
      // `openai:text-embedding-3-small@256`: a model asked for shortened vectors (its stored id says so).
      const [, bare = model, size] = /^(.*?)(?:@(\d+))?$/.exec(model) ?? [];
      const dimensions = size === undefined ? config.openai.dimensions : Number(size);
      const apiKey = dependencies.env?.[config.openai.apiKeyEnv];
      return createOpenAiEmbedder({
        baseUrl: config.openai.baseUrl,
        model: bare,
        timeoutMs: config.openai.timeoutMs,
        retries: config.openai.retries,
        retryBaseDelayMs: config.openai.retryBaseDelayMs,
        ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
        ...(dimensions === undefined ? {} : { dimensions }),
        ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
        ...prefixes,
      });
    }
    default:
      break;
  }
  throw new UsageError(`Unknown embedder "${name}". Use one of: ${EMBEDDER_NAMES_HELP}.`);
}

/**
 * Queries in this thread (one short text: starting a worker would cost more than embedding it),
 * passages in the worker pool (thousands of texts: every core helps). Each loads the model on first use.
 */
function splitByMode(queries: Embedder, passages: Embedder): Embedder {
  return {
    modelId: passages.modelId,
    maxBatchSize: passages.maxBatchSize,
    dimension: (request) => passages.dimension(request),
    embed: (request) => (request.mode === 'query' ? queries : passages).embed(request),
    close: async () => {
      await Promise.all([queries.close(), passages.close()]);
    },
  };
}

function workerCount(config: EmbedConfig): number {
  return config.workers ?? Math.max(1, Math.min(4, availableParallelism()));
}
