import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';

/** The Store contract: crawl state. `store` stands for the handle each test opens (see runStoreContract). */
export function crawlStateContract(store: Store): void {
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
}
