import { CitedocsError } from '../core/errors.js';

/** Queries and passages are embedded differently by some models (bge's instruction, e5's prefixes). */
export type EmbedMode = 'query' | 'passage';

export interface EmbedRequest {
  texts: readonly string[];
  mode: EmbedMode;
  abortSignal?: AbortSignal;
}

/**
 * Turns texts into vectors. Every vector is L2-normalised, so cosine similarity is a dot
 * product, and has `dimension()` components. Vectors of different `modelId`s never mix.
 */
export interface Embedder {
  /** Stored with the vectors: `use`, `transformers:Xenova/bge-small-en-v1.5`, `openai:text-embedding-3-small`. */
  readonly modelId: string;
  /** Texts per embed() call that the provider handles well; callers batch by it. */
  readonly maxBatchSize: number;
  /** The vector length (loads the model, or asks the server, when not known yet; the signal ends that request). */
  dimension(request?: { abortSignal?: AbortSignal }): Promise<number>;
  /** One vector per text, in order. */
  embed(request: EmbedRequest): Promise<Float32Array[]>;
  /** Frees the model, workers or sockets. */
  close(): Promise<void>;
}

/** A model that cannot be loaded, a server that refuses, a reply that does not parse. */
export class EmbedderError extends CitedocsError {
  override readonly name = 'EmbedderError';
}

export { dot, normalise } from '../core/vectors.js';
