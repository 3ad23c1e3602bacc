/**
 * `citedocs serve` as a process: starts on a free port of 127.0.0.1, answers, stops cleanly on
 * SIGTERM; prints only its address on stdout (request logs go to stderr); refuses a foreign Host
 * or Origin unless allowed; refuses a missing index.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { sendRequest, startServeProcess } from '../../src/testing/serve-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function indexOfOnePage(): Promise<string> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-serve-')), 'index.db');
  const writer = createEngine({ dbPath });
  await writer.ingestDocuments([{ url: 'https://docs.example/guide.html', title: 'Guide', markdown: '# Guide\n\n## Creating indexes\n\nUse CREATE INDEX CONCURRENTLY to avoid locking writes.' }]);
  await writer.close();
  return dbPath;
}

/** A POST /search with any Host and Origin. */
function search(base: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return sendRequest(base, 'POST', '/search', { body: { query: 'create an index concurrently' }, headers });
}

describe('citedocs serve', () => {
  it('listens on 127.0.0.1, prints where, answers /search, and exits 0 on SIGTERM', async () => {
    const dbPath = await indexOfOnePage();
    const { child, base, output, exited } = await startServeProcess(['--db', dbPath, '--quiet']);
    try {
      expect(output.stderr).toMatch(/serving .*index\.db \(1 page, 1 passage\): chat page http:\/\/127\.0\.0\.1:\d+\//);
      const response = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'create an index concurrently' }) });
      const body = (await response.json()) as { results: { url: string }[] };
      expect(body.results[0]?.url).toMatch(/^https:\/\/docs\.example\/guide\.html/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('writes nothing to stdout but its address line: JSON request logs go to stderr', async () => {
    const dbPath = await indexOfOnePage();
    const { child, base, output, exited } = await startServeProcess(['--db', dbPath]);
    try {
      expect((await search(base, {})).status).toBe(200);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output.stdout).toBe(`${base}\n`);
    const logs = output.stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } });
    expect(logs.some((log) => log.req?.url === '/search')).toBe(true);
    expect(logs.some((log) => log.res?.statusCode === 200)).toBe(true);
  }, 40_000);

  it('refuses a foreign Host or Origin with 403 naming the flag, and answers those given with --allowed-hosts and --allowed-origins', async () => {
    const dbPath = await indexOfOnePage();
    const { child, base, exited } = await startServeProcess(['--db', dbPath, '--quiet', '--allowed-hosts', 'docs.internal,wiki.internal', '--allowed-origins', 'https://portal.example']);
    try {
      const port = new URL(base).port;
      const rebound = await search(base, { host: `rebind.evil.example:${port}` });
      expect(rebound.status).toBe(403);
      expect(JSON.parse(rebound.body)).toMatchObject({ error: 'forbidden_host', message: expect.stringContaining('--allowed-hosts rebind.evil.example') as string });
      const crossSite = await search(base, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      expect(JSON.parse(crossSite.body)).toMatchObject({ error: 'forbidden_origin', message: expect.stringContaining('--allowed-origins https://evil.example') as string });
      expect((await search(base, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
      expect((await search(base, { host: 'wiki.internal' })).status).toBe(200);
      expect((await search(base, { host: `docs.internal:${port}`, origin: 'https://portal.example' })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('refuses an --allowed-origins value that is not an origin as a usage error (exit 2) naming it', async () => {
    const dbPath = await indexOfOnePage();
    const run = await runCliCaptured(['serve', '--db', dbPath, '--port', '0', '--allowed-origins', 'portal.example'], { cwd: ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Allowed origin "portal\.example" is not an origin: give scheme:\/\/host\[:port\]/);
    expect(run.stdout).toBe('');
  });

  it('refuses to start without an index, naming the path and how to make one', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'citedocs-serve-')), 'none.db');
    const run = await runCliCaptured(['serve', '--db', missing, '--port', '0'], { cwd: ROOT });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`No index at ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. Run \`citedocs ingest`));
  });
});
