/**
 * The CLI's logs, warnings and costs as a person and a script see them: per-stage logs on stderr
 * (readable on a terminal, JSON otherwise) set by --verbose, --quiet and CITEDOCS_LOG; stdout
 * unchanged by them; `diagnostics` and `usage` in --json; the usage line of --explain.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/interfaces/cli/main.js';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { docsWorkspace } from '../../src/testing/workspace.js';
import type { StaticServer } from '../../src/testing/static-server.js';

let site: StaticServer;
let dbPath: string;
let work: string;

beforeAll(async () => {
  ({ site, dbPath } = await indexFixtureSite('citedocs-cli-logs-'));
  work = mkdtempSync(join(tmpdir(), 'citedocs-cli-logs-work-'));
}, 60_000);
afterAll(async () => site.close());

const QUERY = ['search', 'drop', 'a', 'table'];

/** The CLI in this process as a terminal would run it: stderr is a TTY. */
async function onTerminal(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { NO_COLOR: '1', ...env }, cwd: work, interactive: true };
  return { code: await runCli(argv, io), stdout, stderr };
}

describe('CLI logs', () => {
  it('prints nothing but the result by default; --verbose adds readable debug lines of each stage on stderr, stdout unchanged', async () => {
    const plain = await onTerminal([...QUERY, '--db', dbPath]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    const verbose = await onTerminal([...QUERY, '--db', dbPath, '--verbose']);
    expect(verbose.stdout).toBe(plain.stdout);
    expect(verbose.stderr).toMatch(/^citedocs: debug \[retrieve\] technique ran technique=bm25:original hits=\d+ ms=[\d.]+$/m);
    expect(verbose.stderr).toMatch(/^citedocs: info \[select\] passages selected candidates=\d+ selected=\d+ tokens=\d+/m);
    expect(verbose.stderr).toMatch(/^citedocs: info \[retrieve\] search answered query="drop a table" results=\d+ usage=\{"llm":\{"calls":0,/m);
  });

  it('takes levels per stage from CITEDOCS_LOG, as JSON lines when stderr is not a terminal', async () => {
    const run = await runCliCaptured([...QUERY, '--db', dbPath], { cwd: work, env: { CITEDOCS_LOG: 'select=info,retrieve=debug' } });
    expect(run.code).toBe(0);
    const records = run.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as { stage: string; level: number; msg: string });
    expect(new Set(records.map((record) => record.stage))).toEqual(new Set(['select', 'retrieve']));
    expect(records.find((record) => record.stage === 'select')).toMatchObject({ level: 30, msg: 'passages selected', selected: expect.any(Number) as number });
    expect(records.some((record) => record.stage === 'retrieve' && record.level === 20)).toBe(true);
  });

  it('logs an ingest by stage: each page chunked (debug) and the totals stored (info)', async () => {
    const { docs, dbPath: fresh } = docsWorkspace({ 'a.md': '# A\n\n## One\n\nFirst section.', 'b.md': '# B\n\nSecond page.' });
    const run = await runCliCaptured(['ingest', docs, '--db', fresh, '--base-url', 'https://logs.example/'], { cwd: work, env: { CITEDOCS_LOG: 'chunk=debug,index=info' } });
    expect(run.code).toBe(0);
    const records = run.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as { stage: string; msg: string; url?: string; pages?: number });
    expect(records.filter((record) => record.stage === 'chunk').map((record) => record.url).sort()).toEqual(['https://logs.example/a', 'https://logs.example/b']);
    expect(records.filter((record) => record.stage === 'index')).toEqual([expect.objectContaining({ msg: 'ingest stored', pages: 2 })]);
  });

  it('--quiet silences every log, CITEDOCS_LOG included', async () => {
    const run = await runCliCaptured([...QUERY, '--db', dbPath, '--quiet'], { cwd: work, env: { CITEDOCS_LOG: 'debug' } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('refuses a CITEDOCS_LOG naming an unknown stage or level with exit 2, naming it and the right ones', async () => {
    const stage = await runCliCaptured([...QUERY, '--db', dbPath], { cwd: work, env: { CITEDOCS_LOG: 'crawler=debug' } });
    expect(stage.code).toBe(2);
    expect(stage.stderr).toMatch(/CITEDOCS_LOG names the stage "crawler" in "crawler=debug": the stages are crawl, extract/);
    const level = await runCliCaptured([...QUERY, '--db', dbPath, '--json'], { cwd: work, env: { CITEDOCS_LOG: 'rank=loud' } });
    expect(level.code).toBe(2);
    expect(level.stdout).toBe('');
    expect(JSON.parse(level.stderr)).toMatchObject({ error: { name: 'UsageError', message: expect.stringMatching(/level "loud"/) as string, exitCode: 2 } });
  });
});

describe('diagnostics and usage in the output', () => {
  it('--json carries diagnostics (code, stage, message) beside warnings, and the usage of model calls', async () => {
    const run = await runCliCaptured(['search', 'kubernetes', 'helm', 'chart', '--db', dbPath, '--json'], { cwd: work });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { warnings: string[]; diagnostics: { code: string; stage: string; message: string }[]; usage: unknown };
    expect(output.diagnostics).toEqual([{ code: 'retrieve.no-match', stage: 'retrieve', message: output.warnings[0] }]);
    expect(output.usage).toEqual({ llm: { calls: 0, promptTokens: 0, completionTokens: 0, ms: 0 }, embedding: { calls: 0, tokens: 0, ms: 0 } });
  });

  it('prints a warning with its code as JSON on stderr under --json (ask, whose answer streams as text otherwise)', async () => {
    const run = await runCliCaptured(['ask', 'kubernetes', 'helm', 'chart', '--db', dbPath, '--json'], { cwd: work });
    const output = JSON.parse(run.stdout) as { answer: string; text: string; citations: unknown[]; diagnostics: { code: string }[] };
    expect(output.answer).toBe(output.text);
    expect(output.citations).toEqual([]);
    expect(output.diagnostics.map((entry) => entry.code)).toEqual(['retrieve.no-match']);
  });

  it('--explain ends with what the model calls cost', async () => {
    const search = await runCliCaptured([...QUERY, '--db', dbPath, '--explain'], { cwd: work });
    expect(search.stdout.trimEnd().split('\n').at(-1)).toBe('Model calls: none.');
    const ask = await runCliCaptured(['ask', 'how', 'do', 'I', 'drop', 'a', 'table', '--db', dbPath, '--explain'], { cwd: work });
    expect(ask.stdout).toMatch(/\n\nSources:\n\[1\] /);
    expect(ask.stdout.trimEnd().split('\n').at(-1)).toBe('Model calls: none.');
  });
});
