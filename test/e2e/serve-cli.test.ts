/** `citedocs serve` as a process: starts on a free port of 127.0.0.1, answers, stops cleanly on SIGTERM; refuses a missing index. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('citedocs serve', () => {
  it('listens on 127.0.0.1, prints where, answers /search, and exits 0 on SIGTERM', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-serve-')), 'index.db');
    const writer = createEngine({ dbPath });
    await writer.ingestDocuments([{ url: 'https://docs.example/guide.html', title: 'Guide', markdown: '# Guide\n\n## Creating indexes\n\nUse CREATE INDEX CONCURRENTLY to avoid locking writes.' }]);
    await writer.close();

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'serve', '--db', dbPath, '--port', '0', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in 20 s: ${stderr}`)), 20_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /chat page (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    try {
      expect(stderr).toMatch(/serving .*index\.db \(1 page, 1 passage\)/);
      const response = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'create an index concurrently' }) });
      const body = (await response.json()) as { results: { url: string }[] };
      expect(body.results[0]?.url).toMatch(/^https:\/\/docs\.example\/guide\.html/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('refuses to start without an index, naming the path and how to make one', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'citedocs-serve-')), 'none.db');
    const run = await runCliCaptured(['serve', '--db', missing, '--port', '0'], { cwd: ROOT });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`No index at ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. Run \`citedocs ingest`));
  });
});
