import { describe, expect, it } from 'vitest';
import type { Page } from '../../core/types.js';
import type { Store } from '../store.js';
import { chunkOf, pageOf, ranking, sourceInput } from './fixtures.contract.js';

/** The Store contract: text search. `store` stands for the handle each test opens (see runStoreContract). */
export function textSearchContract(store: Store): void {
  describe('text search', () => {
    it('finds chunks by BM25F with stemming, with their page, anchor and heading path', async () => {
      const page = pageOf('https://d.example/a.html', 'a', ['install']);
      await store.upsertPage(page, [chunkOf(page, 'Creating indexes concurrently avoids locks', 'install', ['Guide', 'Install']), chunkOf(page, 'Unrelated text about tables')]);
      const hits = await store.searchText({ text: 'create index', limit: 10, ranking });
      expect(hits).toHaveLength(1);
      expect(hits[0]?.chunk).toEqual(chunkOf(page, 'Creating indexes concurrently avoids locks', 'install', ['Guide', 'Install']));
      expect(hits[0]?.bm25).toBeGreaterThan(0);
      expect(await store.searchText({ text: '" near( and *', limit: 5, ranking })).toEqual([]);
    });

    it('ranks a match in the heading path above the same match in body text', async () => {
      const one = pageOf('https://d.example/1.html', '1');
      const two = pageOf('https://d.example/2.html', '2');
      await store.upsertPage(one, [chunkOf(one, 'Some words and then vacuum appears here once')]);
      await store.upsertPage(two, [chunkOf(two, 'Some words and nothing else appears here once', undefined, ['Vacuum'])]);
      expect((await store.searchText({ text: 'vacuum', limit: 10, ranking })).map((hit) => hit.chunk.pageUrl)).toEqual([two.url, one.url]);
    });

    it('gives the same results and scores after a page is deleted and added again', async () => {
      const pages = Array.from({ length: 6 }, (_, index) => pageOf(`https://d.example/${index}.html`, String(index)));
      const texts = ['vacuum frees space', 'vacuum full rewrites the table', 'analyze updates statistics', 'vacuum and analyze together', 'indexes speed up reads', 'the planner reads statistics'];
      for (const [index, page] of pages.entries()) await store.upsertPage(page, [chunkOf(page, texts[index] ?? ''), chunkOf(page, `page ${index} notes`)]);
      const query = { text: 'vacuum statistics', limit: 10, ranking };
      const before = await store.searchText(query);
      const termsBefore = await store.termStats(['vacuum', 'statistics']);
      const moved = pages[1] as Page;
      await store.removePage(moved.url);
      expect((await store.searchText(query)).map((hit) => hit.chunk.pageUrl)).not.toContain(moved.url);
      await store.upsertPage(moved, [chunkOf(moved, texts[1] ?? ''), chunkOf(moved, 'page 1 notes')]);
      const after = await store.searchText(query);
      expect(after.map((hit) => hit.chunk.id)).toEqual(before.map((hit) => hit.chunk.id));
      after.forEach((hit, index) => expect(hit.bm25).toBeCloseTo(before[index]?.bm25 ?? Number.NaN, 9));
      const termsAfter = await store.termStats(['vacuum', 'statistics']);
      expect(termsAfter.documents).toBe(termsBefore.documents);
      expect([...termsAfter.documentFrequency]).toEqual([...termsBefore.documentFrequency]);
    });

    it('counts documents and document frequencies for term statistics, per source when scoped', async () => {
      const mine = await store.catalog.upsertSource(sourceInput('lib', '1.0'));
      const page = pageOf('https://d.example/a.html', 'a');
      const other = pageOf('https://o.example/b.html', 'b');
      await store.upsertPage(page, [chunkOf(page, 'vacuum one'), chunkOf(page, 'vacuum two'), chunkOf(page, 'other')], { sourceId: mine.id });
      await store.upsertPage(other, [chunkOf(other, 'vacuum three')]);
      const stats = await store.termStats(['vacuum', 'missing']);
      expect(stats.documents).toBe(4);
      expect(stats.documentFrequency.get('vacuum')).toBe(3);
      expect(stats.documentFrequency.get('missing')).toBe(0);
      const scoped = await store.termStats(['vacuum'], [mine.id]);
      expect(scoped).toMatchObject({ documents: 3 });
      expect(scoped.documentFrequency.get('vacuum')).toBe(2);
    });

    it('limits a scoped search to the pages of those sources', async () => {
      const one = await store.catalog.upsertSource(sourceInput('one', '1'));
      const two = await store.catalog.upsertSource(sourceInput('two', '1'));
      const a = pageOf('https://a.example/p.html', 'a');
      const b = pageOf('https://b.example/p.html', 'b');
      await store.upsertPage(a, [chunkOf(a, 'shared topic words')], { sourceId: one.id });
      await store.upsertPage(b, [chunkOf(b, 'shared topic words')], { sourceId: two.id });
      expect((await store.searchText({ text: 'shared topic', limit: 10, ranking, sourceIds: [two.id] })).map((hit) => hit.chunk.pageUrl)).toEqual([b.url]);
      expect(await store.searchText({ text: 'shared topic', limit: 10, ranking })).toHaveLength(2);
    });

    it('explains each field’s share of a score when asked', async () => {
      const page = pageOf('https://d.example/a.html', 'a');
      await store.upsertPage(page, [chunkOf(page, 'vacuum body', undefined, ['Vacuum'])]);
      const [hit] = await store.searchText({ text: 'vacuum', limit: 1, ranking, explain: true });
      expect(hit?.fields?.headings).toBeGreaterThan(0);
      expect(hit?.fields?.text).toBeGreaterThan(0);
    });

    it('answers every search run while pages are written through the same handle, and sees each write once it resolved', async () => {
      const seed = pageOf('https://d.example/seed.html', 'seed');
      await store.upsertPage(seed, [chunkOf(seed, 'vacuum seed')]);
      const searches: Promise<number>[] = [];
      for (let index = 0; index < 20; index += 1) {
        const page = pageOf(`https://d.example/${index}.html`, String(index));
        const writing = store.upsertPage(page, [chunkOf(page, `vacuum step ${index}`)]);
        searches.push(store.searchText({ text: 'vacuum', limit: 50, ranking }).then((hits) => hits.length));
        await writing;
        expect((await store.searchText({ text: `vacuum step ${index}`, limit: 1, ranking }))[0]?.chunk.pageUrl).toBe(page.url);
      }
      for (const count of await Promise.all(searches)) expect(count).toBeGreaterThanOrEqual(1);
    });
  });
}
