import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/interfaces/cli/main.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

/** Debian's python3.11-doc (installed by .ci/run): Sphinx, ids on <section>, API entries on <dt id>. */
const DOCS = '/usr/share/doc/python3.11/html';
const available = existsSync(join(DOCS, 'library/json.html'));
if (!available && process.env['CI'] === 'true') throw new Error(`${DOCS} is missing: .ci/run installs python3.11-doc with apt.`);

interface Inspection {
  url: string;
  anchors: string[];
  chunks: { anchor?: string; headingPath: string[]; text: string; tokenCount: number }[];
}

async function cli(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: () => undefined, env: {}, cwd: tmpdir(), interactive: false });
  return { code, stdout };
}

describe.skipIf(!available)('the Python 3.11 docs crawled from 127.0.0.1', () => {
  let server: StaticServer;
  const db = join(mkdtempSync(join(tmpdir(), 'citedocs-py-')), 'py.db');
  const pages: Inspection[] = [];

  beforeAll(async () => {
    server = await startStaticServer(DOCS);
    // json.html and the library pages it links to: a few dozen real Sphinx pages.
    const ingest = await cli(['ingest', `${server.url}library/json.html`, '--db', db, '--max-depth', '1', '--json']);
    expect(ingest.code).toBe(0);
    const index = new Database(db, { readonly: true });
    const urls = index.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[];
    index.close();
    for (const url of urls) pages.push(JSON.parse((await cli(['inspect', url, '--db', db, '--json'])).stdout) as Inspection);
  }, 120_000);
  afterAll(() => server?.close());

  it('keeps the navigation bars, sidebar and footer out of every chunk', () => {
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      for (const chunk of page.chunks) {
        expect(chunk.text, page.url).not.toMatch(/\bNavigation\b|previous \||next \||Quick search|Show Source|This Page|Report a Bug|©\s*Copyright/);
      }
    }
  });

  it('makes every <dt id> API entry of json.html a chunk of its own, cited at that id', () => {
    const json = pages.find((page) => page.url === `${server.url}library/json.html`);
    const html = cheerio.load(readFileSync(join(DOCS, 'library/json.html'), 'utf8'));
    const entries = html('div.body dt[id]').map((_, element) => html(element).attr('id')).get();
    expect(entries.length).toBeGreaterThan(15);
    const chunkAnchors = new Set(json?.chunks.map((chunk) => chunk.anchor));
    expect(entries.filter((id) => !chunkAnchors.has(id))).toEqual([]);
    const dumps = json?.chunks.find((chunk) => chunk.anchor === 'json.dumps');
    expect(dumps?.text).toMatch(/^#+ json\.dumps\(obj, \\\*, skipkeys=False/);
    expect(dumps?.text).toContain('Serialize');
  });

  it('gives chunks only anchors that exist in the HTML of their page', () => {
    for (const page of pages) {
      // The file the server sent for this URL (a folder URL is its index.html).
      const path = new URL(page.url).pathname.replace(/\/$/, '/index.html');
      const html = cheerio.load(readFileSync(join(DOCS, decodeURIComponent(path)), 'utf8'));
      // Every id and <a name> of the page, gathered once: a selector per chunk made this test slow enough to time out on a busy machine.
      const targets = new Set<string>();
      html('[id]').each((_index, element) => void targets.add(html(element).attr('id') ?? ''));
      html('a[name]').each((_index, element) => void targets.add(html(element).attr('name') ?? ''));
      for (const chunk of page.chunks) {
        if (chunk.anchor === undefined) continue;
        expect(targets.has(chunk.anchor), `${page.url}#${chunk.anchor}`).toBe(true);
      }
    }
  });

  it('finds json.dumps at its own anchor', async () => {
    const { stdout } = await cli(['search', 'serialize an object to a JSON formatted string', '--db', db, '--json', '--limit', '5']);
    const urls = (JSON.parse(stdout) as { results: { url: string }[] }).results.map((result) => result.url);
    expect(urls).toContain(`${server.url}library/json.html#json.dumps`);
  });

  it('puts the entry of an API the question names first, at its own anchor', async () => {
    const { stdout } = await cli(['search', 'how do I parse a string with `json.loads()`?', '--db', db, '--json', '--limit', '5']);
    const urls = (JSON.parse(stdout) as { results: { url: string }[] }).results.map((result) => result.url);
    expect(urls[0]).toBe(`${server.url}library/json.html#json.loads`);
  });
});
