// Extraction + chunking benchmark and audit over a folder of HTML files (no HTTP):
//   npm run bench:extract -- <folder> [--max-tokens N] [--show N] [--limit N]
// Prints pages/s, chunks per page, tokens per chunk, and an audit of the anchors made
// independently of the extractor, from the HTML as served:
// - recorded anchors missing from their page: chunk anchors that are no id/name of the page (must be 0);
// - sections that can be cited: headings with an id and text of their own (body before the next
//   heading) whose id keys at least one passage (target ≥ 99%);
// - titles shared by more than 5% of pages, and chrome (permalink glyphs, ¶, [source]) in titles
//   or heading paths (must be none).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { chunkPage } from '../src/chunk/chunker.js';
import { extractHtml } from '../src/extract/extract-html.js';
import { loadTokenizer } from '../src/tokenize/tokenizer.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'max-tokens': { type: 'string' }, show: { type: 'string' }, limit: { type: 'string' } } });
const folder = positionals[0];
if (folder === undefined) {
  console.error('usage: npm run bench:extract -- <folder> [--max-tokens N] [--show N]');
  process.exit(2);
}
const maxTokens = Number(values['max-tokens'] ?? 400);
const show = Number(values.show ?? 10);
const files = readdirSync(folder, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.html?$/i.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name))
  .sort()
  .slice(0, values.limit === undefined ? undefined : Number(values.limit));
const tokenizer = await loadTokenizer('o200k_base');

const CHROME = /[\uf0c1¶§\u{1F517}]|\[source\]/u;
let extractMs = 0;
let chunkMs = 0;
let headings = 0;
let anchored = 0;
let expected = 0;
let cited = 0;
let chunkCount = 0;
const tokens: number[] = [];
const missing: string[] = [];
const uncited: string[] = [];
const chrome: string[] = [];
const titles = new Map<string, number>();
for (const file of files) {
  const html = readFileSync(file, 'utf8');
  const path = relative(folder, file);
  const url = `http://127.0.0.1/${path}`;
  const started = performance.now();
  const page = extractHtml(html, url);
  const extracted = performance.now();
  const chunks = chunkPage({ url, title: page.title, markdown: page.markdown, headings: page.headings }, { maxTokens, tokenizer });
  chunkMs += performance.now() - extracted;
  extractMs += extracted - started;
  titles.set(page.title, (titles.get(page.title) ?? 0) + 1);
  if (CHROME.test(page.title)) chrome.push(`${path}: title "${page.title}"`);
  for (const heading of page.headings) {
    headings += 1;
    if (heading.anchor !== undefined) anchored += 1;
  }
  const served = servedIds(html);
  const keyed = new Set<string>();
  for (const chunk of chunks) {
    chunkCount += 1;
    tokens.push(chunk.tokenCount);
    if (chunk.anchor !== undefined) {
      keyed.add(chunk.anchor);
      if (!served.has(chunk.anchor)) missing.push(`${path}#${chunk.anchor}`);
    }
    const trail = chunk.headingPath.join(' > ');
    if (CHROME.test(trail)) chrome.push(`${path}: heading path "${trail}"`);
  }
  for (const section of citableSections(html)) {
    expected += 1;
    if (keyed.has(section.id)) cited += 1;
    else uncited.push(`${path}#${section.id} (${section.text.slice(0, 60)})`);
  }
}
tokens.sort((a, b) => a - b);
const at = (fraction: number) => tokens[Math.min(tokens.length - 1, Math.ceil(fraction * tokens.length) - 1)] ?? 0;
const shared = [...titles].filter(([, count]) => count > Math.max(1, files.length * 0.05)).sort((a, b) => b[1] - a[1]);
const percent = (part: number, whole: number) => `${((part / Math.max(1, whole)) * 100).toFixed(1)}%`;
const rows: [string, string][] = [
  ['pages', String(files.length)],
  ['extract', `${(extractMs / 1000).toFixed(1)} s, ${(files.length / (extractMs / 1000)).toFixed(1)} pages/s`],
  ['chunk', `${(chunkMs / 1000).toFixed(1)} s, ${(files.length / (chunkMs / 1000)).toFixed(1)} pages/s`],
  ['chunks', `${chunkCount}, ${(chunkCount / files.length).toFixed(1)} per page`],
  ['tokens per chunk', `median ${at(0.5)}, p95 ${at(0.95)}, max ${tokens.at(-1) ?? 0} (budget ${maxTokens})`],
  ['headings', `${headings}, ${anchored} with an anchor (${percent(anchored, headings)})`],
  ['anchors not on page', String(missing.length)],
  ['citable sections', `${cited} of ${expected} key a passage (${percent(cited, expected)})`],
  ['shared titles', shared.length === 0 ? 'none over 5% of pages' : shared.map(([title, count]) => `"${title}" ×${count}`).join(', ')],
  ['chrome in titles', String(chrome.length)],
];
for (const [name, value] of rows) console.log(`${name.padEnd(20)} ${value}`);
for (const entry of missing.slice(0, show)) console.log(`  missing: ${entry}`);
for (const entry of uncited.slice(0, show)) console.log(`  not cited: ${entry}`);
for (const entry of chrome.slice(0, show)) console.log(`  chrome: ${entry}`);

