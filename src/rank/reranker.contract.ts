import { beforeAll, describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import type { Reranker } from './reranker.js';

export interface RerankerContractOptions {
  /** The reranker sets scores.rerank in [0, 1] on the candidates it judges. */
  judges?: boolean;
}

/** Six passages of two pages, in fused-score order. */
export function contractCandidates(): Candidate[] {
  const texts = [
    'Create an index concurrently so writes are not blocked while it builds.',
    'The token budget caps how many passages go into the answer.',
    'Watering schedule: spray the leaves of tropical plants twice a week.',
    'Chunks are split at headings and never inside a code fence.',
    'The reranker reorders retrieved passages by relevance to the question.',
    'Tax rules for small companies changed in 2024.',
  ];
  return texts.map((text, index) => candidate({ url: `https://d.example/${index % 2 === 0 ? 'a' : 'b'}.html`, text, score: 1 - index / 10, title: index % 2 === 0 ? 'Guide' : 'Reference' }));
}

/** The behaviour every Reranker shares; each reranker (on the fake OpenAI-compatible server when it needs an LLM) runs this suite. */
export function runRerankerContract(name: string, make: () => Reranker | Promise<Reranker>, options: RerankerContractOptions = {}): void {
  describe(`Reranker contract: ${name}`, () => {
    let reranker: Reranker;
    beforeAll(async () => {
      reranker = await make();
    }, 60_000);

    it('has a name for traces and warnings', () => {
      expect(reranker.name).toMatch(/^[a-z][a-z-]*$/);
    });

    it('returns every input candidate exactly once, without changing the input', async () => {
      const input = contractCandidates();
      const before = structuredClone(input);
      const { candidates, warnings } = await reranker.rerank({ query: 'how does the reranker order passages', candidates: input });
      expect(candidates.map((item) => item.chunk.id).sort()).toEqual(input.map((item) => item.chunk.id).sort());
      expect(Array.isArray(warnings)).toBe(true);
      expect(input).toEqual(before);
    });

    it('returns nothing for no candidates', async () => {
      await expect(reranker.rerank({ query: 'anything', candidates: [] })).resolves.toEqual({ candidates: [], warnings: [] });
    });

    it('rejects when the caller has aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      await expect(reranker.rerank({ query: 'anything', candidates: contractCandidates(), abortSignal: controller.signal })).rejects.toThrow();
    });

    it('traces each result candidate with rerank:<name> and its new rank', async () => {
      const { candidates } = await reranker.rerank({ query: 'how are chunks split', candidates: contractCandidates() });
      candidates.forEach((item, index) => {
        const entry = item.trace.find((trace) => trace.technique === `rerank:${reranker.name}`);
        expect(entry, item.chunk.id).toMatchObject({ rank: index + 1 });
        expect(entry?.detail).toMatch(/\S/);
        expect(Number.isFinite(entry?.score)).toBe(true);
      });
    });

    if (options.judges === true) {
      it('sets scores.rerank in [0, 1] on judged candidates, and some are judged', async () => {
        const { candidates } = await reranker.rerank({ query: 'how are chunks split', candidates: contractCandidates() });
        const scores = candidates.flatMap((item) => (item.scores.rerank === undefined ? [] : [item.scores.rerank]));
        expect(scores.length).toBeGreaterThan(0);
        for (const score of scores) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
        }
      });
    }
  });
}
