// HTTP load benchmark: npm run bench:serve -- [--db PATH] [--seconds 15] [--connections 10]
// Runs `citedocs serve` as its own process on 127.0.0.1 over the PostgreSQL 15 docs index
// (crawled from Debian's postgresql-doc-15 into a temporary file when --db is not given), then
// drives POST /search with autocannon for a bounded time and prints requests/s, latency p50/p99
// and errors. The load generator runs in this process, the server in another.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createEngine } from '../src/engine/engine.js';
import { startStaticServer } from '../src/testing/static-server.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } } });
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const seconds = Number(values.seconds ?? 15);
const connections = Number(values.connections ?? 10);

const QUERIES = [
  'create an index concurrently', 'what does VACUUM FULL do', 'how to set up streaming replication', 'what is a partial index',
  'drop a table if it exists', 'change the owner of a database', 'statement_timeout', 'pg_dump a single table', 'json operators',
  'window functions rank', 'how do I create a role with login', 'foreign key on delete cascade', 'explain analyze output',
  'listen notify', 'row level security policy', 'generate_series', 'alter table add column default', 'copy from csv', 'serial vs identity',
  'how does MVCC work',
];

let dbPath = values.db;
if (dbPath === undefined || !existsSync(dbPath)) {
  if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing: apt-get install postgresql-doc-15, or pass --db with an index.`);
  dbPath ??= join(mkdtempSync(join(tmpdir(), 'citedocs-bench-serve-')), 'pg.db');
  const site = await startStaticServer(DOCS);
  const started = performance.now();
  const engine = createEngine({ dbPath });
  const report = await engine.ingest(site.url);
  await engine.close();
  await site.close();
  console.log(`indexed ${report.pages} pages of the PostgreSQL docs in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dbPath}`);
}

const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'serve', '--db', dbPath, '--port', '0', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
const base = await new Promise<string>((resolve, reject) => {
  let stderr = '';
  const timer = setTimeout(() => reject(new Error(`the server did not start in 30 s:\n${stderr}`)), 30_000);
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const match = /chat page (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
    if (match?.[1] !== undefined) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${stderr}`)));
});

try {
  // One request per query first: the first search of a process opens the index.
  for (const query of QUERIES) await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, limit: 5 }) });
  let next = 0;
  const result = await autocannon({
    url: `${base}/search`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: QUERIES[next++ % QUERIES.length], limit: 5 }) }) }],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  console.log(`POST /search on the PostgreSQL docs index, ${connections} connections, ${seconds} s, 127.0.0.1`);
  console.log(`requests/s  mean ${result.requests.average.toFixed(0)}   total ${result.requests.total}`);
  console.log(`latency     p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   max ${result.latency.max} ms`);
  console.log(`errors      ${errors} (${result.errors} connection errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx)`);
  if (errors > 0) process.exitCode = 1;
} finally {
  server.kill('SIGTERM');
}
