/**
 * What scripts and terminals expect of `citedocs`: --version, exit codes (0, 1, 2, 130), JSON
 * errors and warnings on stderr under --json with only the result on stdout, NO_COLOR, plurals,
 * and the renamed --max-pages options still working under their old name.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/interfaces/cli/main.js';
import { Interruption } from '../../src/interfaces/cli/output.js';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { startServeProcess } from '../../src/testing/serve-process.js';
import type { StaticServer } from '../../src/testing/static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let site: StaticServer;
let dbPath: string;
let work: string;
const cli = (argv: string[]) => runCliCaptured(argv, { cwd: work });
/** An ANSI colour sequence: ESC [ n m. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`);
const jsonLines = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, { name?: string; code?: string; message: string; exitCode?: number }>);

beforeAll(async () => {
  ({ site, dbPath } = await indexFixtureSite('citedocs-cli-'));
  work = mkdtempSync(join(tmpdir(), 'citedocs-cli-work-'));
}, 60_000);
afterAll(async () => site.close());

/** The CLI in this process as a terminal would run it: stderr is a TTY. */
async function runOnTerminal(argv: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (text) => (stderr += text), env, cwd: work, interactive: true };
  return { code: await runCli(argv, io), stderr };
}

describe('citedocs --version', () => {
  it('prints the package version with --version and -V, and exits 0', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await cli([flag]);
      expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });
});

