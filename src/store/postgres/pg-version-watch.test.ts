import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { configureLogging } from '../../core/log.js';
import { CachedReads } from './pg-cached-reads.js';
import { createVersionWatch } from './pg-version-watch.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A database double answering the version query: `generation` now, or refusing while `down`. */
function versionDatabase() {
  const state = { generation: 1, down: false, queries: 0 };
  const pool = {
    query: async () => {
      state.queries += 1;
      if (state.down) throw refused();
      return { rows: [{ generation: String(state.generation), vectors: '3', catalog: null }] };
    },
  } as unknown as Pick<pg.Pool, 'query'>;
  return { state, pool };
}

describe('the data version a replica watches', () => {
  it('reads the version at most once per freshMs, and again at once after this process writes', async () => {
    const { state, pool } = versionDatabase();
    let now = 0;
    const watch = createVersionWatch(pool, 'postgres://u:***@h/db', { freshMs: 250, now: () => now });
    expect(await watch.current()).toEqual({ version: { generation: 1, key: '1:3:0' }, live: true });
    state.generation = 2;
    now = 249;
    expect((await watch.current()).version.generation).toBe(1);
    expect(state.queries).toBe(1);
    watch.invalidate();
    expect((await watch.current()).version.generation).toBe(2);
    now = 600;
    await Promise.all([watch.current(), watch.current(), watch.current()]);
    expect(state.queries).toBe(3);
  });

  it('keeps the last version known while the database is unreachable, retries with doubling delays, logs the outage once and its end, and reports it', async () => {
    const { state, pool } = versionDatabase();
    const lines: string[] = [];
    configureLogging({ level: 'info', stages: {}, format: 'json', write: (line) => lines.push(line) });
    let now = 1_000;
    const watch = createVersionWatch(pool, 'postgres://u:***@h/db', { freshMs: 0, retryBaseDelayMs: 100, maxRetryDelayMs: 300, now: () => now });
    await watch.current();
    state.down = true;
    expect(await watch.current()).toEqual({ version: { generation: 1, key: '1:3:0' }, live: false });
    expect(watch.health()).toEqual({ database: 'unreachable', since: new Date(1_000).toISOString(), databaseError: 'connect ECONNREFUSED 127.0.0.1:5432', failedAttempts: 1 });
    const tries = () => state.queries;
    const before = tries();
    now += 99;
    await watch.current();
    expect(tries()).toBe(before);
    expect(watch.offline()).toBe(true);
    now += 1;
    await watch.current();
    expect(tries()).toBe(before + 1);
    // The delays double up to the cap: 100, 200, 300, 300.
    now += 199;
    await watch.current();
    expect(tries()).toBe(before + 1);
    now += 1;
    await watch.current();
    now += 300;
    await watch.current();
    expect(tries()).toBe(before + 3);
    expect(watch.health().failedAttempts).toBe(4);
    state.down = false;
    state.generation = 5;
    now += 300;
    expect(await watch.current()).toEqual({ version: { generation: 5, key: '5:3:0' }, live: true });
    expect(watch.health()).toEqual({ database: 'reachable' });
    const messages = lines.map((line) => JSON.parse(line) as { msg: string; level: number; db?: string });
    expect(messages.filter((line) => line.msg.startsWith('database unreachable'))).toEqual([expect.objectContaining({ level: 40, db: 'postgres://u:***@h/db' })]);
    expect(messages.filter((line) => line.msg === 'database reachable again')).toHaveLength(1);
    configureLogging({ level: 'silent', stages: {}, format: 'json', write: () => undefined });
  });

  it('fails at once when it never read a version and the database is unreachable, and passes other errors on', async () => {
    const watch = createVersionWatch({ query: () => Promise.reject(refused()) } as unknown as Pick<pg.Pool, 'query'>, 'db');
    await expect(watch.current()).rejects.toThrow('ECONNREFUSED');
    expect(watch.health().database).toBe('unreachable');
    const broken = createVersionWatch({ query: () => Promise.reject(new Error('relation "lexical_stats" does not exist')) } as unknown as Pick<pg.Pool, 'query'>, 'db');
    await expect(broken.current()).rejects.toThrow('does not exist');
    expect(broken.health()).toEqual({ database: 'reachable' });
  });
});

describe('reads kept by data version', () => {
  it('serves a read again while the version holds, reads again when it moves, and answers with the last value while the database is unreachable', async () => {
    const { state, pool } = versionDatabase();
    let now = 0;
    const watch = createVersionWatch(pool, 'db', { freshMs: 0, now: () => now });
    const cached = new CachedReads(watch, 'db');
    let reads = 0;
    const read = () => cached.read('names', 'the names', async () => (state.down ? Promise.reject(refused()) : `names ${(reads += 1)}`));
    expect(await read()).toBe('names 1');
    expect(await read()).toBe('names 1');
    state.generation = 2;
    expect(await read()).toBe('names 2');
    state.down = true;
    now = 10;
    expect(await read()).toBe('names 2');
    await expect(cached.read('other', 'the other thing', async () => 'never')).rejects.toThrow(/db is unreachable, and the other thing is not among what this process has read/);
  });

  it('reads only the ids it has not read at this version, and remembers ids that have no value', async () => {
    const { state, pool } = versionDatabase();
    const watch = createVersionWatch(pool, 'db', { freshMs: 1_000_000 });
    const cached = new CachedReads(watch, 'db');
    const asked: string[][] = [];
    const labels = (ids: readonly string[]) => cached.readEach('label:', ids, 'labels', async (missing) => (asked.push(missing), new Map(missing.filter((id) => id !== 'none').map((id) => [id, id.toUpperCase()]))));
    expect([...(await labels(['a', 'b', 'none']))]).toEqual([['a', 'A'], ['b', 'B']]);
    expect([...(await labels(['b', 'c', 'none']))]).toEqual([['b', 'B'], ['c', 'C']]);
    expect(asked).toEqual([['a', 'b', 'none'], ['c']]);
    state.down = true;
    watch.invalidate();
    expect([...(await labels(['a', 'c']))]).toEqual([['a', 'A'], ['c', 'C']]);
    await expect(labels(['a', 'd'])).rejects.toThrow(/unreachable/);
  });
});
