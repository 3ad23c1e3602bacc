// How the index grows: npm run bench:growth -- [--sizes 100000,300000,1000000] [--corpus corpus.jsonl] [--queries queries.jsonl] [--dir DIR] [--reuse] [--search-only] [--rounds N]
// For each size, in a child process of its own (so peak RSS is that size's), builds a synthetic
// index of that many passages from SciFact text (documents repeated with small changes, four
// passages to a page), then prints ingest time, passages/s, file size, peak RSS, cold-start time
// to the first answer (a fresh process), warm BM25F p50/p95, and the time to ingest one more page
// and to re-ingest one changed page through the engine. Default sizes: 100k and 300k (1M is CPU-heavy).
// --reuse keeps an index of that size already in --dir (built by an earlier run) instead of
// building it again; --search-only measures only the cold start and warm BM25F (the index is
// left as it is, so runs compare); --rounds N times every question N times (default 1).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { parseConfig } from '../src/core/config.js';
import type { Chunk, Page } from '../src/core/types.js';
import { createEngine } from '../src/engine/engine.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,300000' },
    corpus: { type: 'string', default: '/work/shared/eval/scifact/corpus.jsonl' },
    queries: { type: 'string', default: '/work/shared/eval/scifact/queries.jsonl' },
    dir: { type: 'string' },
    child: { type: 'string' },
    cold: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    'search-only': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
  },
});
const PASSAGES_PER_PAGE = 4;
const config = parseConfig({});
const ranking = { fieldWeights: config.retrieve.fieldWeights, ...config.retrieve.lexical };
const readJsonl = <T>(path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);
const questions = () => readJsonl<{ text: string }>(values.queries).map((query) => query.text);
const percentile = (samples: number[], share: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(share * samples.length))] ?? 0;
const fileBytes = (path: string) => [path, `${path}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);

if (values.cold !== undefined) {
  // A fresh process: open the index and answer one question.
  const started = performance.now();
  const store = createSqliteStore(values.cold, 'read');
  await store.searchText({ text: questions()[0] ?? 'cancer', limit: config.retrieve.topK, ranking });
  console.log(JSON.stringify({ coldMs: performance.now() - started }));
  await store.close();
} else if (values.child !== undefined) {
  console.log(JSON.stringify(await measure(Number(values.child), values.dir ?? mkdtempSync(join(tmpdir(), 'citedocs-growth-')))));
} else {
  const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'citedocs-growth-'));
  console.log(`synthetic indexes from ${values.corpus} in ${dir}, ${PASSAGES_PER_PAGE} passages to a page, default heap`);
  for (const size of values.sizes.split(',').map(Number)) {
    const flags = [...(values.reuse ? ['--reuse'] : []), ...(values['search-only'] ? ['--search-only'] : []), '--rounds', values.rounds];
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, '--child', String(size), '--dir', dir, '--corpus', values.corpus, '--queries', values.queries, ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    if (child.status !== 0) {
      console.log(`${size} passages: failed (exit ${child.status ?? child.signal})`);
      continue;
    }
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    const number = (key: string, digits = 0) => (result[key] ?? 0).toFixed(digits);
    console.log(
      `${String(size).padStart(8)} passages: ingest ${number('ingestSeconds', 1)} s (${number('passagesPerSecond')} passages/s), file ${number('fileMegabytes')} MB, ` +
        `peak RSS ${number('peakRssMegabytes')} MB, segments ${number('segments')}, cold start to first answer ${number('coldMs')} ms, ` +
        `warm BM25F p50 ${number('warmP50Ms', 1)} ms p95 ${number('warmP95Ms', 1)} ms` +
        (result.addPageMs === undefined ? '' : `, one more page ${number('addPageMs')} ms, one changed page ${number('changePageMs')} ms`),
    );
  }
}

async function measure(size: number, dir: string) {
  const documents = readJsonl<{ _id: string; title: string; text: string }>(values.corpus);
  const dbPath = join(dir, `growth-${size}.db`);
  const reused = values.reuse && existsSync(dbPath);
  if (!reused) {
    rmSync(dbPath, { force: true });
    rmSync(`${dbPath}-wal`, { force: true });
  }
  const passage = (index: number) => {
    const document = documents[index % documents.length] as { title: string; text: string };
    const copy = Math.floor(index / documents.length);
    // Copies differ a little: one word dropped, one marker added, so terms and lengths vary.
    const words = document.text.split(' ');
    if (copy > 0 && words.length > 1) words.splice(copy % words.length, 1);
    return { title: document.title, text: copy > 0 ? `${words.join(' ')} variant${copy % 997}` : document.text };
  };
  const started = performance.now();
  const store = createSqliteStore(dbPath, 'write');
  for (let first = 0; !reused && first < size; first += PASSAGES_PER_PAGE) {
    const url = `https://growth.example/p${first / PASSAGES_PER_PAGE}.html`;
    const texts = Array.from({ length: Math.min(PASSAGES_PER_PAGE, size - first) }, (_, offset) => passage(first + offset));
    const page: Page = {
      url, canonicalUrl: url, title: texts[0]?.title ?? '', markdown: '', headings: [], anchors: [],
      contentHash: `growth:${first}`, fetchedAt: new Date(0).toISOString(), source: 'local',
    };
    const chunks: Chunk[] = texts.map((text, offset) => ({
      id: `${url}#${offset}`, pageUrl: url, pageTitle: page.title, headingPath: [text.title], text: text.text,
      tokenCount: Math.ceil(text.text.length / 4), contentHash: `growth:${first + offset}`,
    }));
    await store.upsertPage(page, chunks);
  }
  // Closing indexes what the last flush left waiting: the build is done when the handle is.
  await store.close();
  // A reused index was not built here: its ingest time is unknown (NaN).
  const ingestSeconds = reused ? Number.NaN : (performance.now() - started) / 1000;

  const cold = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, '--cold', dbPath, '--queries', values.queries], { encoding: 'utf8' });
  const coldMs = (JSON.parse(cold.stdout.trim() || '{}') as { coldMs?: number }).coldMs ?? Number.NaN;

  const reader = createSqliteStore(dbPath, 'read');
  const asked = questions();
  for (const question of asked) await reader.searchText({ text: question, limit: config.retrieve.topK, ranking });
  const samples: number[] = [];
  for (let round = 0; round < Math.max(1, Number(values.rounds)); round += 1) {
    for (const question of asked) {
      const at = performance.now();
      await reader.searchText({ text: question, limit: config.retrieve.topK, ranking });
      samples.push(performance.now() - at);
    }
  }
  await reader.close();
  const searched = { size, fileMegabytes: fileBytes(dbPath) / 1e6, segments: countSegments(dbPath), coldMs, warmP50Ms: percentile(samples, 0.5), warmP95Ms: percentile(samples, 0.95) };
  if (values['search-only']) return { ...searched, ingestSeconds, passagesPerSecond: size / ingestSeconds, peakRssMegabytes: process.resourceUsage().maxRSS / 1024 };

  // Through the engine, as `citedocs ingest` would: chunking, storing, the new segment and any merge due,
  // until a search finds the page (the store indexes what waits before its next read).
  const engine = createEngine({ dbPath, embed: { embedder: 'none' } });
  const newPage = { url: 'https://growth.example/new.html', title: 'A new page', markdown: `# A new page\n\n${passage(7).text}\n\n${passage(8).text}` };
  await engine.ingestDocuments([{ ...newPage, markdown: 'warm up the chunker and tokenizer', url: 'https://growth.example/warm.html' }]);
  await engine.search('warm up the chunker', { limit: 1 });
  let at = performance.now();
  await engine.ingestDocuments([newPage]);
  await engine.search('a new page', { limit: 1 });
  const addPageMs = performance.now() - at;
  at = performance.now();
  await engine.ingestDocuments([{ url: 'https://growth.example/p3.html', title: 'A changed page', markdown: `# A changed page\n\n${passage(100).text}` }]);
  await engine.search('a changed page', { limit: 1 });
  const changePageMs = performance.now() - at;
  await engine.close();

  return {
    size,
    ingestSeconds,
    passagesPerSecond: size / ingestSeconds,
    fileMegabytes: fileBytes(dbPath) / 1e6,
    peakRssMegabytes: process.resourceUsage().maxRSS / 1024,
    segments: countSegments(dbPath),
    coldMs,
    warmP50Ms: percentile(samples, 0.5),
    warmP95Ms: percentile(samples, 0.95),
    addPageMs,
    changePageMs,
  };
}

function countSegments(dbPath: string): number {
  const database = new Database(dbPath, { readonly: true });
  try {
    return database.prepare('SELECT count(*) FROM lexical_segments').pluck().get() as number;
  } finally {
    database.close();
  }
}
