// HTTP load benchmark over replicas: npm run bench:serve-replicas -- [--db PATH|postgres://…] [--seconds 15] [--connections 10] [--replicas 2] [--postgres]
// Runs `citedocs serve` as its own process on 127.0.0.1 over the PostgreSQL 15 docs index
// (crawled from Debian's postgresql-doc-15 into a temporary file when --db is not given), then
// drives POST /search with autocannon for a bounded time and prints requests/s, latency p50/p99
// and errors. The load generator runs in this process, the servers in others. --replicas N runs
// N servers on the same index, the connections split evenly between them (requests/s summed,
// latency the worst replica's); --postgres puts the index in a throwaway PostgreSQL 15 cluster.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startPostgresServer } from '../src/testing/postgres-server.js';
import { startServeProcess } from '../src/testing/serve-process.js';
import { indexPostgresDocs, QUERIES } from './postgres-docs.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, replicas: { type: 'string' }, postgres: { type: 'boolean' } } });
const seconds = Number(values.seconds ?? 15);
const connections = Number(values.connections ?? 10);
const replicaCount = Number(values.replicas ?? 2);
const cluster = values.postgres === true ? await startPostgresServer() : undefined;

const given = cluster === undefined ? values.db : await cluster.createDatabase('bench');
// A throwaway cluster's database is new: always crawled. A given index is served as it is.
const dbPath = given === undefined || cluster !== undefined || (!/^postgres(ql)?:\/\//.test(given) && !existsSync(given)) ? await indexPostgresDocs(given) : given;

const startServer = () => startServeProcess(['--db', dbPath, '--quiet'], { timeoutMs: 30_000 });
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
  await Promise.all(servers.map((server) => server.stop()));
  await cluster?.stop();
}
