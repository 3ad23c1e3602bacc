/**
 * A `citedocs serve` replica on PostgreSQL when the database goes away for a while: it keeps
 * answering /search with what it has read (the same bytes), /healthz says the database is
 * unreachable and since when, the log says so once and again when it is back; MCP search_docs,
 * /ask and /api/sources answer as before; once the server runs again, the replica serves a
 * page changed and re-ingested meanwhile, without a restart.
 * The --db URL carries a password (trust authentication ignores it): no output shows it.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../src/testing/postgres-server.js';
import { startServeProcess } from '../../src/testing/serve-process.js';
import { docsWorkspace } from '../../src/testing/workspace.js';

const skip = postgresSkipReason();
const PASSWORD = 'Outage-Secret-7781';
const GUIDE = (word: string) => `# Maintenance\n\n## Vacuum\n\nVACUUM reclaims storage held by dead rows; run it ${word}.\n\n## Analyze\n\nANALYZE collects statistics for the planner.\n`;

interface Health {
  status: string;
  pages: number;
  indexVersion?: number;
  database?: string;
  since?: string;
  databaseError?: string;
  failedAttempts?: number;
}

/** Polls `probe` until `done` holds or the deadline passes; the last value either way. */
async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

describe.skipIf(skip !== undefined)(`a serve replica while PostgreSQL is down${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  let url: string;
  let docs: string;
  let serve: ChildProcessWithoutNullStreams | undefined;
  let exited: Promise<number | null> | undefined;
  let output = { stdout: '', stderr: '' };
  const bodies: string[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    url = (await server.createDatabase()).replace('postgres://citedocs@', `postgres://citedocs:${PASSWORD}@`);
    ({ docs } = docsWorkspace({ 'maintenance.md': GUIDE('nightly'), 'index.md': '# Guide\n\nSee [maintenance](maintenance.md).\n' }));
    const writer = createEngine({ dbPath: url });
    await writer.ingest(docs, { baseUrl: 'https://docs.example/' });
    await writer.close();
  }, 60_000);
  afterAll(async () => {
    serve?.kill('SIGTERM');
    await exited;
    await server?.stop();
  });

  const startServe = async (): Promise<string> => {
    const started = await startServeProcess(['--workers', '1', '--db', url], { env: { ...process.env, CITEDOCS_LOG: 'info,index=debug' }, timeoutMs: 30_000 });
    serve = started.child;
    exited = started.exited;
    output = started.output;
    return started.base;
  };
  const search = async (base: string) => {
    const response = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'when to run vacuum', limit: 3 }) });
    const body = await response.text();
    bodies.push(body);
    return { status: response.status, body };
  };
  const ask = async (base: string) => {
    const response = await fetch(`${base}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'when to run vacuum' }) });
    const body = await response.text();
    bodies.push(body);
    return { status: response.status, body };
  };
  /** An agent's search_docs over MCP (streamable HTTP): its text. */
  const searchDocs = async (base: string) => {
    const client = new Client({ name: 'outage-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const result = await client.callTool({ name: 'search_docs', arguments: { query: 'when to run vacuum', maxTokens: 300 } });
      const text = (result.content as { type: string; text: string }[]).map((part) => part.text).join('');
      bodies.push(text);
      return { isError: result.isError === true, text };
    } finally {
      await client.close();
    }
  };
  const sourcesOverview = async (base: string) => {
    const response = await fetch(`${base}/api/sources`);
    const body = await response.text();
    bodies.push(body);
    return { status: response.status, body };
  };
  const health = async (base: string) => {
    const body = await (await fetch(`${base}/healthz`)).text();
    bodies.push(body);
    return JSON.parse(body) as Health;
  };

  it('answers /search with the same bytes and says so in /healthz while the database is down, then serves a page changed meanwhile once it is back', async () => {
    const base = await startServe();
    const before = await search(base);
    expect(before.status).toBe(200);
    expect(before.body).toContain('nightly');
    const overview = await sourcesOverview(base);
    expect(overview.status).toBe(200);
    const answered = await ask(base);
    const agent = await searchDocs(base);
    expect(agent).toMatchObject({ isError: false, text: expect.stringContaining('nightly') as string });
    expect(answered.status).toBe(200);
    const reachable = await health(base);
    expect(reachable).toMatchObject({ status: 'ok', database: 'reachable' });
    const version = reachable.indexVersion ?? 0;
    expect(version).toBeGreaterThan(0);

    await server.shutDown();
    // The replica notices at its next look at the database (a /healthz reads the index size).
    const down = await pollUntil(() => health(base), (entry) => entry.database === 'unreachable', 10_000);
    expect(down).toMatchObject({ status: 'ok', database: 'unreachable', indexVersion: version, pages: reachable.pages });
    expect(Date.parse(down.since ?? '')).not.toBeNaN();
    expect(down.failedAttempts).toBeGreaterThanOrEqual(1);
    for (let attempt = 0; attempt < 5; attempt += 1) expect(await search(base)).toEqual(before);
    // An answer (extractive: no LLM here) checks its links against pages it read before; the chat page's overview is the one read before.
    expect(await ask(base)).toEqual(answered);
    expect(await sourcesOverview(base)).toEqual(overview);
    expect(await searchDocs(base)).toEqual(agent);
    // A search over words this replica never read cannot be answered from memory: 503, saying why.
    const unseen = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'planner statistics', limit: 3 }) });
    const unseenBody = await unseen.text();
    bodies.push(unseenBody);
    expect(unseen.status).toBe(503);
    expect(JSON.parse(unseenBody)).toMatchObject({ error: 'index_unavailable', message: expect.stringMatching(/^postgres:\/\/citedocs:\*\*\*@127\.0\.0\.1:\d+\/\w+ is unreachable, and .* is not among what this process has read/) as string });
    // Retries with backoff go on while it is down: the answer stays the same.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await search(base)).toEqual(before);

    await server.restart();
    writeFileSync(join(docs, 'maintenance.md'), GUIDE('weekly after bulk deletes'));
    const writer = createEngine({ dbPath: url });
    await writer.ingest(docs, { baseUrl: 'https://docs.example/' });
    await writer.close();
    const changed = await pollUntil(() => search(base), (answer) => answer.body.includes('weekly after bulk deletes'), 15_000);
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('weekly after bulk deletes');
    const back = await health(base);
    expect(back).toMatchObject({ status: 'ok', database: 'reachable' });
    expect(back.indexVersion).toBeGreaterThan(version);
    expect(back.since).toBeUndefined();

    serve?.kill('SIGTERM');
    expect(await exited).toBe(0);
    const logs = output.stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg?: string; stage?: string; db?: string });
    const unreachable = logs.filter((log) => log.msg?.startsWith('database unreachable') === true);
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatchObject({ stage: 'index', db: expect.stringContaining('citedocs:***@127.0.0.1') as string });
    expect(logs.some((log) => log.msg === 'database reachable again')).toBe(true);
    // The serve banner, the logs and every answer name the database without its password.
    expect(output.stderr).toContain(`serving postgres://citedocs:***@127.0.0.1:${server.port}/`);
    for (const text of [output.stdout, output.stderr, ...bodies]) expect(text).not.toContain(PASSWORD);
  }, 120_000);
});
