import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedMode } from './embedder.js';
import { createLocalEmbedder, type LocalEmbedderSpec } from './local-embedders.js';

/** One worker thread: loads the model once, then embeds batches sent by the pool. */
export interface WorkerRequest {
  id: number;
  texts: string[];
  mode: EmbedMode;
}

export type WorkerReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

const port = parentPort;
if (port !== null) {
  const embedder = createLocalEmbedder(workerData as LocalEmbedderSpec);
  port.on('message', (request: WorkerRequest) => {
    embedder.embed({ texts: request.texts, mode: request.mode }).then(
      (vectors) => {
        const reply: WorkerReply = { id: request.id, vectors };
        port.postMessage(reply, vectors.map((vector) => vector.buffer as ArrayBuffer));
      },
      (error: unknown) => {
        const reply: WorkerReply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
        port.postMessage(reply);
      },
    );
  });
}
