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

describe('page reads while the database is unreachable', () => {
  it('answers with the last value read when a read fails with a connection error, and reads again once it is reachable', async () => {
    let offline = false;
    let reachable = true;
    let now = 0;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const cache = new ReadCache<string>(() => 1, 1_000, 100, () => now, { offline: () => offline, failed: (error) => (error as { code?: string }).code === 'ECONNREFUSED' });
    const read = (value: string) => cache.get('page', async () => (reachable ? value : Promise.reject(refused)));
    expect(await read('first')).toBe('first');
    now = 2_000;
    reachable = false;
    expect(await read('unused')).toBe('first');
    offline = true;
    now = 4_000;
    expect(await read('unused')).toBe('first');
    offline = false;
    reachable = true;
    now = 6_000;
    expect(await read('second')).toBe('second');
  });

  it('still fails a read it has no value for, and one that failed for another reason', async () => {
    const cache = new ReadCache<string>(() => 1, 0, 100, Date.now, { offline: () => false, failed: (error) => (error as Error).message.includes('ECONNREFUSED') });
    await expect(cache.get('page', () => Promise.reject(new Error('connect ECONNREFUSED')))).rejects.toThrow('ECONNREFUSED');
    expect(await cache.get('page', async () => 'stored')).toBe('stored');
    await expect(cache.get('page', () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
  });
});
