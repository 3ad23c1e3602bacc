import { existsSync } from 'node:fs';
import type { CitedocsConfig } from '../core/config.js';
import type { Tokenizer } from '../core/types.js';
import type { EmbedderDependencies } from '../embed/create-embedder.js';
import type { Embedder } from '../embed/embedder.js';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible.js';
import type { Llm } from '../llm/llm.js';
import { createStoreIfMissing, openStoreHandle, storeExists } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { loadTokenizer } from '../tokenize/tokenizer.js';
import type { EngineDependencies } from './engine-types.js';
import { embedderRegistry } from './retrieval.js';
import { meterEmbedder, meterLlm, requestMeter } from './usage.js';

/**
 * What the engine's parts (ingesting, searching, asking) share: the resolved configuration, the
 * one store handle, and the models, each built on first use and reused for the engine's life.
 */
export interface EngineContext {
  readonly config: CitedocsConfig;
  readonly dependencies: EngineDependencies;
  /** The store, opened on first use. */
  store(): Store;
  /** The store when the index exists already (what a re-crawl knows), without creating it. */
  existingStore(): Store | undefined;
  /** The store, its index created first when missing: for writers that read before their first write. */
  createdStore(): Promise<Store>;
  /** The store handle if this engine opened one (undefined otherwise); opens nothing. */
  openedStore(): Store | undefined;
  tokenizer(): Promise<Tokenizer>;
  /** The embedder of a model id, built once; its calls are not metered (ingest, `embed`). */
  embedder(name: string): Embedder | undefined;
  /** A query-time embedder, its calls counted on the meter of the request that makes them. */
  queryEmbedder(name: string): Embedder | undefined;
  /** The configured LLM, its calls counted on the meter of the request that makes them. */
  llm(): Llm | undefined;
  /** The configured LLM, unmetered: for a caller that binds it to a meter of its own. */
  rawLlm(): Llm | undefined;
  /** The engine's clock: the injected one, else the system's. */
  now(): Date;
  /** Closes the store handle and the embedders; the next use opens them again. */
  close(): Promise<void>;
}

export function createEngineContext(config: CitedocsConfig, dependencies: EngineDependencies): EngineContext {
  let tokenizer: Promise<Tokenizer> | undefined;
  // One store handle for the engine's life: searches and writes share it, and writes never close
  // it, so a search running while an ingest writes keeps going (each read sees a committed state).
  let handle: Store | undefined;
  const store = (): Store => (handle ??= openStoreHandle(config.dbPath));
  const tokenizerOf = () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding));
  const embedderDependencies: EmbedderDependencies = {
    ...(dependencies.env === undefined ? {} : { env: dependencies.env }),
  };
  const embedders = embedderRegistry(config, embedderDependencies, dependencies.embedder);
  const meteredEmbedders = new Map<Embedder, Embedder>();
  let llm: Llm | undefined | null = dependencies.llm ?? null;
  let metered: Llm | undefined;
  const rawLlm = (): Llm | undefined => {
    if (llm === null) {
      const { model, baseUrl, apiKeyEnv, timeoutMs, retries, retryBaseDelayMs } = config.llm;
      const apiKey = dependencies.env?.[apiKeyEnv];
      llm =
        model === undefined
          ? undefined
          : createOpenAiCompatibleLlm({ baseUrl, model, timeoutMs, retries, retryBaseDelayMs, ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }) });
    }
    return llm;
  };
  return {
    config,
    dependencies,
    store,
    existingStore: () => (handle !== undefined || storeExists(config.dbPath, existsSync) ? store() : undefined),
    async createdStore() {
      await createStoreIfMissing(config.dbPath, existsSync);
      return store();
    },
    openedStore: () => handle,
    tokenizer: tokenizerOf,
    embedder: (name) => embedders.get(name),
    queryEmbedder(name) {
      const embedder = embedders.get(name);
      if (embedder === undefined) return undefined;
      let wrapped = meteredEmbedders.get(embedder);
      if (wrapped === undefined) meteredEmbedders.set(embedder, (wrapped = meterEmbedder(embedder, requestMeter, tokenizerOf)));
      return wrapped;
    },
    llm() {
      const model = rawLlm();
      if (model !== undefined && metered === undefined) metered = meterLlm(model, requestMeter, tokenizerOf);
      return metered;
    },
    rawLlm,
    now: () => (dependencies.now ?? (() => new Date()))(),
    async close() {
      const open = handle;
      handle = undefined;
      await open?.close();
      await embedders.close();
    },
  };
}
