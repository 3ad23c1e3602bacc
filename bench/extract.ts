// Extraction + chunking benchmark over a folder of HTML files (no HTTP):
//   npm run bench:extract -- <folder> [--max-tokens N]
// Prints pages/s, chunks per page, tokens per chunk (median, p95), headings with an anchor,
// and any heading anchor that is not an id of its page (there must be none).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkPage } from '../src/chunk/chunker.js';
import { extractHtml } from '../src/extract/extract-html.js';
import { loadTokenizer } from '../src/tokenize/tokenizer.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'max-tokens': { type: 'string' } } });
const folder = positionals[0];
if (folder === undefined) {
  console.error('usage: npm run bench:extract -- <folder> [--max-tokens N]');
  process.exit(2);
}
const maxTokens = Number(values['max-tokens'] ?? 400);
const files = readdirSync(folder, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.html?$/i.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name));
const tokenizer = await loadTokenizer('o200k_base');

let extractMs = 0;
let chunkMs = 0;
let headings = 0;
let anchored = 0;
const tokens: number[] = [];
const missing: string[] = [];
for (const file of files) {
  const html = readFileSync(file, 'utf8');
  const url = `http://127.0.0.1/${relative(folder, file)}`;
  const started = performance.now();
  const page = extractHtml(html, url);
  const extracted = performance.now();
  const chunks = chunkPage({ url, title: page.title, markdown: page.markdown, headings: page.headings }, { maxTokens, tokenizer });
  chunkMs += performance.now() - extracted;
  extractMs += extracted - started;
  const ids = new Set(page.anchors);
  for (const heading of page.headings) {
    headings += 1;
    if (heading.anchor === undefined) continue;
    anchored += 1;
    if (!ids.has(heading.anchor)) missing.push(`${relative(folder, file)}#${heading.anchor}`);
  }
  for (const chunk of chunks) tokens.push(chunk.tokenCount);
}
tokens.sort((a, b) => a - b);
const at = (fraction: number) => tokens[Math.min(tokens.length - 1, Math.ceil(fraction * tokens.length) - 1)] ?? 0;
const rows: [string, string][] = [
  ['pages', String(files.length)],
  ['extract', `${(extractMs / 1000).toFixed(1)} s, ${(files.length / (extractMs / 1000)).toFixed(1)} pages/s`],
  ['chunk', `${(chunkMs / 1000).toFixed(1)} s, ${(files.length / (chunkMs / 1000)).toFixed(1)} pages/s`],
  ['chunks', `${tokens.length}, ${(tokens.length / files.length).toFixed(1)} per page`],
  ['tokens per chunk', `median ${at(0.5)}, p95 ${at(0.95)}, max ${tokens.at(-1) ?? 0} (budget ${maxTokens})`],
  ['headings', `${headings}, ${anchored} with an anchor (${((anchored / Math.max(1, headings)) * 100).toFixed(1)}%)`],
  ['anchors not on page', String(missing.length)],
];
for (const [name, value] of rows) console.log(`${name.padEnd(20)} ${value}`);
for (const entry of missing.slice(0, 10)) console.log(`  missing: ${entry}`);
