import { CitedocsError, UsageError } from '../core/errors.js';
import { elapsedMs, logger } from '../core/log.js';
import { EMBEDDER_NAMES_HELP } from '../embed/create-embedder.js';
import type { Embedder } from '../embed/embedder.js';
import type { Store } from '../store/store.js';
import type { EmbedReport } from './embed-pass.js';
import type { EngineContext } from './engine-context.js';
import type { EmbedOptions } from './engine-types.js';
import type { IngestOptions, IngestReport } from './ingest.js';

/** The embedding pass: after each ingest (`finishIngest`), and on its own (`citedocs embed`). */
export function createEmbedding(context: EngineContext) {
  const { config } = context;

  /** The embedder ingest and `embed` write vectors with: the configured one, else the index's own. */
  const ingestEmbedder = async (store: Store | undefined): Promise<Embedder | undefined> => {
    const name = config.embed.embedder ?? (await store?.vectors.info())?.modelId;
    return name === undefined ? undefined : context.embedder(name);
  };

  const runEmbedPass = async (store: Store, embedder: Embedder, options: EmbedOptions): Promise<EmbedReport> => {
    const { embedPending } = await import('./embed-pass.js');
    const started = performance.now();
    const report = await embedPending(store, embedder, {
      concurrency: config.embed.concurrency,
      ...(config.embed.batchSize === undefined ? {} : { batchSize: config.embed.batchSize }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    logger('embed').info({ model: report.model, embedded: report.embedded, reused: report.reused, pending: report.pending, interrupted: report.interrupted, ms: elapsedMs(started) }, 'passages embedded');
    return report;
  };

  /** After an ingest: the embedding pass. */
  const finishIngest = async (report: IngestReport, options: IngestOptions): Promise<IngestReport> => {
    const store = context.existingStore();
    if (store === undefined || report.interrupted || config.embed.embedder === 'none' || !(await store.hasChunks())) return report;
    const embedder = await ingestEmbedder(store);
    if (embedder === undefined) return report;
    try {
      const embedding = await runEmbedPass(store, embedder, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onEmbedProgress === undefined ? {} : { onProgress: options.onEmbedProgress }),
      });
      return { ...report, embedding, interrupted: report.interrupted || embedding.interrupted };
    } catch (error) {
      // The pages are stored: a model that fails costs the vectors only, and `citedocs embed` retries.
      if (!(error instanceof CitedocsError)) throw error;
      return { ...report, errors: [...report.errors, { input: embedder.modelId, message: `Embedding failed: ${error.message} The pages are stored; run \`citedocs embed\` to retry.` }] };
    }
  };

  return {
    finishIngest,
    async embed(options: EmbedOptions = {}): Promise<EmbedReport> {
      const index = context.existingStore();
      if (index === undefined) throw new UsageError(`No index at ${config.dbPath}. Run \`citedocs ingest <url|folder>\` first, or pass --db with the path of an existing index.`);
      if (!(await index.hasChunks())) throw new UsageError(`The index at ${config.dbPath} has no passages to embed. Run \`citedocs ingest <url|folder>\` first.`);
      const embedder = await ingestEmbedder(index);
      if (embedder === undefined) throw new UsageError(`Choose an embedder: citedocs embed --embedder <${EMBEDDER_NAMES_HELP}>.`);
      return await runEmbedPass(index, embedder, options);
    },
  };
}
