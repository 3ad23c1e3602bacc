// HTTP load benchmark: npm run bench:serve -- [--db PATH] [--seconds 15] [--connections 10] [--workers 1,2] [--during-ingest]
// Runs `citedocs serve --workers N` as its own process on 127.0.0.1 over the PostgreSQL 15 docs
// index (crawled from Debian's postgresql-doc-15 into a temporary file when --db is not given),
// then drives POST /search with autocannon for a bounded time and prints requests/s, latency
// p50/p99 and errors, for each worker count given (and the speed-up over the first).
// --during-ingest: then runs the load again while `citedocs ingest` (another process) re-crawls the
// site with every page changed, and prints that p99 beside the idle one, and the errors.
// The load generator runs in this process, the servers and the ingest in others.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startServeProcess } from '../src/testing/serve-process.js';
import { startStaticServer } from '../src/testing/static-server.js';
import { DOCS, indexPostgresDocs, QUERIES } from './postgres-docs.js';

const { values } = parseArgs({
  options: { db: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, workers: { type: 'string' }, 'during-ingest': { type: 'boolean' } },
});
const seconds = Number(values.seconds ?? 15);
const connections = Number(values.connections ?? 10);
const workerCounts = (values.workers ?? '1').split(',').map(Number);
if (workerCounts.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--workers ${values.workers}: give worker counts like 1 or 1,2.`);

const CLI = ['--import', 'tsx', 'src/interfaces/cli/bin.ts'];

const index = values.db === undefined || !existsSync(values.db) ? await indexPostgresDocs(values.db) : values.db;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime, in clock ticks (100 a second on Linux): fields 14 and 15 of stat, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The processes `citedocs serve` runs as: itself, and its workers when it has any. */
function serverPids(pid: number): { primary: number; workers: number[] } {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return { primary: pid, workers: children === '' ? [] : children.split(' ').map(Number) };
  } catch {
    return { primary: pid, workers: [] };
  }
}

/** `citedocs serve --workers N` on a free port; resolves with its address (its one stdout line). */
async function startServer(workers: number): Promise<{ base: string; pid: number; stop: () => Promise<unknown> }> {
  const server = await startServeProcess(['--db', index, '--quiet', '--workers', String(workers)], { timeoutMs: 60_000 });
  return { base: server.base, pid: server.child.pid ?? 0, stop: server.stop };
}

interface Load {
  /** Mean size of an answer: answers that shrink while an ingest runs have lost passages. */
  bytesPerAnswer: number;
  /** Where the CPU went, per request: a speed-up is bounded by the cores the serving processes can get. */
  cpu: string;
  requestsPerSecond: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  detail: string;
}

/** POST /search with the queries in turn, for `seconds` or until `until` settles. */
async function load(base: string, serverPid: number, workers: number, until?: Promise<unknown>): Promise<Load> {
  // Every query once to every worker first: the first search of a worker opens the index, and the
  // first of each query reads its postings. Each on a new connection, which the cluster hands to
  // the workers in turn, so `workers` requests in a row reach each worker once.
  for (const query of QUERIES) {
    for (let copy = 0; copy < workers; copy += 1) {
      await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ query, limit: 5 }) });
    }
  }
  const pids = serverPids(serverPid);
  const serverCpu = () => [pids.primary, ...pids.workers].map((pid) => cpuSeconds(pid) ?? Number.NaN);
  const serverBefore = serverCpu();
  const clientBefore = process.cpuUsage();
  let next = 0;
  const instance = autocannon(
    {
      url: `${base}/search`,
      method: 'POST',
      connections,
      duration: until === undefined ? seconds : 24 * 3600,
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: QUERIES[next++ % QUERIES.length], limit: 5 }) }) }],
    },
    () => undefined,
  );
  const result = await new Promise<autocannon.Result>((resolve) => {
    instance.once('done', resolve);
    void until?.finally(() => instance.stop());
  });
  const serverAfter = serverCpu();
  const client = process.cpuUsage(clientBefore);
  const perRequest = (cpu: number) => ((cpu * 1000) / Math.max(result.requests.total, 1)).toFixed(2);
  const used = serverAfter.map((after, index) => after - (serverBefore[index] ?? 0));
  const [primaryCpu = 0, ...workersCpu] = used;
  // Without workers the primary is what serves; with them it only hands connections over.
  const servingCpu = pids.workers.length === 0 ? primaryCpu : workersCpu.reduce((sum, cpu) => sum + cpu, 0);
  return {
    cpu: `CPU ms per request: serving ${perRequest(servingCpu)}${pids.workers.length === 0 ? '' : `, primary ${perRequest(primaryCpu)}`}, load generator ${perRequest((client.user + client.system) / 1e6)}`,
    bytesPerAnswer: result.throughput.total / Math.max(result.requests.total, 1),
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    detail: `${result.errors} connection errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
  };
}

