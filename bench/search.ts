// Search latency benchmark: npm run bench:search -- [--chunks 100000] [--dim 512] [--db PATH] [--queries 200]
// Builds (once, reused with --db) an index of N passages made from the SciFact abstracts with
// one random unit vector each, then runs SciFact's queries through engine.search and prints
// p50/p95 for BM25 alone, dense alone, hybrid, and hybrid + PRF. The vectors are random because
// embedding 100k passages with the npm-shipped model takes hours on 2 cores; KNN cost does not
// depend on the values. The query embedding is timed apart, with the real USE model.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Chunk, Page } from '../src/core/types.js';
import { type Embedder, normalise } from '../src/embed/embedder.js';
import { createUseEmbedder } from '../src/embed/providers/use.js';
import { createEngine } from '../src/engine/engine.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const { values } = parseArgs({ options: { chunks: { type: 'string' }, dim: { type: 'string' }, db: { type: 'string' }, queries: { type: 'string' } } });
const total = Number(values.chunks ?? 100_000);
const dimension = Number(values.dim ?? 512);
const dbPath = values.db ?? join(mkdtempSync(join(tmpdir(), 'citedocs-bench-search-')), 'bench.db');
const scifact = resolve('../shared/eval/scifact');
const MODEL = `bench-random-${dimension}`;

let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 0.5;
const randomVector = () => normalise(Float32Array.from({ length: dimension }, random));

const corpus = readFileSync(join(scifact, 'corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { _id: string; title: string; text: string });
const queries = readFileSync(join(scifact, 'queries.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text).slice(0, Number(values.queries ?? 200));

if (!existsSync(dbPath)) {
  const started = performance.now();
  const store = createSqliteStore(dbPath, 'write');
  await store.vectors.useModel(MODEL, dimension);
  const perPage = 10;
  for (let pageIndex = 0; pageIndex * perPage < total; pageIndex += 1) {
    const url = `https://bench.example/p${pageIndex}`;
    const source = corpus[pageIndex % corpus.length] ?? { _id: '', title: '', text: '' };
    const sentences = source.text.split(/(?<=\.)\s+/);
    const chunks: Chunk[] = [];
    for (let index = 0; index < perPage && pageIndex * perPage + index < total; index += 1) {
      // Each passage: a window of the abstract plus sentences of other abstracts, so no two are alike.
      const other = corpus[(pageIndex * 7 + index * 13) % corpus.length]?.text.split(/(?<=\.)\s+/) ?? [];
      const text = [...sentences.slice(index % Math.max(sentences.length, 1), (index % Math.max(sentences.length, 1)) + 3), ...other.slice(0, 2)].join(' ');
      chunks.push({ id: `${url}#${index}`, pageUrl: url, pageTitle: source.title, anchor: `s${index}`, headingPath: [source.title, `Part ${index}`], text, tokenCount: Math.ceil(text.length / 4), contentHash: `${pageIndex}:${index}` });
    }
    const page: Page = { url, canonicalUrl: url, title: source.title, markdown: '', headings: [], anchors: chunks.map((chunk) => chunk.anchor ?? ''), contentHash: url, fetchedAt: new Date().toISOString(), source: 'web' };
    await store.upsertPage(page, chunks);
    if (pageIndex % 500 === 499 || (pageIndex + 1) * perPage >= total) {
      const pending = await store.vectors.pendingChunks(100_000);
      await store.vectors.putVectors(MODEL, pending.map((chunk) => ({ chunkId: chunk.id, inputHash: chunk.id, vector: randomVector() })));
    }
  }
  // Closing indexes what waits (the last segment, the packed vector codes), as an ingest leaves them.
  await store.close();
  console.log(`built ${total} passages with ${dimension}-dimension vectors in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dbPath}`);
}

{
  // An index built by an older citedocs is upgraded; both indexes are packed once, as ingest leaves them.
  await createSqliteStore(dbPath, 'write').close();
}

/** Returns a fresh random vector per query: dense search without a model's cost. */
const randomEmbedder: Embedder = {
  modelId: MODEL,
  maxBatchSize: 64,
  dimension: () => Promise.resolve(dimension),
  embed: ({ texts }) => Promise.resolve(texts.map(() => randomVector())),
  close: () => Promise.resolve(),
};

const percentile = (samples: number[], share: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(share * samples.length))] ?? 0;
async function measure(label: string, config: Record<string, unknown>, embedder: Embedder = randomEmbedder): Promise<void> {
  const engine = createEngine({ dbPath, ...config }, { embedder });
  await engine.search(queries[0] ?? 'warm up', { limit: 10 });
  const samples: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await engine.search(query, { limit: 10 });
    samples.push(performance.now() - started);
  }
  await engine.close();
  console.log(`${label.padEnd(34)} p50 ${percentile(samples, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(samples, 0.95).toFixed(1).padStart(6)} ms`);
}

console.log(`${total} passages, ${queries.length} SciFact queries, ${dimension}-dimension vectors`);
{
  // The vector search alone: the 1-bit shortlist and the exact re-scoring, no BM25, no selection.
  const store = createSqliteStore(dbPath, 'read');
  const opened = performance.now();
  await store.vectors.searchVectors(randomVector(), { limit: 40, coarseK: 400 });
  console.log(`${'first vector search (loads codes)'.padEnd(34)} ${(performance.now() - opened).toFixed(1).padStart(10)} ms`);
  const samples: number[] = [];
  for (const _query of queries) {
    const started = performance.now();
    await store.vectors.searchVectors(randomVector(), { limit: 40, coarseK: 400 });
    samples.push(performance.now() - started);
  }
  await store.close();
  console.log(`${'vector KNN alone (shortlist 400)'.padEnd(34)} p50 ${percentile(samples, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(samples, 0.95).toFixed(1).padStart(6)} ms`);
}
await measure('BM25 (search, selection)', { embed: { embedder: 'none' } });
await measure('hybrid (BM25 + dense, weighted)', {});
await measure('hybrid, RRF', { retrieve: { fusion: { method: 'rrf' } } });
await measure('hybrid + PRF', { retrieve: { techniques: { prf: { enabled: true }, confidentMargin: 0 } } });

const use = createUseEmbedder();
await use.embed({ texts: ['warm up'], mode: 'query' });
const embedSamples: number[] = [];
for (const query of queries.slice(0, 50)) {
  const started = performance.now();
  await use.embed({ texts: [query], mode: 'query' });
  embedSamples.push(performance.now() - started);
}
console.log(`${'query embedding (USE, in-process)'.padEnd(34)} p50 ${percentile(embedSamples, 0.5).toFixed(1).padStart(6)} ms   p95 ${percentile(embedSamples, 0.95).toFixed(1).padStart(6)} ms`);
// End to end with the real query model (its vectors meet random ones, so only the time means anything).
const useAsIndexModel: Embedder = { ...randomEmbedder, embed: (request) => use.embed(request) };
await measure('hybrid, query embedded by USE', {}, useAsIndexModel);
await use.close();
