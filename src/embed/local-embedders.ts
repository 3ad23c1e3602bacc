import type { Embedder } from './embedder.js';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './providers/transformers.js';
import { createUseEmbedder } from './providers/use.js';

/** The embedders that run on this machine's CPU: what a worker thread can be asked to build. */
export type LocalEmbedderSpec = { provider: 'use' } | ({ provider: 'transformers' } & TransformersEmbedderOptions);

export function createLocalEmbedder(spec: LocalEmbedderSpec): Embedder {
  return spec.provider === 'use' ? createUseEmbedder() : createTransformersEmbedder(spec);
}
