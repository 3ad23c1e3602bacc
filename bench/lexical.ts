// Lexical search latency on a real index: npm run bench:lexical -- --db PATH --questions FILE.jsonl [--repeat 3]
// Runs every question (jsonl with "query" or "text") through the BM25F index alone and through
// engine.search (retrieval, selection, rows), and prints p50/p95. Ingest the site first, e.g.
// npm run serve:dir -- /usr/share/doc/python3.11/html 8123 & citedocs ingest http://127.0.0.1:8123/ --db py.db
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/core/config.js';
import { createEngine } from '../src/engine/engine.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, questions: { type: 'string' }, repeat: { type: 'string' } } });
if (values.db === undefined || values.questions === undefined) {
  console.error('usage: npm run bench:lexical -- --db PATH --questions FILE.jsonl [--repeat 3]');
  process.exit(2);
}
const dbPath = values.db;
const repeat = Number(values.repeat ?? 3);
const questions = readFileSync(values.questions, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const parsed = JSON.parse(line) as { query?: string; text?: string };
    return parsed.query ?? parsed.text ?? '';
  });
const percentile = (samples: number[], share: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(share * samples.length))] ?? 0;
const report = (label: string, samples: number[]) =>
  console.log(`${label.padEnd(40)} p50 ${percentile(samples, 0.5).toFixed(2).padStart(7)} ms   p95 ${percentile(samples, 0.95).toFixed(2).padStart(7)} ms`);

const config = parseConfig({ dbPath });
const store = createSqliteStore(dbPath, 'read');
const ranking = { fieldWeights: config.retrieve.fieldWeights, ...config.retrieve.lexical };
let started = performance.now();
await store.searchText({ text: 'warm up', limit: 40, ranking });
console.log(`${questions.length} questions × ${repeat}, ${(await store.stats()).chunks} passages; first query (opens the index) ${(performance.now() - started).toFixed(1)} ms`);
const lexical: number[] = [];
for (let round = 0; round < repeat; round += 1) {
  for (const question of questions) {
    started = performance.now();
    await store.searchText({ text: question, limit: config.retrieve.topK, ranking });
    lexical.push(performance.now() - started);
  }
}
await store.close();
report(`BM25F index alone (top ${config.retrieve.topK}, rows read)`, lexical);

const engine = createEngine({ dbPath, embed: { embedder: 'none' } });
await engine.search('warm up', { limit: 10 });
const full: number[] = [];
for (let round = 0; round < repeat; round += 1) {
  for (const question of questions) {
    started = performance.now();
    await engine.search(question, { limit: 10 });
    full.push(performance.now() - started);
  }
}
await engine.close();
report('engine.search (retrieval + selection)', full);
