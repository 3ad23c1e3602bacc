import type { Chunk } from '../core/types.js';

/** Which model the index's vectors come from. */
export interface EmbeddingInfo {
  modelId: string;
  dimension: number;
  /** Chunks that have a vector. */
  embedded: number;
  /** Chunks that have none yet (an interrupted or a not-yet-run embedding pass). */
  pending: number;
}

export interface VectorRow {
  /** The chunk the vector is of (`Chunk.id`). */
  chunkId: string;
  /** Hash of the exact text embedded (with the model id): the cache key. */
  inputHash: string;
  vector: Float32Array;
}

export interface VectorHit {
  chunk: Chunk;
  /** Cosine similarity to the query, in [-1, 1]. */
  similarity: number;
}

export interface VectorSearch {
  limit: number;
  /**
   * Nearest neighbours looked up by 1-bit codes before exact cosine re-scoring. An index of
   * at most this many vectors is searched exactly.
   */
  coarseK: number;
  /** Only chunks of pages of these sources (library versions), compared exactly (no coarse shortlist). */
  sourceIds?: readonly number[];
}

/**
 * Dense vectors of the chunks: one model at a time (never mixed), a cache of vectors by
 * (model, input hash) that survives re-chunking and model switches, and nearest-neighbour
 * search. The store keeps its search structures current itself (see `Store`).
 */
export interface VectorStore {
  /** The model of the stored vectors; undefined when nothing was ever embedded. */
  info(): Promise<EmbeddingInfo | undefined>;
  /**
   * Readies the index for vectors of `modelId`. Another model's vectors are dropped (its cache
   * stays, so switching back is cheap); `switchedFrom` names it.
   */
  useModel(modelId: string, dimension: number): Promise<{ switchedFrom?: string }>;
  /** Up to `limit` chunks with no vector yet, in the order they were stored. */
  pendingChunks(limit: number): Promise<Chunk[]>;
  /** The length of this model's cached vectors, if any are cached (no model call needed to learn it). */
  cachedDimension(modelId: string): Promise<number | undefined>;
  /** Cached vectors of this model for these input hashes. */
  cachedVectors(modelId: string, inputHashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Stores vectors of chunks (and in the cache), all or none; a chunk no longer stored is skipped. Refused for another model than `useModel`'s. */
  putVectors(modelId: string, rows: readonly VectorRow[]): Promise<void>;
  /** The stored vectors of these chunks (by chunk id), for those that have one. */
  vectorsOf(chunkIds: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The chunks nearest to a unit-length query vector of the index's model, best first. */
  searchVectors(query: Float32Array, options: VectorSearch): Promise<VectorHit[]>;
}