function print(label: string, result: Load): void {
  console.log(`${label}`);
  console.log(`  requests/s  mean ${result.requestsPerSecond.toFixed(0)}   total ${result.total}   ${(result.bytesPerAnswer / 1024).toFixed(1)} KB per answer`);
  console.log(`  latency     p50 ${result.p50} ms   p99 ${result.p99} ms   max ${result.max} ms`);
  console.log(`  errors      ${result.errors} (${result.detail})`);
  console.log(`  ${result.cpu}`);
}

/** A copy of the docs with the first paragraph of every page changed, served where the index crawled them. */
async function changedSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const database = new Database(index, { readonly: true });
  const first = database.prepare('SELECT url FROM pages ORDER BY id LIMIT 1').pluck().get() as string | undefined;
  database.close();
  if (first === undefined) throw new Error(`${index} holds no pages to re-crawl.`);
  const root = new URL('/', first);
  const copy = mkdtempSync(join(tmpdir(), 'citedocs-bench-site-'));
  cpSync(DOCS, copy, { recursive: true });
  const stamp = new Date().toISOString();
  for (const name of readdirSync(copy).filter((file) => file.endsWith('.html'))) {
    const file = join(copy, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/<p(\s[^>]*)?>/, (paragraph) => `${paragraph}Revised ${stamp}. `));
  }
  const site = await startStaticServer(copy, { port: Number(root.port) });
  return {
    url: site.url,
    close: async () => {
      await site.close();
      rmSync(copy, { recursive: true, force: true });
    },
  };
}

/** `citedocs ingest` of the changed site into the served index, in its own process. */
function reingest(url: string): { done: Promise<{ code: number | null; seconds: number; stderr: string }> } {
  const started = performance.now();
  const child = spawn(process.execPath, [...CLI, 'ingest', url, '--db', index, '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { done: new Promise((resolve) => child.once('exit', (code) => resolve({ code, seconds: (performance.now() - started) / 1000, stderr }))) };
}

const load1 = loadavg().map((value) => value.toFixed(2)).join(', ');
console.log(`POST /search on the PostgreSQL docs index (${index}), ${connections} connections, 127.0.0.1; load average before: ${load1}`);
const idle: Load[] = [];
for (const workers of workerCounts) {
  const server = await startServer(workers);
  try {
    const result = await load(server.base, server.pid, workers);
    idle.push(result);
    print(`--workers ${workers}, ${seconds} s idle`, result);
    if (result.errors > 0) process.exitCode = 1;
    if (values['during-ingest'] === true) {
      const site = await changedSite();
      const ingest = reingest(site.url);
      const during = await load(server.base, server.pid, workers, ingest.done);
      const outcome = await ingest.done;
      await site.close();
      print(`--workers ${workers}, while \`citedocs ingest\` re-crawls every page changed (${outcome.seconds.toFixed(1)} s, exit ${outcome.code})`, during);
      console.log(`  p99 during ingest / idle p99: ${(during.p99 / Math.max(result.p99, 1)).toFixed(2)}x (target < 5x), requests/s ${(during.requestsPerSecond / result.requestsPerSecond).toFixed(2)}x idle`);
      if (outcome.code !== 0) console.log(`  the ingest failed:\n${outcome.stderr}`);
      if (during.errors > 0 || outcome.code !== 0) process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}
const [base] = idle;
for (const [position, result] of idle.entries()) {
  if (position > 0 && base !== undefined) console.log(`--workers ${workerCounts[position]}: ${(result.requestsPerSecond / base.requestsPerSecond).toFixed(2)}x the requests/s of --workers ${workerCounts[0]}`);
}
console.log(`load average after: ${loadavg().map((value) => value.toFixed(2)).join(', ')}`);
