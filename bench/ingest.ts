// Ingest benchmark: npm run bench:ingest -- <url|folder> [--serve] [--again] [--db PATH] [--max-pages N]
// Prints pages/s, chunks/s, index size and peak memory. `--serve` serves a folder of HTML on
// 127.0.0.1 and crawls it over HTTP (as a user crawls a site) instead of reading the files.
// `--again` ingests a second time into the same index: what a nightly re-crawl costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/engine/engine.js';
import { startStaticServer } from '../src/testing/static-server.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { serve: { type: 'boolean' }, again: { type: 'boolean' }, db: { type: 'string' }, 'max-pages': { type: 'string' } },
});
const source = positionals[0];
if (source === undefined) {
  console.error('usage: npm run bench:ingest -- <url|folder> [--serve] [--db PATH] [--max-pages N]');
  process.exit(2);
}

const scratch = values.db === undefined ? mkdtempSync(join(tmpdir(), 'citedocs-bench-')) : undefined;
const dbPath = values.db ?? join(scratch as string, 'bench.db');
const server = values.serve === true ? await startStaticServer(resolve(source)) : undefined;
const input = server?.url ?? source;

const engine = createEngine({ dbPath });
const started = performance.now();
const report = await engine.ingest(input, values['max-pages'] === undefined ? {} : { maxPages: Number(values['max-pages']) });
const seconds = (performance.now() - started) / 1000;
const stats = await engine.stats();
let second: { seconds: number; report: typeof report } | undefined;
if (values.again === true) {
  const againStarted = performance.now();
  const againReport = await engine.ingest(input, values['max-pages'] === undefined ? {} : { maxPages: Number(values['max-pages']) });
  second = { seconds: (performance.now() - againStarted) / 1000, report: againReport };
}
engine.close();
await server?.close();

const peakMb = process.resourceUsage().maxRSS / 1024;
const rows: [string, string][] = [
  ['source', server === undefined ? source : `${resolve(source)} served at ${server.url}`],
  ['pages', `${report.pages} (${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ${report.errors.length} errors)`],
  ['chunks', String(report.chunks)],
  ['anchors', String(stats.anchors)],
  ['wall time', `${seconds.toFixed(1)} s`],
  ['pages/s', (report.pages / seconds).toFixed(1)],
  ['chunks/s', (report.chunks / seconds).toFixed(1)],
  ['index size', `${(stats.bytes / 1024 / 1024).toFixed(1)} MB`],
  ['peak memory (RSS)', `${peakMb.toFixed(0)} MB`],
  ['node', process.version],
];
if (second !== undefined) {
  const { report: again, seconds: againSeconds } = second;
  rows.push(
    ['second run', `${againSeconds.toFixed(1)} s, ${(seconds / againSeconds).toFixed(1)}x faster`],
    ['second run pages', `${again.pages} (${again.added} added, ${again.changed} changed, ${again.unchanged} unchanged, ${again.removed} removed)`],
    ['second run bodies', `${again.fetched} fetched`],
  );
}
for (const [name, value] of rows) console.log(`${name.padEnd(18)} ${value}`);
if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
