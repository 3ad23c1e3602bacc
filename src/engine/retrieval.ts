import type { CitedocsConfig } from '../core/config.js';
import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import { UsageError } from '../core/errors.js';
import type { Candidate, TextIndex } from '../core/types.js';
import { assertEmbedderName, createEmbedder, type EmbedderDependencies } from '../embed/create-embedder.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm } from '../llm/llm.js';
import { retrieveHybrid } from '../retrieve/hybrid.js';
import type { Store } from '../store/store.js';

export interface RetrievalOutcome {
  candidates: Candidate[];
  /** The embedder the dense lists used; undefined: BM25 only. */
  embedder?: string;
  lists: string[];
  diagnostics: Diagnostic[];
}

export interface RetrievalWiring {
  config: CitedocsConfig;
  store: () => Store;
  /** The embedder for a model id (built once, reused across queries). */
  embedderFor: (name: string) => Embedder | undefined;
  llm: () => Llm | undefined;
}

/**
 * Which embedder a search uses: none when configured so; the configured one, which must be the
 * one the index was embedded with; otherwise the index's own. Vectors of two models never mix.
 */
export async function chooseSearchEmbedder(config: CitedocsConfig, store: Store, modelIdOf: (name: string) => string | undefined): Promise<{ name?: string; warning?: Diagnostic }> {
  const named = config.embed.embedder;
  if (named !== undefined) assertEmbedderName(named);
  if (named === 'none') return {};
  const info = await store.vectors.info();
  // The stored id is canonical (`openai:m@256` when dimensions are configured): compare with it.
  const requested = named === undefined ? undefined : (modelIdOf(named) ?? named);
  if (requested !== undefined) {
    if (info === undefined || info.embedded === 0) {
      throw new UsageError(`The index at ${config.dbPath} has no vectors yet. Run \`citedocs embed --embedder ${requested}\` (or ingest with --embedder ${requested}) first, or search with --embedder none.`);
    }
    if (info.modelId !== requested) {
      throw new UsageError(
        `The index at ${config.dbPath} was embedded with ${info.modelId}, not ${requested}. Search with --embedder ${info.modelId}, or re-embed it with \`citedocs embed --embedder ${requested}\`.`,
      );
    }
  }
  if (info === undefined) return {};
  if (info.embedded === 0) return info.pending > 0 ? { warning: diagnostic('embed.no-vectors-yet', `The index is set up for ${info.modelId} vectors but has none yet, so the search used BM25 only; run \`citedocs embed\`.`) } : {};
  const warning = info.pending > 0 ? diagnostic('embed.vectors-pending', `${info.pending} of ${info.pending + info.embedded} passages have no vector yet; run \`citedocs embed\` to finish embedding.`) : undefined;
  return { name: info.modelId, ...(warning === undefined ? {} : { warning }) };
}

/**
 * `sourceIds` limits both retrievers to the chunks of those sources (library versions) inside
 * their search, so a scoped query still gets its full top-k from them.
 */
export async function retrieve(question: string, topK: number, wiring: RetrievalWiring, abortSignal?: AbortSignal, sourceIds?: readonly number[]): Promise<RetrievalOutcome> {
  const { config } = wiring;
  const store = wiring.store();
  const index: TextIndex = sourceIds === undefined ? store : { searchText: (query) => store.searchText({ ...query, sourceIds }), termStats: (words) => store.termStats(words, sourceIds) };
  const choice = await chooseSearchEmbedder(config, store, (name) => wiring.embedderFor(name)?.modelId);
  const embedder = choice.name === undefined ? undefined : wiring.embedderFor(choice.name);
  const retrieveConfig = config.retrieve;
  const result = await retrieveHybrid(
    question,
    {
      index,
      ...(embedder === undefined ? {} : { embedder, searchVectors: (vector, options) => store.vectors.searchVectors(vector, sourceIds === undefined ? options : { ...options, sourceIds }) }),
      ...(wiring.llm() === undefined ? {} : { llm: wiring.llm() as Llm }),
    },
    {
      topK,
      ranking: { fieldWeights: retrieveConfig.fieldWeights, ...retrieveConfig.lexical },
      fusion: {
        method: retrieveConfig.fusion.method,
        rrfK: retrieveConfig.fusion.rrfK,
        retrieverWeights: { bm25: retrieveConfig.fusion.bm25Weight, dense: retrieveConfig.fusion.denseWeight },
      },
      techniques: retrieveConfig.techniques,
      followUp: retrieveConfig.followUp,
      guides: retrieveConfig.guides,
      dense: retrieveConfig.dense,
      ...(abortSignal === undefined ? {} : { abortSignal }),
    },
  );
  return {
    candidates: result.candidates,
    ...(embedder === undefined ? {} : { embedder: embedder.modelId }),
    lists: result.lists,
    diagnostics: [...(choice.warning === undefined ? [] : [choice.warning]), ...result.diagnostics],
  };
}

/** Embedders by name, each built once and closed with the engine. */
export function embedderRegistry(config: CitedocsConfig, dependencies: EmbedderDependencies, injected?: Embedder) {
  const built = new Map<string, Embedder | undefined>();
  return {
    get(name: string): Embedder | undefined {
      if (injected !== undefined && injected.modelId === name) return injected;
      if (!built.has(name)) built.set(name, createEmbedder(name, config.embed, dependencies));
      return built.get(name);
    },
    async close() {
      await Promise.all([...built.values()].map((embedder) => embedder?.close()));
      built.clear();
    },
  };
}
