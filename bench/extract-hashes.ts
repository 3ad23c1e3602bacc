// One hash of the whole extractHtml output (markdown, headings, anchors, links, title, …) per
// page, to prove a change to the extract stage leaves its output byte-identical:
//   npx tsx bench/extract-hashes.ts <out.txt> <folder>...   (run before and after, then `cmp`)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractHtml } from '../src/extract/extract-html.js';

const [out, ...folders] = process.argv.slice(2);
if (out === undefined || folders.length === 0) {
  console.error('usage: npx tsx bench/extract-hashes.ts <out.txt> <folder>...');
  process.exit(2);
}
const lines: string[] = [];
let extractMs = 0;
for (const folder of folders) {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.html?$/i.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const html = readFileSync(file, 'utf8');
    const started = performance.now();
    const page = extractHtml(html, `http://127.0.0.1/${relative(folder, file)}`);
    extractMs += performance.now() - started;
    lines.push(`${createHash('sha256').update(JSON.stringify(page)).digest('hex')} ${file}`);
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${lines.length} pages hashed into ${out}; extract ${(extractMs / 1000).toFixed(1)} s`);
