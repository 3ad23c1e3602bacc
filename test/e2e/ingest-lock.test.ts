/**
 * Two `citedocs ingest` processes on one index: the second says it waits for the first, waits,
 * then ingests; with --lock-timeout 0 it fails at once with a clear message. Never "a bug", never
 * "database is locked".
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPage, type SiteServer, serveSite } from '../../src/testing/http-site.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let site: SiteServer;
/** Holds the first ingest inside its crawl (its request for /slow) until the test lets it go. */
let release: () => void = () => undefined;
let held: Promise<void>;
let slowRequested: () => void = () => undefined;
let slowSeen: Promise<void>;

beforeAll(async () => {
  site = await serveSite({
    '/': htmlPage('Start', ['/slow', '/other']),
    '/other': htmlPage('Other page'),
    '/slow': (request, response) => {
      slowRequested();
      void held.then(() => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(htmlPage('Slow page')));
    },
  });
});
afterAll(async () => {
  release();
  await site.close();
});

function ingest(dbPath: string, config: string, agent: string, extra: readonly string[] = []): { child: ChildProcessWithoutNullStreams; stderr: () => string; done: Promise<number | null>; onStderr: (pattern: RegExp) => Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'ingest', `${site.base}/`, '--db', dbPath, '--config', config, '--user-agent', agent, '--quiet', ...extra], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watcher of watchers) if (watcher.pattern.test(stderr)) watcher.resolve();
  });
  const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => stderr,
    done,
    onStderr: (pattern) =>
      new Promise<void>((resolve, reject) => {
        watchers.push({ pattern, resolve });
        void done.then(() => (pattern.test(stderr) ? resolve() : reject(new Error(`exited without ${pattern}: ${stderr}`))));
      }),
  };
}

describe('two ingests of one index', () => {
  it('the second says it waits for the first, waits, then ingests; neither fails', async () => {
    held = new Promise((resolve) => (release = resolve));
    slowSeen = new Promise((resolve) => (slowRequested = resolve));
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-ingest-lock-'));
    const dbPath = join(folder, 'index.db');
    const config = join(folder, 'citedocs.config.json');
    // The first ingest waits on /slow for as long as the test needs, not the default 15 s.
    writeFileSync(config, JSON.stringify({ crawl: { timeoutMs: 120_000 } }));
    const first = ingest(dbPath, config, 'first-ingest');
    await slowSeen;
    const second = ingest(dbPath, config, 'second-ingest');
    await second.onStderr(/waiting for it to finish/);
    expect(site.requests.some((request) => request.userAgent?.startsWith('second-ingest') === true)).toBe(false);
    release();
    expect(await first.done).toBe(0);
    expect(await second.done).toBe(0);
    expect(second.stderr()).toContain(`another ingest, refresh, embed or remove is writing ${dbPath} (it holds ${dbPath}-writer.lock): waiting for it to finish`);
    for (const run of [first, second]) {
      expect(run.stderr()).not.toMatch(/a bug|database is locked/);
    }
    // The second crawled only once the first had finished and let go of the index.
    const lastOfFirst = Math.max(...site.requests.filter((request) => request.userAgent?.startsWith('first-ingest') === true).map((request) => request.at));
    const ofSecond = site.requests.filter((request) => request.userAgent?.startsWith('second-ingest') === true);
    expect(ofSecond.length).toBeGreaterThan(0);
    expect(ofSecond.every((request) => request.at >= lastOfFirst)).toBe(true);
  }, 120_000);

  it('with --lock-timeout 0, the second fails at once naming the index and what to do', async () => {
    held = new Promise((resolve) => (release = resolve));
    slowSeen = new Promise((resolve) => (slowRequested = resolve));
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-ingest-lock-'));
    const dbPath = join(folder, 'index.db');
    const config = join(folder, 'citedocs.config.json');
    writeFileSync(config, JSON.stringify({ crawl: { timeoutMs: 120_000 } }));
    const first = ingest(dbPath, config, 'first-ingest');
    await slowSeen;
    const second = ingest(dbPath, config, 'second-ingest', ['--lock-timeout', '0']);
    expect(await second.done).toBe(1);
    expect(second.stderr()).toContain(`citedocs: Another process is writing the index ${dbPath} (an ingest, refresh, embed or remove holds ${dbPath}-writer.lock). Run again when it has finished, or give --lock-timeout <seconds> to wait for it.`);
    expect(second.stderr()).not.toMatch(/a bug|database is locked/);
    release();
    expect(await first.done).toBe(0);
  }, 120_000);
});
