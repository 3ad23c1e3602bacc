// Link check of search results and answers against the served pages:
//   npm run bench:answer-links -- <site-url> <questions.txt|questions.jsonl> [<site-url> <questions> ...] [--db PATH]
// For each site: ingests it (unless --db already holds it), runs every question through search
// and ask (extractive unless the configuration names an LLM), and checks every URL printed
// (results, citations and links in the answer text) by fetching the page from the site and
// looking for its #anchor among the ids and a[name]s of the HTML as served. The HTTP API and MCP
// return the same JSON as search and ask, so this covers them too. Prints the links checked and
// every one that does not resolve; exits 1 if any does not.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as cheerio from 'cheerio';
import { createEngine } from '../src/engine/engine.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { db: { type: 'string' } } });
if (positionals.length < 2 || positionals.length % 2 !== 0) {
  console.error('usage: npm run bench:answer-links -- <site-url> <questions.txt|.jsonl> [<site-url> <questions> ...] [--db PATH]');
  process.exit(2);
}
const dbPath = values.db ?? join(mkdtempSync(join(tmpdir(), 'citedocs-links-')), 'links.db');
const engine = createEngine({ dbPath });
const ids = new Map<string, Promise<Set<string> | undefined>>();
let failures = 0;

/** The ids of a page as the site serves it, fetched once; undefined when it does not answer 200. */
function servedIds(page: string): Promise<Set<string> | undefined> {
  let found = ids.get(page);
  if (found === undefined) {
    found = fetch(page).then(async (response) => {
      if (!response.ok) return undefined;
      const $ = cheerio.load(await response.text());
      const set = new Set<string>();
      $('[id]').each((_, element) => void set.add($(element).attr('id') ?? ''));
      $('a[name]').each((_, element) => void set.add($(element).attr('name') ?? ''));
      return set;
    });
    ids.set(page, found);
  }
  return found;
}

async function resolves(link: string): Promise<boolean> {
  const [page = '', fragment] = link.split('#');
  const served = await servedIds(page);
  return served !== undefined && (fragment === undefined || fragment === '' || served.has(decodeURIComponent(fragment)));
}

function questionsOf(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);
  return file.endsWith('.jsonl') ? lines.map((line) => (JSON.parse(line) as { query: string }).query) : lines;
}

for (let index = 0; index < positionals.length; index += 2) {
  const site = positionals[index] as string;
  const questions = questionsOf(positionals[index + 1] as string);
  if ((await engine.countPagesUnder(site)) === 0) {
    const report = await engine.ingest(site);
    console.log(`ingested ${site}: ${report.pages} pages, ${report.chunks} passages`);
  }
  let checked = 0;
  const broken: string[] = [];
  for (const question of questions) {
    const { results } = await engine.search(question);
    const response = await engine.ask(question);
    const prose = response.answer.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    const inText = [...prose.matchAll(/https?:\/\/[^\s)\]>]+/g)].map((match) => match[0].replace(/[.,;:]+$/, ''));
    for (const link of [...results.map((result) => result.url), ...response.citations.map((citation) => citation.url), ...inText]) {
      checked += 1;
      if (!(await resolves(link))) broken.push(`${question} → ${link}`);
    }
  }
  failures += broken.length;
  console.log(`${site}: ${questions.length} questions, ${checked} links checked (search results, citations, links in answers), ${broken.length} unresolvable`);
  for (const line of broken) console.log(`  ${line}`);
}
await engine.close();
process.exitCode = failures === 0 ? 0 : 1;
