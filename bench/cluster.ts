// Many ingest workers and serve replicas on one PostgreSQL database: npm run bench:cluster -- [--workers 3] [--kill-after 300]
// Starts a throwaway PostgreSQL 15 cluster and serves Debian's PostgreSQL docs (postgresql-doc-15)
// on 127.0.0.1. Three `citedocs ingest` processes crawl the site together; one is killed with
// SIGKILL after --kill-after requests; the others finish. Then it reports pages stored, bodies
// fetched more than once, two `citedocs serve` replicas' /search answers compared byte for byte,
// and how long a changed and re-ingested page takes to show up on both.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgresServer } from '../src/testing/postgres-server.js';
import { startStaticServer } from '../src/testing/static-server.js';

const { values } = parseArgs({ options: { workers: { type: 'string' }, 'kill-after': { type: 'string' } } });
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const workerCount = Number(values.workers ?? 3);
const killAfter = Number(values['kill-after'] ?? 300);
const CHANGED = '/sql-vacuum.html';
const MARK = 'Zebrafish maintenance windows';
const QUERIES = ['create an index concurrently', 'what does VACUUM FULL do', 'how to set up streaming replication', 'row level security policy', 'json operators', 'listen notify'];

if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing: apt-get install postgresql-doc-15.`);
const routes: Record<string, { status: number; headers?: Record<string, string>; body?: string }> = {};
const site = await startStaticServer(DOCS, { routes });
const database = await startPostgresServer();
const url = await database.createDatabase('citedocs');
const folder = mkdtempSync(join(tmpdir(), 'citedocs-bench-cluster-'));
const configPath = join(folder, 'citedocs.config.json');
writeFileSync(configPath, JSON.stringify({ crawl: { leaseMs: 10_000 } }));
const children: ChildProcess[] = [];
const cli = (args: readonly string[]) => {
  const child = spawn(process.execPath, ['bin/citedocs.js', ...args, '--db', url, '--config', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, exited, stderr: () => stderr };
};

try {
  const migrated = await cli(['migrate']).exited;
  if (migrated.code !== 0) throw new Error(`citedocs migrate failed:\n${migrated.stderr}`);
  const started = performance.now();
  const workers = Array.from({ length: workerCount }, () => cli(['ingest', site.url, '-q']));
  const victim = workers[workerCount - 1] as (typeof workers)[number];
  const killer = setInterval(() => {
    if (site.requests.length < killAfter) return;
    clearInterval(killer);
    victim.child.kill('SIGKILL');
    console.log(`killed worker ${workerCount} (SIGKILL) after ${site.requests.length} requests to the site`);
  }, 20);
  const ends = await Promise.all(workers.map((worker) => worker.exited));
  clearInterval(killer);
  const seconds = (performance.now() - started) / 1000;
  for (const [index, end] of ends.entries()) if (end.signal === null && end.code !== 0) throw new Error(`worker ${index + 1} failed (${end.code}):\n${end.stderr}`);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
  const pages = await count('SELECT count(*) AS n FROM pages');
  const distinct = await count('SELECT count(DISTINCT url) AS n FROM pages');
  const open = await count('SELECT count(*) AS n FROM frontier f JOIN crawl_runs r ON r.id = f.run_id WHERE NOT f.done AND r.finished_at IS NULL');
  const outcome = (await client.query<{ outcome: string }>('SELECT outcome FROM crawl_runs ORDER BY id DESC LIMIT 1')).rows[0]?.outcome;
  await client.end();
  const fetches = new Map<string, number>();
  for (const path of site.requests) fetches.set(path, (fetches.get(path) ?? 0) + 1);
  const htmlPaths = [...fetches.keys()].filter((path) => path.endsWith('.html') || path.endsWith('/'));
  const twice = [...fetches].filter(([path, times]) => times > 1 && path !== '/' && path !== '/index.html' && !path.startsWith('/robots') && !path.includes('sitemap') && path !== '/llms.txt');
  console.log(`${workerCount} workers (one killed) crawled the PostgreSQL docs in ${seconds.toFixed(1)} s: ${pages} pages stored (${distinct} distinct URLs), last run ${outcome}, ${open} frontier entries left`);
  console.log(`requests ${site.requests.length} for ${htmlPaths.length} distinct pages; bodies fetched twice (not the start page, robots.txt, sitemaps, llms.txt): ${twice.length}${twice.length === 0 ? '' : ` (${twice.map(([path]) => path).slice(0, 8).join(', ')})`}`);

  // Two replicas: byte-identical answers, then a changed page on both.
  const replicas = [cli(['serve', '--port', '0', '--quiet']), cli(['serve', '--port', '0', '--quiet'])];
  const bases = await Promise.all(
    replicas.map(
      (replica) =>
        new Promise<string>((resolve, reject) => {
          const timer = setInterval(() => {
            const match = /chat page (http:\/\/127\.0\.0\.1:\d+)\//.exec(replica.stderr());
            if (match?.[1] !== undefined) {
              clearInterval(timer);
              resolve(match[1]);
            }
          }, 50);
          void replica.exited.then((end) => {
            clearInterval(timer);
            reject(new Error(`a replica exited (${end.code}):\n${end.stderr}`));
          });
        }),
    ),
  );
  const search = async (base: string, query: string) =>
    (await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, limit: 5 }) })).text();
  let identical = 0;
  for (const query of QUERIES) {
    const answers = await Promise.all(bases.map((base) => search(base, query)));
    if (answers.every((answer) => answer === answers[0])) identical += 1;
  }
  console.log(`two serve replicas: ${identical}/${QUERIES.length} /search answers byte-identical`);

  const original = readFileSync(join(DOCS, CHANGED), 'utf8');
  if (!original.includes('</h2>')) throw new Error(`${CHANGED} has no </h2> to add a paragraph after.`);
  routes[CHANGED] = { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: original.replace('</h2>', `</h2><p>${MARK} are announced a week ahead.</p>`) };
  const refresh = await cli(['ingest', site.url, '-q']).exited;
  if (refresh.code !== 0) throw new Error(`the re-ingest failed:\n${refresh.stderr}`);
  const ingested = performance.now();
  let visible = Number.NaN;
  while (performance.now() - ingested < 30_000) {
    const answers = await Promise.all(bases.map((base) => search(base, MARK)));
    if (answers.every((answer) => answer.includes(MARK))) {
      visible = performance.now() - ingested;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const health = await Promise.all(bases.map(async (base) => (await (await fetch(`${base}/healthz`)).json()) as { indexVersion?: number }));
  console.log(`a changed page, re-ingested, was served by both replicas ${Number.isNaN(visible) ? 'NOT within 30 s' : `${(visible / 1000).toFixed(2)} s after the ingest ended`}; index versions ${health.map((entry) => entry.indexVersion).join(', ')}`);
} finally {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await database.stop();
  await site.close();
}
