import { describe, expect, it } from 'vitest';
import { candidate } from '../testing/candidates.js';
import { createFusedOrderReranker } from './fused-order.js';
import { runRerankerContract } from './reranker.contract.js';

runRerankerContract('fused-order', () => createFusedOrderReranker());

describe('fused-order reranker', () => {
  it('orders by fused score, equal scores by chunk id, and judges nothing', async () => {
    // b and c tie on 0.5: their ids decide, so every run gives the same order.
    const input = [
      candidate({ url: 'https://d.example/c.html', text: 'c', score: 0.5 }),
      candidate({ url: 'https://d.example/a.html', text: 'a', score: 0.2 }),
      candidate({ url: 'https://d.example/b.html', text: 'b', score: 0.5 }),
      candidate({ url: 'https://d.example/d.html', text: 'd', score: 0.9 }),
    ];
    const { candidates, warnings } = await createFusedOrderReranker().rerank({ query: 'q', candidates: input });
    expect(candidates.map((item) => item.chunk.text)).toEqual(['d', 'b', 'c', 'a']);
    expect(warnings).toEqual([]);
    expect(candidates.every((item) => item.scores.rerank === undefined)).toBe(true);
    expect(candidates[1]?.trace.at(-1)).toEqual({ technique: 'rerank:fused-order', rank: 2, score: 0.5, detail: 'fused-score order, no model judged' });
  });
});
