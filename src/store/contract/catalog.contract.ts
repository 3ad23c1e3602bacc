import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { chunkOf, pageOf, ranking, sourceInput } from './fixtures.contract.js';

/** The Store contract: catalog. `store` stands for the handle each test opens (see runStoreContract). */
export function catalogContract(store: Store): void {
  describe('catalog', () => {
    it('creates a source once per library and version, updates it, and counts its pages and passages', async () => {
      const created = await store.catalog.upsertSource({ ...sourceInput('pytest', '8.1'), settings: { input: 'https://docs.pytest.org/' } });
      expect(created).toMatchObject({ library: 'pytest', version: '8.1', rootUrl: 'https://pytest.example/', kind: 'crawl', settings: { input: 'https://docs.pytest.org/' }, pages: 0, passages: 0 });
      const again = await store.catalog.upsertSource({ ...sourceInput('pytest', '8.1'), rootUrl: 'https://pytest.example/v2/' });
      expect(again.id).toBe(created.id);
      expect(again.rootUrl).toBe('https://pytest.example/v2/');
      const page = pageOf('https://pytest.example/v2/a.html', 'a');
      await store.upsertPage(page, [chunkOf(page, 'one'), chunkOf(page, 'two')], { sourceId: created.id });
      await store.catalog.recordCrawl(created.id, '2026-01-05T00:00:00.000Z');
      expect(await store.catalog.listSources()).toEqual([expect.objectContaining({ id: created.id, pages: 1, passages: 2, lastCrawl: '2026-01-05T00:00:00.000Z', description: page.title })]);
      expect(await store.catalog.pageUrlsOfSource(created.id)).toEqual([page.url]);
      expect((await store.catalog.sourceLabels([page.url, 'https://none.example/'])).get(page.url)).toEqual({ library: 'pytest', version: '8.1' });
      expect((await store.catalog.sourceLabels([page.url, 'https://none.example/'])).has('https://none.example/')).toBe(false);
    });

    it('lists sources by library then version, names them, renames and deletes them', async () => {
      const b = await store.catalog.upsertSource(sourceInput('beta', '1'));
      const a2 = await store.catalog.upsertSource(sourceInput('alpha', '2'));
      const a1 = await store.catalog.upsertSource(sourceInput('alpha', '1'));
      expect((await store.catalog.listSources()).map((source) => `${source.library}@${source.version}`)).toEqual(['alpha@1', 'alpha@2', 'beta@1']);
      expect(await store.catalog.sourceNames()).toEqual(
        expect.arrayContaining([{ id: a1.id, library: 'alpha', version: '1' }, { id: a2.id, library: 'alpha', version: '2' }, { id: b.id, library: 'beta', version: '1' }]),
      );
      await store.catalog.renameSource(b.id, 'gamma');
      expect((await store.catalog.listSources()).map((source) => source.library)).toContain('gamma');
      await store.catalog.deleteSource(b.id);
      expect((await store.catalog.listSources()).map((source) => source.id)).not.toContain(b.id);
    });

    it('moves a page to the source that stores it again, whole', async () => {
      const one = await store.catalog.upsertSource(sourceInput('one', '1'));
      const two = await store.catalog.upsertSource(sourceInput('two', '1'));
      const page = pageOf('https://d.example/a.html', 'a');
      await store.upsertPage(page, [chunkOf(page, 'moving words')], { sourceId: one.id });
      await expect(store.upsertPage(page, [chunkOf(page, 'moving words')], { sourceId: two.id })).resolves.toBe('changed');
      expect(await store.catalog.pageUrlsOfSource(two.id)).toEqual([page.url]);
      expect(await store.catalog.pageUrlsOfSource(one.id)).toEqual([]);
      expect((await store.searchText({ text: 'moving', limit: 5, ranking, sourceIds: [two.id] })).map((hit) => hit.chunk.pageUrl)).toEqual([page.url]);
      expect(await store.searchText({ text: 'moving', limit: 5, ranking, sourceIds: [one.id] })).toEqual([]);
    });

    it('records ingest jobs with their state and progress, newest first', async () => {
      const first = await store.catalog.startJob({ library: 'a', version: '1', url: 'https://a.example/', startedAt: '2026-01-01T00:00:00.000Z' });
      const second = await store.catalog.startJob({ library: '', version: '', url: 'https://b.example/', startedAt: '2026-01-02T00:00:00.000Z' });
      await store.catalog.updateJob(first, { progress: { fetched: 3, pages: 2 } });
      await store.catalog.updateJob(first, { state: 'complete', endedAt: '2026-01-01T01:00:00.000Z' });
      await store.catalog.updateJob(second, { state: 'failed', error: 'unreachable', library: 'b', version: 'latest' });
      expect(await store.catalog.listJobs()).toEqual([
        { id: second, library: 'b', version: 'latest', url: 'https://b.example/', state: 'failed', progress: {}, startedAt: '2026-01-02T00:00:00.000Z', error: 'unreachable' },
        { id: first, library: 'a', version: '1', url: 'https://a.example/', state: 'complete', progress: { fetched: 3, pages: 2 }, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T01:00:00.000Z' },
      ]);
    });
  });
}
