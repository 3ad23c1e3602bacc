import pLimit from 'p-limit';
import type { Chunk } from '../core/types.js';
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
  const dimension = await modelDimension(vectors, embedder, options.signal);
  const { switchedFrom } = await vectors.useModel(embedder.modelId, dimension);
  const total = (await vectors.info())?.pending ?? 0;
  const report: EmbedReport = { model: embedder.modelId, embedded: 0, reused: 0, pending: total, interrupted: false, ...(switchedFrom === undefined ? {} : { switchedFrom }) };
  const batchSize = options.batchSize ?? embedder.maxBatchSize;
  const limit = pLimit(options.concurrency);
  options.onProgress?.({ done: 0, total });

  const aborted = () => options.signal?.aborted === true;
  let failed = false;
  const embedBatch = async (batch: readonly PendingInput[]) => {
    if (aborted() || failed) return;
    await vectors.putVectors(embedder.modelId, await embedChecked(embedder, batch, dimension, options.signal));
    report.embedded += batch.length;
    options.onProgress?.({ done: report.embedded, total });
  };
  // Each chunk is asked for once: one the store did not take (it was deleted meanwhile) is not asked for again.
  const asked = new Set<string>();
  while (!aborted()) {
    const page = (await vectors.pendingChunks(batchSize * options.concurrency * 4)).filter((chunk) => !asked.has(chunk.id));
    if (page.length === 0) break;
    for (const chunk of page) asked.add(chunk.id);
    const missing = await storeCachedVectors(vectors, embedder.modelId, page, report);
    const batches: PendingInput[][] = [];
    for (let start = 0; start < missing.length; start += batchSize) batches.push(missing.slice(start, start + batchSize));
    try {
      await Promise.all(batches.map((batch) => limit(() => embedBatch(batch))));
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

type Vectors = Store['vectors'];

/** A chunk waiting for a vector: the text the model embeds, and its hash (the cache key). */
interface PendingInput {
  chunk: Chunk;
  input: string;
  hash: string;
}

/**
 * The dimension of the model's vectors: cached in the index, else the embedder's own. Replacing
 * the index's vectors with a model never used here embeds a probe first: it must work before the
 * old vectors go.
 */
async function modelDimension(vectors: Vectors, embedder: Embedder, signal: AbortSignal | undefined): Promise<number> {
  const current = (await vectors.info())?.modelId;
  const cachedDimension = await vectors.cachedDimension(embedder.modelId);
  const dimension = cachedDimension ?? (await embedder.dimension(signal === undefined ? {} : { abortSignal: signal }));
  if (current === undefined || current === embedder.modelId || cachedDimension !== undefined) return dimension;
  const [probe] = await embedder.embed({ texts: ['citedocs embedding probe'], mode: 'passage', ...(signal === undefined ? {} : { abortSignal: signal }) });
  return probe?.length ?? dimension;
}

/** Stores the vectors the cache holds for these chunks (same model, same text), counting them; returns the chunks still to embed. */
async function storeCachedVectors(vectors: Vectors, modelId: string, page: readonly Chunk[], report: EmbedReport): Promise<PendingInput[]> {
  const inputs = page.map((chunk) => ({ chunk, input: embeddingInput(chunk) })).map((item) => ({ ...item, hash: embeddingInputHash(item.input) }));
  const cached = await vectors.cachedVectors(modelId, inputs.map((item) => item.hash));
  const reused: VectorRow[] = [];
  const missing: PendingInput[] = [];
  for (const item of inputs) {
    const vector = cached.get(item.hash);
    if (vector === undefined) missing.push(item);
    else reused.push({ chunkId: item.chunk.id, inputHash: item.hash, vector });
  }
  if (reused.length > 0) {
    await vectors.putVectors(modelId, reused);
    report.reused += reused.length;
    report.embedded += reused.length;
  }
  return missing;
}

/** One batch embedded, as rows to store; a short or mis-sized reply is an error, so it never reaches the cache, where it would stay for good. */
async function embedChecked(embedder: Embedder, batch: readonly PendingInput[], dimension: number, signal: AbortSignal | undefined): Promise<VectorRow[]> {
  const embedded = await embedder.embed({ texts: batch.map((item) => item.input), mode: 'passage', ...(signal === undefined ? {} : { abortSignal: signal }) });
  if (embedded.length !== batch.length || embedded.some((vector) => vector.length !== dimension)) {
    throw new EmbedderError(
      `${embedder.modelId} returned ${embedded.length} vectors of ${embedded[0]?.length ?? 0} dimensions for ${batch.length} texts; the index holds ${dimension}-dimension vectors. Check the model (and embed.openai.dimensions).`,
    );
  }
  return batch.map((item, index) => ({ chunkId: item.chunk.id, inputHash: item.hash, vector: embedded[index] as Float32Array }));
}
