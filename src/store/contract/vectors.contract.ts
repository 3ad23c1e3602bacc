import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { axis, chunkOf, pageOf, sourceInput, unit } from './fixtures.contract.js';

/** The Store contract: vectors. `store` stands for the handle each test opens (see runStoreContract). */
export function vectorsContract(store: Store): void {
  describe('vectors', () => {
    it('has no model and nothing pending before anything was embedded', async () => {
      expect(await store.vectors.info()).toBeUndefined();
      expect(await store.vectors.cachedDimension('m')).toBeUndefined();
      expect((await store.vectors.cachedVectors('m', ['h'])).size).toBe(0);
      expect(await store.vectors.searchVectors(axis(0), { limit: 1, coarseK: 10 })).toEqual([]);
    });

    it('lists chunks without a vector in stored order, stores vectors by chunk id, and finds the nearest, best first', async () => {
      const page = pageOf('https://d.example/a.html', 'a');
      const chunks = [chunkOf(page, 'zero'), chunkOf(page, 'one'), chunkOf(page, 'two')];
      await store.upsertPage(page, chunks);
      await expect(store.vectors.useModel('m', 4)).resolves.toEqual({});
      expect((await store.vectors.pendingChunks(10)).map((chunk) => chunk.id)).toEqual(chunks.map((chunk) => chunk.id));
      expect((await store.vectors.pendingChunks(2)).map((chunk) => chunk.text)).toEqual(['zero', 'one']);
      await store.vectors.putVectors('m', chunks.map((chunk, index) => ({ chunkId: chunk.id, inputHash: `h${index}`, vector: axis(index) })));
      expect(await store.vectors.pendingChunks(10)).toEqual([]);
      expect(await store.vectors.info()).toEqual({ modelId: 'm', dimension: 4, embedded: 3, pending: 0 });
      const hits = await store.vectors.searchVectors(unit([0.1, 1, 0.5, 0]), { limit: 2, coarseK: 10 });
      expect(hits.map((hit) => hit.chunk.text)).toEqual(['one', 'two']);
      expect(hits[0]?.chunk).toEqual(chunks[1]);
      expect(hits[0]?.similarity).toBeGreaterThan(hits[1]?.similarity ?? 1);
      expect([...(await store.vectors.vectorsOf([chunks[2]?.id ?? '', 'none'])).keys()]).toEqual([chunks[2]?.id]);
      expect([...((await store.vectors.vectorsOf([chunks[2]?.id ?? ''])).get(chunks[2]?.id ?? '') ?? [])]).toEqual([...axis(2)]);
    });

    it('keeps a cache by model and input hash that outlives the chunks, and drops a deleted chunk’s vector from search', async () => {
      const page = pageOf('https://d.example/a.html', 'a');
      const chunk = chunkOf(page, 'cached');
      await store.upsertPage(page, [chunk]);
      await store.vectors.useModel('m', 4);
      await store.vectors.putVectors('m', [{ chunkId: chunk.id, inputHash: 'h-cached', vector: axis(3) }]);
      await store.removePage(page.url);
      expect(await store.vectors.searchVectors(axis(3), { limit: 5, coarseK: 10 })).toEqual([]);
      expect(await store.vectors.cachedDimension('m')).toBe(4);
      expect([...((await store.vectors.cachedVectors('m', ['h-cached', 'h-none'])).get('h-cached') ?? [])]).toEqual([...axis(3)]);
      expect((await store.vectors.cachedVectors('m', ['h-none'])).size).toBe(0);
    });

    it('never mixes models: switching drops the vectors and names the old model; another model’s vectors are refused', async () => {
      const page = pageOf('https://d.example/a.html', 'a');
      const chunk = chunkOf(page, 'text');
      await store.upsertPage(page, [chunk]);
      await store.vectors.useModel('m', 4);
      await store.vectors.putVectors('m', [{ chunkId: chunk.id, inputHash: 'h', vector: axis(0) }]);
      await expect(store.vectors.putVectors('other', [{ chunkId: chunk.id, inputHash: 'h', vector: axis(1) }])).rejects.toThrow(/other/);
      await expect(store.vectors.useModel('n', 4)).resolves.toEqual({ switchedFrom: 'm' });
      expect(await store.vectors.info()).toEqual({ modelId: 'n', dimension: 4, embedded: 0, pending: 1 });
      expect((await store.vectors.cachedVectors('m', ['h'])).size).toBe(1);
    });

    it('limits a scoped vector search to the chunks of those sources', async () => {
      const one = await store.catalog.upsertSource(sourceInput('one', '1'));
      const a = pageOf('https://a.example/p.html', 'a');
      const b = pageOf('https://b.example/p.html', 'b');
      await store.upsertPage(a, [chunkOf(a, 'a')], { sourceId: one.id });
      await store.upsertPage(b, [chunkOf(b, 'b')]);
      await store.vectors.useModel('m', 4);
      await store.vectors.putVectors('m', [{ chunkId: chunkOf(a, 'a').id, inputHash: 'ha', vector: axis(0) }, { chunkId: chunkOf(b, 'b').id, inputHash: 'hb', vector: axis(1) }]);
      expect((await store.vectors.searchVectors(axis(1), { limit: 5, coarseK: 10, sourceIds: [one.id] })).map((hit) => hit.chunk.pageUrl)).toEqual([a.url]);
    });
  });
}
