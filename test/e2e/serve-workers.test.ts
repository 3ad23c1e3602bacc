/**
 * `citedocs serve --workers N`: several processes share the port and the index. Both workers
 * answer, their answers equal those of one process byte for byte, the address is printed once, a
 * worker that dies is replaced (and said so on stderr), and SIGTERM stops every worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import { type ServeProcess, sendRequest, startServeProcess } from '../../src/testing/serve-process.js';
import type { StaticServer } from '../../src/testing/static-server.js';

const QUERIES = ['create an index concurrently', 'how do I set a timeout', 'drop a table', 'api reference', 'zzzz nothing matches zzzz'];

let site: StaticServer;
let dbPath: string;
beforeAll(async () => {
  ({ site, dbPath } = await indexFixtureSite('citedocs-serve-workers-'));
}, 60_000);
afterAll(async () => {
  await site.close();
});

/** `citedocs serve` over the fixture index, quiet. */
function startServe(args: readonly string[]): Promise<ServeProcess> {
  return startServeProcess(['--db', dbPath, '--quiet', ...args]);
}

function send(base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return sendRequest(base, method, path, body === undefined ? {} : { body });
}

/** The worker pids seen in up to `attempts` health checks, stopping once `wanted` distinct ones answered. */
async function workerPids(base: string, wanted: number, attempts = 40): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let attempt = 0; attempt < attempts && pids.size < wanted; attempt += 1) {
    const health = await send(base, 'GET', '/healthz');
    pids.add((JSON.parse(health.body) as { pid: number }).pid);
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('citedocs serve --workers', () => {
  it('answers from two worker processes, byte for byte as one process does, prints its address once, and stops every worker on SIGTERM', async () => {
    const single = await startServe(['--workers', '1']);
    const pair = await startServe(['--workers', '2']);
    const pids = new Set<number>();
    try {
      for (const pid of await workerPids(pair.base, 2)) pids.add(pid);
      expect(pids.size).toBe(2);
      expect(pids.has(pair.child.pid ?? -1)).toBe(false);
      expect(await workerPids(single.base, 2, 5)).toEqual(new Set([single.child.pid]));
      for (const query of QUERIES) {
        // Every query twice: each worker of the pair answers it at least once (requests alternate).
        for (let round = 0; round < 2; round += 1) {
          for (const [path, body] of [['/search', { query, limit: 5 }], ['/ask', { question: query }]] as const) {
            const expected = await send(single.base, 'POST', path, body);
            const actual = await send(pair.base, 'POST', path, body);
            expect(actual.status).toBe(expected.status);
            expect(actual.body).toBe(expected.body);
          }
        }
      }
    } finally {
      single.child.kill('SIGTERM');
      pair.child.kill('SIGTERM');
    }
    expect(await pair.exited).toBe(0);
    expect(await single.exited).toBe(0);
    expect(pair.output.stdout).toBe(`${pair.base}\n`);
    expect(pair.output.stderr.match(/citedocs: serving /g)).toHaveLength(1);
    expect(pair.output.stderr).toMatch(/: chat page http:\/\/127\.0\.0\.1:\d+\/.*; 2 worker processes\n/);
    expect([...pids].filter(alive)).toEqual([]);
  }, 120_000);

  it('replaces a worker that dies, saying so on stderr, and keeps answering', async () => {
    const pair = await startServe(['--workers', '2']);
    try {
      const [victim] = await workerPids(pair.base, 2);
      expect(victim).toBeDefined();
      process.kill(victim ?? -1, 'SIGKILL');
      let seen = new Set<number>();
      for (let attempt = 0; attempt < 100 && !(seen.size === 2 && !seen.has(victim ?? -1)); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        seen = await workerPids(pair.base, 2, 6).catch(() => new Set<number>());
      }
      expect(seen.size).toBe(2);
      expect(seen.has(victim ?? -1)).toBe(false);
      expect(pair.output.stderr).toContain(`worker ${victim} died (signal SIGKILL); starting another (restart 1 of at most 5 in 60 s)`);
      expect(pair.output.stdout).toBe(`${pair.base}\n`);
    } finally {
      pair.child.kill('SIGTERM');
    }
    expect(await pair.exited).toBe(0);
  }, 120_000);
});
