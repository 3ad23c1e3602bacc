import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import { chunkOf, pageOf, ranking } from './fixtures.contract.js';

/** The Store contract: pages. `store` stands for the handle each test opens (see runStoreContract). */
export function pagesContract(store: Store): void {
  describe('pages', () => {
    it('reports added, unchanged (same content hash), changed and rechunked pages', async () => {
      const first = pageOf('https://d.example/p.html', 'v1');
      await expect(store.upsertPage(first, [chunkOf(first, 'alpha version one')])).resolves.toBe('added');
      await expect(store.upsertPage({ ...first, fetchedAt: '2026-02-01T00:00:00.000Z', etag: '"e2"' }, [])).resolves.toBe('unchanged');
      expect(await store.getPage(first.url)).toMatchObject({ chunkCount: 1, fetchedAt: '2026-02-01T00:00:00.000Z', etag: '"e2"', contentHash: 'hash:v1' });
      const second = pageOf(first.url, 'v2');
      await expect(store.upsertPage(second, [chunkOf(second, 'beta version two')])).resolves.toBe('changed');
      await expect(store.upsertPage(second, [chunkOf(second, 'beta', 'a'), chunkOf(second, 'version two', 'b')], { rechunked: true })).resolves.toBe('changed');
      expect((await store.chunksOf(first.url)).map((chunk) => chunk.text)).toEqual(['beta', 'version two']);
    });

    it('stores a page with its fields, chunks in reading order and anchors', async () => {
      const page = { ...pageOf('https://d.example/a.html', 'a', ['install', 'other-id']), headings: [{ level: 1, text: 'Guide', anchor: 'install' }], links: ['https://d.example/b.html'], etag: '"e1"', lastModified: 'Tue, 01 Jan 2026 00:00:00 GMT', chunking: 'k1' };
      await store.upsertPage(page, [chunkOf(page, 'first passage', 'install', ['Guide', 'Install']), chunkOf(page, 'second passage')]);
      expect(await store.getPage(page.url)).toEqual({
        url: page.url, title: page.title, contentHash: page.contentHash, source: 'crawl', fetchedAt: page.fetchedAt, chunkCount: 2, etag: '"e1"',
        lastModified: page.lastModified, links: page.links, headings: page.headings, chunking: 'k1',
      });
      expect(await store.getPage('https://d.example/none.html')).toBeUndefined();
      const chunks = await store.chunksOf(page.url);
      expect(chunks.map((chunk) => chunk.text)).toEqual(['first passage', 'second passage']);
      expect(chunks[0]).toEqual(chunkOf(page, 'first passage', 'install', ['Guide', 'Install']));
      expect([...(await store.anchorsOf(page.url))].sort()).toEqual(['install', 'other-id']);
      expect(await store.pagesWithAnchor('install')).toEqual([page.url]);
      expect(await store.hasChunks()).toBe(true);
    });

    it('replaces a changed page whole: its old chunks and anchors are gone, from search too', async () => {
      const first = pageOf('https://d.example/p.html', 'v1', ['old']);
      await store.upsertPage(first, [chunkOf(first, 'alpha version one')]);
      const second = pageOf(first.url, 'v2', ['new']);
      await store.upsertPage(second, [chunkOf(second, 'beta version two')]);
      expect(await store.searchText({ text: 'alpha', limit: 5, ranking })).toEqual([]);
      expect(await store.searchText({ text: 'beta', limit: 5, ranking })).toHaveLength(1);
      expect([...(await store.anchorsOf(first.url))]).toEqual(['new']);
      expect(await store.pagesWithAnchor('old')).toEqual([]);
      expect(await store.stats()).toMatchObject({ pages: 1, chunks: 1, anchors: 1 });
    });

    it('writes a page atomically: a write that fails leaves the previous version whole', async () => {
      const page = pageOf('https://d.example/p.html', 'v1', ['kept']);
      await store.upsertPage(page, [chunkOf(page, 'original text')]);
      const broken = { ...chunkOf(page, 'new text'), headingPath: undefined as unknown as string[], tokenCount: null as unknown as number };
      await expect(store.upsertPage(pageOf(page.url, 'v2', ['lost']), [broken])).rejects.toThrow();
      expect(await store.getPage(page.url)).toMatchObject({ contentHash: 'hash:v1', chunkCount: 1 });
      expect([...(await store.anchorsOf(page.url))]).toEqual(['kept']);
      expect(await store.searchText({ text: 'original', limit: 5, ranking })).toHaveLength(1);
    });

    it('resolves a recorded alias to its page, the first of several spellings that is stored, and forgets aliases with the page', async () => {
      const page = { ...pageOf('https://d.example/new.html', 'n'), aliases: ['https://d.example/old.html'] };
      await store.upsertPage(page, [chunkOf(page, 'text')]);
      await store.addAlias(page.url, 'https://d.example/moved.html');
      await store.addAlias('https://d.example/not-stored.html', 'https://d.example/nowhere.html');
      expect(await store.resolvePageUrl('https://d.example/old.html')).toBe(page.url);
      expect(await store.resolvePageUrl('https://d.example/moved.html')).toBe(page.url);
      expect(await store.resolvePageUrl(page.url)).toBe(page.url);
      expect(await store.resolvePageUrl('https://d.example/nowhere.html')).toBeUndefined();
      expect(await store.resolveFirstPageUrl(['https://d.example/x.html', 'https://d.example/old.html', page.url])).toBe(page.url);
      expect(await store.resolveFirstPageUrl(['https://d.example/x.html'])).toBeUndefined();
      expect(await store.resolveFirstPageUrl([])).toBeUndefined();
      await expect(store.removePage(page.url)).resolves.toBe(true);
      expect(await store.resolvePageUrl('https://d.example/old.html')).toBeUndefined();
    });

    it('finds a page by its content hash', async () => {
      const page = pageOf('https://d.example/a.html', 'same');
      await store.upsertPage(page, [chunkOf(page, 'text')]);
      expect(await store.pageUrlWithContent('hash:same')).toBe(page.url);
      expect(await store.pageUrlWithContent('hash:other')).toBeUndefined();
    });

    it('confirms a stored page (HTTP 304): its chunk count and new fetch time; nothing for a page not stored', async () => {
      const page = pageOf('https://d.example/a.html', 'a');
      await store.upsertPage(page, [chunkOf(page, 'one'), chunkOf(page, 'two')]);
      await expect(store.confirmPage(page.url, '2026-03-01T00:00:00.000Z')).resolves.toBe(2);
      expect((await store.getPage(page.url))?.fetchedAt).toBe('2026-03-01T00:00:00.000Z');
      await expect(store.confirmPage('https://d.example/none.html', '2026-03-01T00:00:00.000Z')).resolves.toBeUndefined();
    });

    it('removes a page with its chunks and anchors; false for a page not stored', async () => {
      const page = pageOf('https://d.example/a.html', 'a', ['x']);
      await store.upsertPage(page, [chunkOf(page, 'removable words', 'x')]);
      await expect(store.removePage(page.url)).resolves.toBe(true);
      await expect(store.removePage(page.url)).resolves.toBe(false);
      expect(await store.getPage(page.url)).toBeUndefined();
      expect(await store.chunksOf(page.url)).toEqual([]);
      expect((await store.anchorsOf(page.url)).size).toBe(0);
      expect(await store.searchText({ text: 'removable', limit: 5, ranking })).toEqual([]);
      expect(await store.hasChunks()).toBe(false);
    });

    it('lists the pages under a prefix, of one source kind when asked, sorted', async () => {
      for (const [url, source] of [['https://d.example/docs/b.html', 'crawl'], ['https://d.example/docs/a.html', 'crawl'], ['https://d.example/blog/c.html', 'crawl'], ['https://d.example/docs/local.html', 'local']] as const) {
        await store.upsertPage({ ...pageOf(url, url), source }, []);
      }
      expect(await store.pageUrlsUnder('https://d.example/docs/')).toEqual(['https://d.example/docs/a.html', 'https://d.example/docs/b.html', 'https://d.example/docs/local.html']);
      expect(await store.pageUrlsUnder('https://d.example/docs/', 'crawl')).toEqual(['https://d.example/docs/a.html', 'https://d.example/docs/b.html']);
      expect(await store.pageUrlsUnder('')).toHaveLength(4);
      expect(await store.pageUrlsUnder('https://other.example/')).toEqual([]);
    });

    it('counts pages, chunks and anchors, and is empty at first', async () => {
      expect(await store.hasChunks()).toBe(false);
      expect(await store.stats()).toMatchObject({ pages: 0, chunks: 0, anchors: 0, ingests: [] });
      const page = pageOf('https://d.example/a.html', 'a', ['x', 'y']);
      await store.upsertPage(page, [chunkOf(page, 'one'), chunkOf(page, 'two')]);
      const stats = await store.stats();
      expect(stats).toMatchObject({ pages: 1, chunks: 2, anchors: 2 });
      expect(stats.bytes).toBeGreaterThan(0);
    });
  });
}