describe('exit codes', () => {
  it('0 on success', async () => {
    expect((await cli(['stats', '--db', dbPath])).code).toBe(0);
  });

  it('1 on a failure the user can fix (no index), with one line naming it', async () => {
    const run = await cli(['search', 'anything', '--db', join(work, 'none.db')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^citedocs: .*none\.db/);
  });

  it('2 on a usage error: an unknown option, or a value out of range', async () => {
    expect((await cli(['search', 'x', '--no-such-flag'])).code).toBe(2);
    expect((await cli(['search', 'x', '--limit', '0', '--db', dbPath])).code).toBe(2);
  });

  it('130 when interrupted (Ctrl-C) during an ingest: the report says so, and stderr says it was interrupted', async () => {
    // A site whose second page never answers: the interruption comes while it is in flight.
    let requests = 0;
    const hanging: Server = createServer((request, response) => {
      requests += 1;
      if (request.url === '/docs/') response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Home</title></head><body><main><h1>Home</h1><p>Start here.</p><a href="/docs/slow.html">slow</a></main></body></html>');
      else if (request.url !== '/docs/slow.html') response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (requests >= 2) controller.abort(new Interruption('SIGINT'));
    }, 20);
    let stdout = '';
    let stderr = '';
    try {
      const code = await runCli(['ingest', `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/docs/`, '--db', join(work, 'interrupted.db')], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        env: {},
        cwd: work,
        interactive: false,
        signal: controller.signal,
      });
      expect(code).toBe(130);
      expect(stdout).toMatch(/^Interrupted after 1 page \(/);
      expect(stderr).toMatch(/citedocs: interrupted \(Ctrl-C\)\.\n$/);
    } finally {
      clearInterval(timer);
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('130 from the citedocs process on SIGINT (serve stops cleanly first)', async () => {
    const { child, output, exited } = await startServeProcess(['--db', dbPath, '--quiet'], { timeoutMs: 20_000 });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(output.stderr).toMatch(/citedocs: interrupted \(Ctrl-C\)\.\n$/);
  }, 40_000);
});

describe('--json', () => {
  it('prints an error as one JSON line on stderr, nothing on stdout', async () => {
    const run = await cli(['search', 'anything', '--db', join(work, 'none.db'), '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const [line] = jsonLines(run.stderr);
    expect(line?.['error']).toMatchObject({ name: 'StoreError', exitCode: 1 });
    expect(line?.['error']?.message).toMatch(/none\.db/);
  });

  it('prints a usage error as JSON too, naming the field, without commander’s text or the help hint', async () => {
    const run = await cli(['search', 'x', '--limit', '0', '--db', dbPath, '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(jsonLines(run.stderr)).toEqual([{ error: { name: 'UsageError', message: expect.stringMatching(/"0" is not a positive whole number/) as string, exitCode: 2 } }]);
    const unknown = await cli(['search', 'x', '--frobnicate', '--json']);
    expect(jsonLines(unknown.stderr)).toEqual([{ error: { name: 'UsageError', message: "unknown option '--frobnicate'", exitCode: 2 } }]);
  });

  it('keeps stdout to the result when there are warnings: they are JSON lines on stderr', async () => {
    const run = await cli(['search', 'create an index', '--db', dbPath, '--max-pages', '1', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(jsonLines(run.stderr)).toEqual([{ warning: { code: 'deprecated-option', message: expect.stringMatching(/^--max-pages is deprecated for citedocs search: use --max-selected/) as string } }]);
  });
});

describe('renamed --max-pages', () => {
  it('search and ask take --max-selected, and still --max-pages with a note on stderr, for the distinct pages of the selection', async () => {
    const renamed = await cli(['search', 'index', '--db', dbPath, '--max-selected', '1', '--json']);
    const old = await cli(['search', 'index', '--db', dbPath, '--max-pages', '1', '--json']);
    const pages = (stdout: string) => new Set((JSON.parse(stdout) as { results: { url: string }[] }).results.map((result) => result.url.split('#')[0]));
    expect(pages(renamed.stdout).size).toBe(1);
    expect(pages(old.stdout)).toEqual(pages(renamed.stdout));
    expect(renamed.stderr).toBe('');
    const ask = await cli(['ask', 'how do I drop a table', '--db', dbPath, '--max-pages', '1']);
    expect(ask.code).toBe(0);
    expect(ask.stderr).toMatch(/^citedocs: warning: --max-pages is deprecated for citedocs ask: use --max-selected/);
  });

  it('ingest takes --max-requests, and still --max-pages with a note', async () => {
    const renamed = await cli(['ingest', `${site.url}docs/`, '--db', join(work, 'renamed.db'), '--max-requests', '2', '--json']);
    const old = await cli(['ingest', `${site.url}docs/`, '--db', join(work, 'old.db'), '--max-pages', '2', '--json']);
    expect((JSON.parse(renamed.stdout) as { fetched: number }).fetched).toBeLessThanOrEqual(2);
    expect((JSON.parse(old.stdout) as { fetched: number }).fetched).toBe((JSON.parse(renamed.stdout) as { fetched: number }).fetched);
    expect(old.stderr).toMatch(/--max-pages is deprecated for citedocs ingest: use --max-requests/);
  });

  it('refuses the old and the new name with different values', async () => {
    const run = await cli(['search', 'index', '--db', dbPath, '--max-pages', '1', '--max-selected', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-pages 1 and --max-selected 2 disagree/);
  });

  it('shows only the new names in --help', async () => {
    for (const [command, name] of [['search', '--max-selected'], ['ask', '--max-selected'], ['ingest', '--max-requests'], ['web', '--max-results']] as const) {
      const help = (await cli([command, '--help'])).stdout;
      expect(help).toContain(name);
      expect(help).not.toContain('--max-pages');
    }
  });
});

describe('colour and words', () => {
  it('colours errors on a terminal, and never with NO_COLOR set', async () => {
    const argv = ['search', 'x', '--db', join(work, 'none.db')];
    expect((await runOnTerminal(argv, {})).stderr).toContain('\u001b[31m');
    const plain = await runOnTerminal(argv, { NO_COLOR: '1' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).not.toMatch(ANSI_COLOUR);
  });

  it('never colours output that is not a terminal', async () => {
    expect((await cli(['search', 'x', '--db', join(work, 'none.db')])).stderr).not.toMatch(ANSI_COLOUR);
  });

  it('says "1 page", not "1 pages"', async () => {
    const folder = join(work, 'one-page');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.md'), '# One\n\nA single page about budgets.\n');
    const run = await cli(['ingest', folder, '--db', join(work, 'one.db'), '--base-url', 'https://docs.example/']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Ingested 1 page \(1 added, 0 changed, 0 unchanged, 0 removed; 1 body fetched\), 1 chunk\./);
    expect(run.stdout).toMatch(/Index: 1 page, 1 chunk, \d+ anchors?,/);
  });
});
