import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './embed-worker.js';
import { type Embedder, EmbedderError } from './embedder.js';
import type { LocalEmbedderSpec } from './local-embedders.js';

interface Pending {
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  busy: number;
  pending: Map<number, Pending>;
}

/**
 * A CPU-bound local embedder run in `size` worker threads, one model per thread: batches go to
 * the least busy worker, so ingest embeds on every core while the main thread keeps crawling.
 */
export function createWorkerPoolEmbedder(spec: LocalEmbedderSpec, base: Pick<Embedder, 'modelId' | 'maxBatchSize' | 'dimension'>, size: number): Embedder {
  const workers: PoolWorker[] = [];
  let nextId = 0;
  let closed = false;

  const start = (): PoolWorker => {
    const here = import.meta.url;
    // From the sources (tests, tsx) the worker is a .ts file: a bootstrap registers tsx first.
    const worker = here.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./embed-worker.ts', here).href)}); });`,
          { eval: true, workerData: spec },
        )
      : new Worker(fileURLToPath(new URL('./embed-worker.js', here)), { workerData: spec });
    const entry: PoolWorker = { worker, busy: 0, pending: new Map() };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const pending = entry.pending.get(reply.id);
      if (pending === undefined) return;
      entry.pending.delete(reply.id);
      entry.busy -= 1;
      if ('error' in reply) pending.reject(new EmbedderError(reply.error));
      else pending.resolve(reply.vectors);
    });
    const failAll = (error: Error) => {
      for (const pending of entry.pending.values()) pending.reject(error);
      entry.pending.clear();
      entry.busy = 0;
      const index = workers.indexOf(entry);
      if (index >= 0) workers.splice(index, 1);
    };
    worker.on('error', (error) => failAll(new EmbedderError(`An embedding worker for ${base.modelId} failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => {
      if (!closed) failAll(new EmbedderError(`An embedding worker for ${base.modelId} exited with code ${code}.`));
    });
    workers.push(entry);
    return entry;
  };

  const pick = (): PoolWorker => {
    if (workers.length < size) {
      const idle = workers.find((entry) => entry.busy === 0);
      if (idle !== undefined) return idle;
      return start();
    }
    return workers.reduce((best, entry) => (entry.busy < best.busy ? entry : best));
  };

  return {
    modelId: base.modelId,
    maxBatchSize: base.maxBatchSize,
    dimension: (request) => base.dimension(request),
    embed({ texts, mode, abortSignal }) {
      if (closed) return Promise.reject(new EmbedderError(`The ${base.modelId} embedder is closed.`));
      if (abortSignal?.aborted === true) return Promise.reject(abortReason(abortSignal));
      if (texts.length === 0) return Promise.resolve([]);
      const entry = pick();
      const id = nextId++;
      entry.busy += 1;
      entry.worker.ref();
      return new Promise<Float32Array[]>((resolve, reject) => {
        const onAbort = () => reject(abortReason(abortSignal));
        abortSignal?.addEventListener('abort', onAbort, { once: true });
        const settle = () => {
          abortSignal?.removeEventListener('abort', onAbort);
          if (entry.busy === 0) entry.worker.unref();
        };
        entry.pending.set(id, {
          resolve: (vectors) => {
            settle();
            resolve(vectors);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
        const request: WorkerRequest = { id, texts: [...texts], mode };
        entry.worker.postMessage(request);
      });
    },
    async close() {
      closed = true;
      const stopping = workers.splice(0);
      for (const entry of stopping) {
        for (const pending of entry.pending.values()) pending.reject(new EmbedderError(`The ${base.modelId} embedder was closed before it answered.`));
        entry.pending.clear();
      }
      await Promise.all(stopping.map((entry) => entry.worker.terminate()));
    },
  };
}

function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error('The embedding was aborted.');
}
