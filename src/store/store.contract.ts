import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Chunk, LexicalRanking, Page } from '../core/types.js';
import type { Store } from './store.js';

/**
 * The behaviour every Store backend shares; each backend (SQLite, PostgreSQL) runs this suite
 * with a factory that gives a handle on a new, empty index (created, so it can be read at once).
 * Nothing here knows how a backend keeps its data.
 */
export function runStoreContract(name: string, make: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

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

    describe('crawl state', () => {
      it('resumes an unfinished run with the same settings: what is still queued, and everything seen', async () => {
        const run = await store.crawlState.openRun('https://d.example/', 'settings-a', '2026-01-01T00:00:00.000Z');
        expect(run).toMatchObject({ queued: [], seen: [] });
        await store.crawlState.enqueue(run.id, [{ url: 'https://d.example/', depth: 0 }, { url: 'https://d.example/a', depth: 1 }, { url: 'https://d.example/b', depth: 1 }]);
        await store.crawlState.enqueue(run.id, [{ url: 'https://d.example/a', depth: 5 }]);
        await store.crawlState.markDone(run.id, 'https://d.example/');
        const resumed = await store.crawlState.openRun('https://d.example/', 'settings-a', '2026-01-02T00:00:00.000Z');
        expect(resumed.id).toBe(run.id);
        expect(resumed.queued).toEqual([{ url: 'https://d.example/a', depth: 1 }, { url: 'https://d.example/b', depth: 1 }]);
        expect(resumed.seen).toEqual(['https://d.example/', 'https://d.example/a', 'https://d.example/b']);
      });

      it('starts afresh after a finished run, or when the settings changed', async () => {
        const run = await store.crawlState.openRun('https://d.example/', 'settings-a', '2026-01-01T00:00:00.000Z');
        await store.crawlState.enqueue(run.id, [{ url: 'https://d.example/a', depth: 1 }]);
        const other = await store.crawlState.openRun('https://d.example/', 'settings-b', '2026-01-02T00:00:00.000Z');
        expect(other).toMatchObject({ queued: [], seen: [] });
        await store.crawlState.finishRun(other.id, '2026-01-03T00:00:00.000Z');
        expect(await store.crawlState.openRun('https://d.example/', 'settings-b', '2026-01-04T00:00:00.000Z')).toMatchObject({ queued: [], seen: [] });
      });

      it('records how the latest run of each source ended, newest first, and shows it in stats', async () => {
        await store.crawlState.openRun('https://a.example/', 's', '2026-01-01T00:00:00.000Z');
        await store.crawlState.recordOutcome('https://a.example/', { outcome: 'complete', endedAt: '2026-01-01T01:00:00.000Z' });
        await store.crawlState.openRun('https://b.example/', 's', '2026-01-02T00:00:00.000Z');
        const stoppedBy = { limit: 'maxPages', value: 10, remaining: 3, unit: 'requests', flag: '--max-requests', setting: 'crawl.maxPages', resumes: true } as const;
        await store.crawlState.recordOutcome('https://b.example/', { outcome: 'limited', endedAt: '2026-01-02T01:00:00.000Z', stoppedBy });
        const runs = await store.crawlState.latestRuns();
        expect(runs).toEqual([
          { source: 'https://b.example/', startedAt: '2026-01-02T00:00:00.000Z', endedAt: '2026-01-02T01:00:00.000Z', outcome: 'limited', complete: false, stoppedBy },
          { source: 'https://a.example/', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T01:00:00.000Z', outcome: 'complete', complete: true },
        ]);
        expect((await store.stats()).ingests).toEqual(runs);
        await store.crawlState.openRun('https://c.example/', 's', '2026-01-03T00:00:00.000Z');
        expect((await store.crawlState.latestRuns())[0]).toMatchObject({ source: 'https://c.example/', outcome: 'running', complete: false });
      });
    });

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
  });
}

const ranking: LexicalRanking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };

function pageOf(url: string, markdown: string, anchors: string[] = []): Page {
  return { url, canonicalUrl: url, title: `Title of ${url}`, markdown, headings: [], anchors, contentHash: `hash:${markdown}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl' };
}

function chunkOf(page: Page, text: string, anchor?: string, headingPath: string[] = []): Chunk {
  return { id: `${page.url}:${text}`, pageUrl: page.url, pageTitle: page.title, ...(anchor === undefined ? {} : { anchor }), headingPath, text, tokenCount: text.split(' ').length, contentHash: `c:${text}` };
}

function sourceInput(library: string, version: string) {
  return { library, version, rootUrl: `https://${library}.example/`, kind: 'crawl' as const, createdAt: '2026-01-01T00:00:00.000Z' };
}

function axis(index: number): Float32Array {
  const vector = new Float32Array(4);
  vector[index] = 1;
  return vector;
}

function unit(values: number[]): Float32Array {
  const length = Math.hypot(...values);
  return new Float32Array(values.map((value) => value / length));
}
