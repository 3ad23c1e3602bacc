import pLimit from 'p-limit';
import { type Embedder, EmbedderError } from '../embed/embedder.js';
import { embeddingInput, embeddingInputHash } from '../embed/embedding-input.js';
import type { Store } from '../store/store.js';
import type { VectorRow } from '../store/vectors.js';

export interface EmbedProgress {
  done: number;
  total: number;
}

export interface EmbedReport {
  model: string;
  /** Chunks that got a vector in this run. */
  embedded: number;
  /** Of those, how many came from the cache (same model, same text): no model call. */
  reused: number;
  /** Chunks still without a vector (interrupted runs leave some; the next run finishes them). */
  pending: number;
  /** The model whose vectors were replaced, when the embedder changed. */
  switchedFrom?: string;
  interrupted: boolean;
}

export interface EmbedPassOptions {
  batchSize?: number;
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: (progress: EmbedProgress) => void;
}

/**
 * Gives every chunk without one a vector of `embedder`'s model: cached vectors first, the rest
 * in batches, a few batches in flight. Each batch is stored as it completes, so an interrupted
 * pass keeps its work and the next one continues. A different model replaces the old vectors.
 */
export async function embedPending(store: Store, embedder: Embedder, options: EmbedPassOptions): Promise<EmbedReport> {
  const vectors = store.vectors;
  const current = (await vectors.info())?.modelId;
  const cachedDimension = await vectors.cachedDimension(embedder.modelId);
  let dimension = cachedDimension ?? (await embedder.dimension(options.signal === undefined ? {} : { abortSignal: options.signal }));
  if (current !== undefined && current !== embedder.modelId && cachedDimension === undefined) {
    // Replacing the index's vectors with a model never used here: make sure it works before the old ones go.
    const [probe] = await embedder.embed({ texts: ['citedocs embedding probe'], mode: 'passage', ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
    dimension = probe?.length ?? dimension;
  }
  const { switchedFrom } = await vectors.useModel(embedder.modelId, dimension);
  const total = (await vectors.info())?.pending ?? 0;
  const report: EmbedReport = { model: embedder.modelId, embedded: 0, reused: 0, pending: total, interrupted: false, ...(switchedFrom === undefined ? {} : { switchedFrom }) };
  const batchSize = options.batchSize ?? embedder.maxBatchSize;
  const limit = pLimit(options.concurrency);
  options.onProgress?.({ done: 0, total });

  const aborted = () => options.signal?.aborted === true;
  let failed = false;
  // Each chunk is asked for once: one the store did not take (it was deleted meanwhile) is not asked for again.
  const asked = new Set<string>();
  while (!aborted()) {
    const page = (await vectors.pendingChunks(batchSize * options.concurrency * 4)).filter((chunk) => !asked.has(chunk.id));
    if (page.length === 0) break;
    for (const chunk of page) asked.add(chunk.id);
    const inputs = page.map((chunk) => ({ chunk, input: embeddingInput(chunk) })).map((item) => ({ ...item, hash: embeddingInputHash(item.input) }));
    const cached = await vectors.cachedVectors(embedder.modelId, inputs.map((item) => item.hash));
    const reused: VectorRow[] = [];
    const missing: typeof inputs = [];
    for (const item of inputs) {
      const vector = cached.get(item.hash);
      if (vector === undefined) missing.push(item);
      else reused.push({ chunkId: item.chunk.id, inputHash: item.hash, vector });
    }
    if (reused.length > 0) {
      await vectors.putVectors(embedder.modelId, reused);
      report.reused += reused.length;
      report.embedded += reused.length;
    }
    const batches: (typeof missing)[] = [];
    for (let start = 0; start < missing.length; start += batchSize) batches.push(missing.slice(start, start + batchSize));
    try {
      await Promise.all(
        batches.map((batch) =>
          limit(async () => {
            if (aborted() || failed) return;
            const embedded = await embedder.embed({ texts: batch.map((item) => item.input), mode: 'passage', ...(options.signal === undefined ? {} : { abortSignal: options.signal }) });
            // A short or mis-sized reply must not reach the cache, where it would stay for good.
            if (embedded.length !== batch.length || embedded.some((vector) => vector.length !== dimension)) {
              throw new EmbedderError(
                `${embedder.modelId} returned ${embedded.length} vectors of ${embedded[0]?.length ?? 0} dimensions for ${batch.length} texts; the index holds ${dimension}-dimension vectors. Check the model (and embed.openai.dimensions).`,
              );
            }
            await vectors.putVectors(
              embedder.modelId,
              batch.map((item, index) => ({ chunkId: item.chunk.id, inputHash: item.hash, vector: embedded[index] as Float32Array })),
            );
            report.embedded += batch.length;
            options.onProgress?.({ done: report.embedded, total });
          }),
        ),
      );
    } catch (error) {
      failed = true;
      limit.clearQueue();
      if (aborted()) break;
      throw error;
    }
    options.onProgress?.({ done: report.embedded, total });
  }
  report.pending = (await vectors.info())?.pending ?? 0;
  report.interrupted = aborted() && report.pending > 0;
  return report;
}

