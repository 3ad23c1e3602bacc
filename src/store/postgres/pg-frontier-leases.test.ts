import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../testing/postgres-server.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';

const skip = postgresSkipReason();
const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ url: `https://d.example/p${index}.html`, depth: 1 }));

describe.skipIf(skip !== undefined)(`a crawl frontier shared by workers${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  let store: PostgresStore;
  beforeAll(async () => {
    server = await startPostgresServer();
    store = await createPostgresStore(await server.createDatabase(), { mode: 'write' });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('never leases one entry to two workers leasing at once, and together they take every entry once, oldest first', async () => {
    const run = await store.crawlState.openRun('https://d.example/a/', '{}', '2026-01-01T00:00:00.000Z');
    await store.frontierLeases.add(run.id, entries(30));
    await store.frontierLeases.add(run.id, entries(5)); // found again by another worker: kept once
    const leases = await Promise.all(['w1', 'w2', 'w3'].map((worker) => store.frontierLeases.lease(run.id, worker, 12, 60_000)));
    const urls = leases.flat().map((entry) => entry.url);
    expect(new Set(urls).size).toBe(30);
    expect(urls).toHaveLength(30);
    for (const lease of leases) expect(lease.map((entry) => Number(/p(\d+)/.exec(entry.url)?.[1]))).toEqual([...lease.map((entry) => Number(/p(\d+)/.exec(entry.url)?.[1]))].sort((a, b) => a - b));
    expect(await store.frontierLeases.lease(run.id, 'w4', 10, 60_000)).toEqual([]);
    expect(await store.frontierLeases.progress(run.id)).toEqual({ open: 0, leased: 30, done: 0 });
  });

  it("gives a killed worker's expired leases to another worker, and refuses the late completion of a lost lease", async () => {
    const run = await store.crawlState.openRun('https://d.example/b/', '{}', '2026-01-01T00:00:00.000Z');
    await store.frontierLeases.add(run.id, entries(4));
    const alive = await store.frontierLeases.lease(run.id, 'alive', 2, 60_000);
    const killed = await store.frontierLeases.lease(run.id, 'killed', 2, 1);
    expect(await store.frontierLeases.complete(run.id, 'alive', alive[0]?.url ?? '')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.frontierLeases.renew(run.id, 'killed', 60_000)).toBe(0);
    const takenOver = await store.frontierLeases.lease(run.id, 'alive', 10, 60_000);
    expect(takenOver.map((entry) => entry.url)).toEqual(killed.map((entry) => entry.url));
    expect(await store.frontierLeases.complete(run.id, 'killed', killed[0]?.url ?? '')).toBe(false);
    for (const entry of [...takenOver, ...alive.slice(1)]) expect(await store.frontierLeases.complete(run.id, 'alive', entry.url)).toBe(true);
    expect(await store.frontierLeases.progress(run.id)).toEqual({ open: 0, leased: 0, done: 4 });
  });

  it('spaces requests to one host by the delay across workers: each reservation waits for the one before', async () => {
    const waits = [];
    for (let request = 0; request < 3; request += 1) waits.push(await store.frontierLeases.reserveHostSlot('docs.example:443', 60_000));
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBeGreaterThan(55_000);
    expect(waits[1]).toBeLessThanOrEqual(60_000);
    expect(waits[2]).toBeGreaterThan(115_000);
    expect(waits[2]).toBeLessThanOrEqual(120_000);
    expect(await store.frontierLeases.reserveHostSlot('other.example:443', 60_000)).toBe(0);
  });
});