/** Every id and a[name] of the page as served. */
function servedIds(html: string): Set<string> {
  const $ = cheerio.load(html);
  const ids = new Set<string>();
  $('[id]').each((_, element) => void ids.add($(element).attr('id') ?? ''));
  $('a[name]').each((_, element) => void ids.add($(element).attr('name') ?? ''));
  ids.delete('');
  return ids;
}

/**
 * The sections a reader can be sent to, read from the HTML by rules of their own (not the
 * extractor's): a visible h1–h6 outside navigation with text, whose id sits on the heading, on
 * an `<a>`/`<span>` inside it, on an empty `<a>` just before it, or on the enclosing
 * section/div it opens; and that has text of its own before the next heading or anchored entry.
 */
function citableSections(html: string): { id: string; text: string }[] {
  const $ = cheerio.load(html);
  $('script, style, nav, [role=navigation], .sphinxsidebar, .related, .navigation, #MSearchResults, .ttc, [hidden], [style*="display:none"], [style*="display: none"]').remove();
  const sections: { id: string; text: string }[] = [];
  // Anchored entries (a dt, table row or list item that carries an id or starts with an <a name>) end the text of the heading before them.
  const isEntry = (element: Element) => {
    const first = $(element).children().first();
    return ($(element).attr('id') !== undefined || (first.is('a[id], a[name]') && first.text().trim() === '') || $(element).children('td').first().children().first().is('a[id], a[name]'));
  };
  const all = $('h1, h2, h3, h4, h5, h6, dt, tr, li').toArray().filter((element) => /^h[1-6]$/.test(element.name) || isEntry(element));
  all.forEach((element, index) => {
    if (!/^h[1-6]$/.test(element.name)) return;
    const heading = $(element);
    const text = heading.text().replace(/[\s¶\uf0c1◆]+/g, ' ').trim();
    if (text === '') return;
    const id = anchorOf($, heading);
    if (id === undefined) return;
    if (!hasOwnText($, element, all[index + 1])) return;
    sections.push({ id, text });
  });
  return sections;
}

function anchorOf($: cheerio.CheerioAPI, heading: cheerio.Cheerio<Element>): string | undefined {
  const own = heading.attr('id');
  if (own) return own;
  const inner = heading.find('a[id], a[name], span[id]').first();
  const innerId = inner.attr('id') ?? inner.attr('name');
  if (innerId) return innerId;
  const previous = heading.prev();
  if (previous.is('a') && previous.text().trim() === '') {
    const id = previous.attr('id') ?? previous.attr('name');
    if (id) return id;
  }
  const parent = heading.parent();
  if (parent.is('section, div') && parent.attr('id') && parent.children('h1, h2, h3, h4, h5, h6').first().get(0) === heading.get(0)) return parent.attr('id');
  return undefined;
}

/** Whether text (not only whitespace and headings) follows the heading before the next heading. */
function hasOwnText($: cheerio.CheerioAPI, heading: Element, next: Element | undefined): boolean {
  let text = '';
  // Walk in document order from after the heading to the next heading.
  const advance = (current: AnyNode): AnyNode | null => {
    let cursor: AnyNode | null = current;
    while (cursor !== null) {
      if (cursor.nextSibling !== null) return cursor.nextSibling;
      cursor = cursor.parent;
    }
    return null;
  };
  let node = advance(heading);
  let steps = 0;
  while (node !== null && steps < 5000 && text.length < 20) {
    steps += 1;
    if (node === next) break;
    if (node.type === 'tag' && next !== undefined && containsNode(node, next)) {
      node = node.children[0] ?? advance(node);
      continue;
    }
    text += $(node).text().replace(/\s+/g, '');
    node = advance(node);
  }
  return text.length > 0;
}

function containsNode(ancestor: Element, node: AnyNode): boolean {
  let cursor: AnyNode | null = node;
  while (cursor !== null) {
    if (cursor === ancestor) return true;
    cursor = cursor.parent;
  }
  return false;
}
