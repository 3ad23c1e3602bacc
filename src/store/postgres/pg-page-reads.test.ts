import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPageLoader } from './pg-page-reads.js';

const rowOf = (url: string) => ({ url, title: url, content_hash: 'h', source: 'crawl', fetched_at: '2026-01-01T00:00:00.000Z', etag: null, last_modified: null, links: '[]', headings: '[]', chunking: null, chunk_count: 1, anchors: ['intro'] });

describe('pages read with their anchors', () => {
  it('reads the URLs asked for in one turn of the event loop in one statement, each URL once', async () => {
    const asked: string[][] = [];
    const pool = {
      query: async (_sql: string, [urls]: [string[]]) => {
        asked.push(urls);
        return { rows: urls.filter((url) => url !== 'https://d.example/gone').map(rowOf) };
      },
    } as unknown as Pick<pg.Pool, 'query'>;
    const loader = createPageLoader(pool);
    const [a, b, again, gone] = await Promise.all(['https://d.example/a', 'https://d.example/b', 'https://d.example/a', 'https://d.example/gone'].map((url) => loader.load(url)));
    expect(asked).toEqual([['https://d.example/a', 'https://d.example/b', 'https://d.example/gone']]);
    expect(a?.page?.url).toBe('https://d.example/a');
    expect([...(b?.anchors ?? [])]).toEqual(['intro']);
    expect(again).toBe(a);
    expect(gone).toEqual({ page: undefined, anchors: new Set() });
    await loader.load('https://d.example/c');
    expect(asked).toHaveLength(2);
  });

  it('fails every read of a batch whose statement failed', async () => {
    const loader = createPageLoader({ query: () => Promise.reject(new Error('connection lost')) } as unknown as Pick<pg.Pool, 'query'>);
    const reads = ['https://d.example/a', 'https://d.example/b'].map((url) => loader.load(url));
    for (const read of reads) await expect(read).rejects.toThrow('connection lost');
  });
});
