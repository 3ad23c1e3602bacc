// HTTP load benchmark over replicas: npm run bench:serve-replicas -- [--db PATH|postgres://…] [--seconds 15] [--connections 10] [--replicas 2] [--postgres]
// Runs `citedocs serve` as its own process on 127.0.0.1 over the PostgreSQL 15 docs index
// (crawled from Debian's postgresql-doc-15 into a temporary file when --db is not given), then
// drives POST /search with autocannon for a bounded time and prints requests/s, latency p50/p99
// and errors. The load generator runs in this process, the servers in others. --replicas N runs
// N servers on the same index, the connections split evenly between them (requests/s summed,
// latency the worst replica's); --postgres puts the index in a throwaway PostgreSQL 15 cluster.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createEngine } from '../src/engine/engine.js';
import { startPostgresServer } from '../src/testing/postgres-server.js';
import { startStaticServer } from '../src/testing/static-server.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, replicas: { type: 'string' }, postgres: { type: 'boolean' } } });
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const seconds = Number(values.seconds ?? 15);
const connections = Number(values.connections ?? 10);
const replicaCount = Number(values.replicas ?? 2);
const cluster = values.postgres === true ? await startPostgresServer() : undefined;

const QUERIES = [
  'create an index concurrently', 'what does VACUUM FULL do', 'how to set up streaming replication', 'what is a partial index',
  'drop a table if it exists', 'change the owner of a database', 'statement_timeout', 'pg_dump a single table', 'json operators',
  'window functions rank', 'how do I create a role with login', 'foreign key on delete cascade', 'explain analyze output',
  'listen notify', 'row level security policy', 'generate_series', 'alter table add column default', 'copy from csv', 'serial vs identity',
  'how does MVCC work',
];

let dbPath = cluster === undefined ? values.db : await cluster.createDatabase('bench');
if (dbPath === undefined || cluster !== undefined || (!/^postgres(ql)?:\/\//.test(dbPath) && !existsSync(dbPath))) {
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

const startServer = async (): Promise<{ server: ChildProcess; base: string }> => {
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'serve', '--db', dbPath as string, '--port', '0', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
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
  return { server, base };
};
const servers = await Promise.all(Array.from({ length: replicaCount }, () => startServer()));

try {
  // One request per query first: the first search of a process opens the index. Replicas must agree byte for byte.
  let disagreements = 0;
  for (const query of QUERIES) {
    const answers = await Promise.all(
      servers.map(async ({ base }) => (await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, limit: 5 }) })).text()),
    );
    if (answers.some((answer) => answer !== answers[0])) disagreements += 1;
  }
  let next = 0;
  const results = await Promise.all(
    servers.map(({ base }, index) =>
      autocannon({
        url: `${base}/search`,
        method: 'POST',
        connections: Math.floor(connections / replicaCount) + (index < connections % replicaCount ? 1 : 0),
        duration: seconds,
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: QUERIES[next++ % QUERIES.length], limit: 5 }) }) }],
      }),
    ),
  );
  const sum = (pick: (result: autocannon.Result) => number) => results.reduce((total, result) => total + pick(result), 0);
  const worst = (pick: (result: autocannon.Result) => number) => Math.max(...results.map(pick));
  const errors = sum((result) => result.errors + result.timeouts + result.non2xx);
  const backend = cluster === undefined ? (dbPath.startsWith('postgres') ? 'PostgreSQL' : 'SQLite') : 'PostgreSQL 15 (throwaway cluster)';
  console.log(`POST /search on the PostgreSQL docs index (${backend}), ${replicaCount} replica${replicaCount === 1 ? '' : 's'}, ${connections} connections, ${seconds} s, 127.0.0.1`);
  console.log(`requests/s  mean ${sum((result) => result.requests.average).toFixed(0)}   total ${sum((result) => result.requests.total)}`);
  console.log(`latency     p50 ${worst((result) => result.latency.p50)} ms   p99 ${worst((result) => result.latency.p99)} ms   max ${worst((result) => result.latency.max)} ms`);
  console.log(`errors      ${errors} (${sum((result) => result.errors)} connection errors, ${sum((result) => result.timeouts)} timeouts, ${sum((result) => result.non2xx)} non-2xx)`);
  if (replicaCount > 1) console.log(`replicas    ${QUERIES.length - disagreements}/${QUERIES.length} warm-up answers byte-identical across replicas`);
  if (errors > 0 || disagreements > 0) process.exitCode = 1;
} finally {
  for (const { server } of servers) server.kill('SIGTERM');
  if (cluster !== undefined) {
    await Promise.all(servers.map(({ server }) => new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(undefined)))));
    await cluster.stop();
  }
}
