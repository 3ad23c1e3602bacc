import { describe, expect, it } from 'vitest';
import { ReadCache } from './pg-read-cache.js';

describe('page reads kept for a moment', () => {
  it('serves a read again within the time and the index generation it was read at, and reads again after either moves or a clear', async () => {
    let generation = 1;
    let now = 0;
    let reads = 0;
    const cache = new ReadCache<number>(() => generation, 1_000, 100, () => now);
    const read = () => cache.get('page', async () => (reads += 1));
    expect(await read()).toBe(1);
    now = 999;
    expect(await read()).toBe(1);
    now = 1_000;
    expect(await read()).toBe(2);
    generation = 2;
    expect(await read()).toBe(3);
    cache.clear();
    expect(await read()).toBe(4);
  });

  it('never keeps a failed read', async () => {
    const cache = new ReadCache<string>(() => 1);
    await expect(cache.get('page', () => Promise.reject(new Error('connection lost')))).rejects.toThrow('connection lost');
    await expect(cache.get('page', async () => 'read again')).resolves.toBe('read again');
  });
});
