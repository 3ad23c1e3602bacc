/**
 * The catalog over MCP stdio, against `citedocs mcp` processes, and over streamable HTTP, against
 * `citedocs serve` processes: index_docs is refused unless the server was started with
 * --allow-indexing; with it, a job runs to completion with progress notifications, is listed by
 * `jobs`, and its library is found by resolve_library and read by get_docs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { librarySite, writeSite } from '../../src/testing/catalog-sites.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { type ServeProcess, startServeProcess } from '../../src/testing/serve-process.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

async function connect(dbPath: string, flags: string[]): Promise<Client> {
  const client = new Client({ name: 'citedocs-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'mcp', '--db', dbPath, ...flags], cwd: ROOT, stderr: 'pipe' }));
  return client;
}

describe('MCP catalog tools over stdio', () => {
  let site: StaticServer;
  let dbPath: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    site = await startStaticServer(writeSite(librarySite('Alpha', 4, 'alphaflow')));
    dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-catalog-')), 'index.db');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await site.close();
  });

  it('refuses index_docs unless the server was started with --allow-indexing', async () => {
    // An index must exist for a server without --allow-indexing.
    await runCliCaptured(['ingest', `${site.url}topic-0.html`, '--max-pages', '1', '--library', 'seed', '--db', dbPath, '-q'], { cwd: tmpdir() });
    const client = await connect(dbPath, []);
    clients.push(client);
    const refused = await client.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'alpha', version: '1.0' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/--allow-indexing/);
  }, 60_000);

  it('runs an index_docs job to completion with progress notifications, lists it, then resolves and reads the library', async () => {
    const client = await connect(dbPath, ['--allow-indexing']);
    clients.push(client);
    const progress: string[] = [];
    const done = await client.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'alpha-lib', version: '1.0', wait: true } }, undefined, {
      onprogress: (notification) => progress.push(notification.message ?? ''),
      timeout: 60_000,
    });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toMatch(/Job \d+: complete — alpha-lib@1\.0 .*, 5 pages/);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatch(/pages stored/);
    expect(textOf(await client.callTool({ name: 'jobs', arguments: {} }))).toMatch(/complete — alpha-lib@1\.0/);
    const jobs = await runCliCaptured(['jobs', '--json', '--db', dbPath], { cwd: tmpdir() });
    expect(JSON.parse(jobs.stdout)).toEqual([expect.objectContaining({ state: 'complete', library: 'alpha-lib', version: '1.0', url: site.url })]);

    for (const typed of ['alpha-lib', 'ALPHA_LIB', 'alpha.lib', 'alphalib', 'alpha-lub']) {
      expect(textOf(await client.callTool({ name: 'resolve_library', arguments: { libraryName: typed } }))).toMatch(/best first:\n- alpha-lib \(versions: 1\.0; 5 pages/);
    }
    const docs = textOf(await client.callTool({ name: 'get_docs', arguments: { library: 'alpha-lib', topic: 'connection timeouts for proxies', maxTokens: 300 } }));
    expect(docs).toMatch(/^alpha-lib@1\.0 documentation on "connection timeouts for proxies":/);
    expect(docs).toContain(`${site.url}topic-1.html#connection-timeouts-for-proxies`);
    const unknown = await client.callTool({ name: 'search_docs', arguments: { query: 'timeouts', library: 'alpha-lib', version: '2.0' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/alpha-lib has 1\.0/);
  }, 120_000);

  it('says when a limit ended an index_docs job early, in its text and its structured result', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-limit-')), 'citedocs.config.json');
    writeFileSync(config, JSON.stringify({ crawl: { maxPages: 2 } }));
    const client = await connect(join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-limit-')), 'index.db'), ['--allow-indexing', '--config', config]);
    clients.push(client);
    const done = await client.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'alpha-limited', version: '1.0', wait: true } }, undefined, { timeout: 60_000 });
    expect(textOf(done)).toMatch(/not complete: --max-requests 2 \(setting crawl\.maxPages\) ended it with \d+ URLs left; run index_docs again to continue/);
    expect((done.structuredContent as { job: { stoppedBy?: { limit: string; value: number } } }).job.stoppedBy).toMatchObject({ limit: 'maxPages', value: 2 });
  }, 120_000);
});

/** `citedocs serve` on a free port of 127.0.0.1 over this index. */
function startServe(dbPath: string, flags: string[]): Promise<ServeProcess> {
  return startServeProcess(['--quiet', '--db', dbPath, ...flags], { timeoutMs: 30_000 });
}

describe('MCP catalog tools over streamable HTTP (citedocs serve)', () => {
  let site: StaticServer;
  const servers: ChildProcessWithoutNullStreams[] = [];
  const clients: Client[] = [];
  const connectHttp = async (base: string) => {
    const client = new Client({ name: 'citedocs-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    site = await startStaticServer(writeSite(librarySite('Beta', 4, 'betaflow')));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(servers.map((server) => (server.exitCode === null ? new Promise((resolve) => server.once('exit', resolve)) : undefined)));
    await site.close();
  });

  it('refuses index_docs unless serve was started with --allow-indexing', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-http-')), 'index.db');
    await runCliCaptured(['ingest', `${site.url}topic-0.html`, '--max-pages', '1', '--library', 'seed', '--db', dbPath, '-q'], { cwd: tmpdir() });
    const server = await startServe(dbPath, []);
    servers.push(server.child);
    const client = await connectHttp(server.base);
    const refused = await client.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'beta', version: '1.0' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/--allow-indexing/);
  }, 60_000);

  it('starts on no index with --allow-indexing, runs an index_docs job to completion with progress notifications over HTTP, lists it, and serves the library', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-http-')), 'index.db');
    const server = await startServe(dbPath, ['--allow-indexing']);
    servers.push(server.child);
    const client = await connectHttp(server.base);
    const progress: string[] = [];
    const done = await client.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'beta-lib', version: '2.0', wait: true } }, undefined, {
      onprogress: (notification) => progress.push(notification.message ?? ''),
      timeout: 60_000,
    });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toMatch(/Job \d+: complete — beta-lib@2\.0 .*, 5 pages/);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatch(/pages stored/);
    expect(done.structuredContent).toMatchObject({ job: { state: 'complete', library: 'beta-lib', version: '2.0', pages: 5 } });

    // A second client (each HTTP request has its own MCP server) sees the job and the library.
    const other = await connectHttp(server.base);
    expect(textOf(await other.callTool({ name: 'jobs', arguments: {} }))).toMatch(/complete — beta-lib@2\.0/);
    const docs = textOf(await other.callTool({ name: 'get_docs', arguments: { library: 'beta-lib', topic: 'connection timeouts for proxies', maxTokens: 300 } }));
    expect(docs).toMatch(/^beta-lib@2\.0 documentation on "connection timeouts for proxies":/);
    expect(docs).toContain(`${site.url}topic-1.html#connection-timeouts-for-proxies`);

    // Without wait, the job starts and the call answers at once with its id.
    const started = await other.callTool({ name: 'index_docs', arguments: { url: site.url, library: 'beta-lib', version: '2.1' } });
    expect(textOf(started)).toMatch(/^Started job \d+: indexing /);
  }, 120_000);
});
