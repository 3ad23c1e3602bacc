import type { Candidate } from '../core/types.js';
import { byFusedScore, type Reranker, type RerankResult, rankedResult } from './reranker.js';

export const FUSED_ORDER = 'fused-order';

/** Candidates in fused-score order (ties by chunk id), each traced; no score is judged. */
export function fusedOrder(candidates: readonly Candidate[], detail = 'fused-score order, no model judged'): RerankResult {
  return rankedResult(FUSED_ORDER, [...candidates].sort(byFusedScore), () => ({ detail }));
}

/** The no-LLM default and every reranker's fallback: retrieval's own order, stable. */
export function createFusedOrderReranker(): Reranker {
  return {
    name: FUSED_ORDER,
    async rerank({ candidates, abortSignal }) {
      abortSignal?.throwIfAborted();
      return fusedOrder(candidates);
    },
  };
}
