/**
 * The tokenizer as the installed package runs it: `npm run build` bundles each encoding
 * (scripts/bundle-encodings.ts) so the package needs no gpt-tokenizer. The bundle must count
 * exactly as gpt-tokenizer does (budgets and eval figures depend on it) and run on its own.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as cheerio from 'cheerio';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEncodings, ENCODINGS } from '../../scripts/bundle-encodings.js';

/** Debian's python3.11-doc (installed by .ci/run): prose, API signatures, code, tables. */
const DOCS = '/usr/share/doc/python3.11/html/library';
const available = existsSync(join(DOCS, 'json.html'));
if (!available && process.env['CI'] === 'true') throw new Error(`${DOCS} is missing: .ci/run installs python3.11-doc with apt.`);

type Count = (text: string) => number;
const reference: Record<(typeof ENCODINGS)[number], Count> = { o200k_base: o200k.countTokens, cl100k_base: cl100k.countTokens };

/** Passages of several kinds and lengths from the Python library reference: paragraphs, code, signatures, whole sections. */
function pythonPassages(limit: number): string[] {
  const passages: string[] = [];
  for (const file of readdirSync(DOCS).filter((name) => name.endsWith('.html')).sort()) {
    const $ = cheerio.load(readFileSync(join(DOCS, file), 'utf8'));
    const blocks = $('p, pre, dt, li, table').toArray().map((element) => $(element).text());
    for (let index = 0; index < blocks.length && passages.length < limit; index += 7) {
      // A block alone, and a run of blocks as a chunk of a few hundred tokens would be.
      passages.push(blocks[index] ?? '', blocks.slice(index, index + 6).join('\n\n'));
    }
    if (passages.length >= limit) break;
  }
  return passages.filter((passage) => passage.length > 0);
}

const EDGE_CASES = [
  'hello world',
  'Создание индекса без блокировки записи в таблицу',
  '漢字とかなカナ、한국어 텍스트, ελληνικά, עברית, العربية, हिन्दी',
  '😀 👍🏽 👨‍👩‍👧 🇫🇷 🏳️‍🌈 ✊🏿',
  "they'rE THEY'RE we'Ll I'M it'S",
  'x\u0301\u0302 e\u0301 \u200b\u200d\ufeff',
  '\ud800 a lone surrogate and \udfff another',
  `${'supercalifragilistic'.repeat(20)} ${'9'.repeat(300)}`,
  `  \t\n\n   indented\r\n${' '.repeat(200)}end\n${'\t'.repeat(50)}`,
  `${'='.repeat(120)}\n${'-.'.repeat(80)}`,
  'https://docs.python.org/3/library/json.html#json.dumps?x=1&y=%20',
  'def f(*args, **kwargs) -> dict[str, list[int]]:\n    return {k: [i ** 2 for i in v] for k, v in kwargs.items()}',
];

let work: string;
const bundled = new Map<string, Count>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'citedocs-encodings-'));
  const built = join(work, 'built');
  await bundleEncodings(built);
  // Outside the repository, where no node_modules holds gpt-tokenizer: the bundle must run on its own.
  const alone = join(work, 'alone');
  cpSync(built, alone, { recursive: true });
  for (const encoding of ENCODINGS) {
    const module = (await import(pathToFileURL(join(alone, `${encoding}.js`)).href)) as { count: Count };
    bundled.set(encoding, module.count);
  }
}, 60_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the bundled encodings', () => {
  it('import nothing: the installed package needs no gpt-tokenizer', () => {
    for (const encoding of ENCODINGS) {
      const source = readFileSync(join(work, 'alone', `${encoding}.js`), 'utf8');
      expect(source).not.toMatch(/^\s*import\s|\bimport\(|\brequire\(/m);
    }
  });

  it('count every edge case exactly as gpt-tokenizer does', () => {
    for (const encoding of ENCODINGS) {
      const count = bundled.get(encoding);
      expect(EDGE_CASES.map((text) => count?.(text))).toEqual(EDGE_CASES.map(reference[encoding]));
    }
  });

  it('count text that spells a special token as text, where gpt-tokenizer by default refuses it', () => {
    const text = 'A document ends with <|endoftext|>; a chat turn with <|im_end|>.';
    expect(() => o200k.countTokens(text)).toThrow(/special token/);
    expect(bundled.get('o200k_base')?.(text)).toBe(o200k.encode(text, { disallowedSpecial: new Set() }).length);
    expect(bundled.get('cl100k_base')?.(text)).toBe(cl100k.encode(text, { disallowedSpecial: new Set() }).length);
  });

  it.skipIf(!available)('count hundreds of passages of the Python docs exactly as gpt-tokenizer does', () => {
    const passages = pythonPassages(800);
    expect(passages.length).toBeGreaterThan(500);
    for (const encoding of ENCODINGS) {
      const count = bundled.get(encoding);
      const mismatches = passages.filter((passage) => count?.(passage) !== reference[encoding](passage)).map((passage) => passage.slice(0, 80));
      expect(mismatches, encoding).toEqual([]);
    }
  }, 120_000);
});
