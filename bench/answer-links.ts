// Link check of answers: npm run bench:answer-links -- <site-url> <questions.txt> [--db PATH]
// Ingests the site (unless --db already holds it), asks every question (extractive unless the
// configuration names an LLM), and checks every link of every answer against the index: the page
// was ingested and its #anchor exists on it. Prints the links checked and every unresolvable one.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/engine/engine.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { db: { type: 'string' } } });
const [site, file] = positionals;
if (site === undefined || file === undefined) {
  console.error('usage: npm run bench:answer-links -- <site-url> <questions.txt> [--db PATH]');
  process.exit(2);
}
const dbPath = values.db ?? join(mkdtempSync(join(tmpdir(), 'citedocs-links-')), 'links.db');
const engine = createEngine({ dbPath });
if (engine.countPagesUnder(site) === 0) {
  const report = await engine.ingest(site);
  console.log(`ingested ${report.pages} pages, ${report.chunks} passages`);
}
const questions = readFileSync(file, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);
const store = createSqliteStore(dbPath, 'read');
let checked = 0;
const broken: string[] = [];
for (const question of questions) {
  const response = await engine.ask(question);
  const prose = response.answer.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/https?:\/\/[^\s)\]>]+/g)].map((match) => match[0].replace(/[.,;:]+$/, ''));
  for (const link of [...links, ...response.citations.map((citation) => citation.url)]) {
    checked += 1;
    const [page = '', fragment] = link.split('#');
    const stored = store.resolvePageUrl(page);
    const ok = stored !== undefined && (fragment === undefined || store.anchorsOf(stored).has(decodeURIComponent(fragment)));
    if (!ok) broken.push(`${question} → ${link}`);
  }
  console.log(`${response.citations.length} citations, ${links.length} links in the text: ${question}`);
}
store.close();
await engine.close();
console.log(`\n${questions.length} questions, ${checked} links checked, ${broken.length} unresolvable`);
for (const line of broken) console.log(`  ${line}`);
