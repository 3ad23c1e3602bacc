/**
 * End to end through the CLI, in process: crawl the fixture documentation site from a loopback
 * server, then search and ask, and check that every URL#anchor handed back really exists in
 * the HTML the server serves. The fixture (src/testing/fixtures/docs-site/) is shaped like the
 * generators citedocs meets in the wild:
 *
 *   docs/index.html                     plain HTML with <main>, ids on the headings
 *   docs/guide/index.html               DocBook chapter page, reached as docs/guide/ (also linked as index.html)
 *   docs/guide/indexes/creating.html    DocBook: ids on div.sect1 / div.sect2, not on the headings
 *   docs/guide/indexes/concurrently.html DocBook, same shape
 *   docs/guide/tables/dropping.html     MkDocs: ids on the headings, ```sql code, a table, one heading with no id
 *   docs/guide/config/timeouts.html     Sphinx: ids on <section>, ¶ header links, highlight-python3 code, a table
 *   docs/reference/api.html             Node.js API docs: ids on <a class="mark"> inside the headings
 *   docs/faq.html                       no id on any heading: passages link to the bare page
 *   blog/post.html                      outside /docs/: must never be requested
 *
 * Links that must not be followed: /blog/post.html, https://www.example.org/..., images/architecture.png,
 * /docs/legal/license.pdf. One link is broken: docs/guide/upgrading.html (404).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCliCaptured } from '../../src/testing/run-cli.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

const FIXTURE_SITE = fileURLToPath(new URL('../../src/testing/fixtures/docs-site/', import.meta.url));

/** The documentation pages of the fixture, as stored (directory pages under their `/` URL). */
const EXPECTED_PAGES = [
  'docs/',
  'docs/faq.html',
  'docs/guide/',
  'docs/guide/config/timeouts.html',
  'docs/guide/indexes/concurrently.html',
  'docs/guide/indexes/creating.html',
  'docs/guide/tables/dropping.html',
  'docs/reference/api.html',
];

/** Words that only occur in navigation, banners, sidebars and footers of the fixture. */
const CHROME_WORDS = ['Sponsored', 'Copyright Fixture Corp', 'Next chapter', 'Previous topic', 'Jump to', 'Fixture Cloud', 'Skip to content', 'Table of contents', 'blogonlyzebra'];

interface IngestJson {
  pages: number;
  chunks: number;
  added: number;
  changed: number;
  unchanged: number;
  errors: { input: string; message: string }[];
}

interface SearchResultJson {
  url: string;
  title: string;
  headingPath: string[];
  text: string;
  score: number;
  tokenCount: number;
}

interface SearchJson {
  results: SearchResultJson[];
  warnings: string[];
}

interface AskJson {
  answer: string;
  citations: { n: number; url: string; title: string; anchor?: string }[];
  warnings: string[];
}

let server: StaticServer;
let base: string;
let workDir: string;
let db: string;
let firstIngest: CliRun;
let requestsDuringIngest: string[];

const cli = (argv: string[]): Promise<CliRun> => runCliCaptured(argv, { cwd: workDir });

async function search(query: string, ...flags: string[]): Promise<SearchJson> {
  const run = await cli(['search', query, '--db', db, '--json', ...flags]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as SearchJson;
}

async function ask(question: string): Promise<AskJson> {
  const run = await cli(['ask', question, '--db', db, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as AskJson;
}

/** Fetches the page of `url` from the fixture server and tells whether its #fragment is an id (or a[name]) in that HTML. */
async function fragmentExistsInServedPage(url: string): Promise<boolean> {
  const target = new URL(url);
  const fragment = decodeURIComponent(target.hash.slice(1));
  target.hash = '';
  const response = await fetch(target.href);
  if (response.status !== 200) return false;
  const html = await response.text();
  if (fragment === '') return true;
  const $ = cheerio.load(html);
  const byId = $('[id]').filter((_, element) => $(element).attr('id') === fragment).length;
  const byName = $('a[name]').filter((_, element) => $(element).attr('name') === fragment).length;
  return byId + byName > 0;
}

function freshPath(name: string): string {
  return join(mkdtempSync(join(workDir, 'case-')), name);
}

/** A TCP port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function expectOneCleanErrorLine(stderr: string): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).toMatch(/^citedocs: /);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/unexpected error/);
}

beforeAll(async () => {
  server = await startStaticServer(FIXTURE_SITE);
  base = server.url;
  workDir = mkdtempSync(join(tmpdir(), 'citedocs-e2e-'));
  db = join(workDir, 'index.db');
  firstIngest = await cli(['ingest', `${base}docs/`, '--db', db, '--json']);
  requestsDuringIngest = [...server.requests];
});

afterAll(async () => {
  await server?.close();
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

describe('ingest <url>docs/ --json', () => {
  it('prints one JSON report counting every documentation page and its chunks', async () => {
    expect(firstIngest.stderr).toBe('');
    expect(firstIngest.code).toBe(0);
    const report = JSON.parse(firstIngest.stdout) as IngestJson;
    expect(report).toMatchObject({ pages: EXPECTED_PAGES.length, added: EXPECTED_PAGES.length, changed: 0, unchanged: 0 });
    expect(report.chunks).toBeGreaterThanOrEqual(EXPECTED_PAGES.length);

    const stats = await cli(['stats', '--db', db, '--json']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ pages: EXPECTED_PAGES.length, chunks: report.chunks });
  });

  it('stores a directory page once, at its folder URL, although it is linked as docs/guide/ and as docs/guide/index.html', () => {
    expect(requestsDuringIngest).toContain('/docs/guide/');
    // The index-file link collapses to the folder URL, so it costs no second request.
    expect(requestsDuringIngest).not.toContain('/docs/guide/index.html');
    const database = new Database(db, { readonly: true });
    try {
      const urls = database.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[];
      expect(urls).toEqual(EXPECTED_PAGES.map((path) => `${base}${path}`));
    } finally {
      database.close();
    }
  });

  it('never requests pages outside /docs/, binaries or other hosts, and requests each URL once', () => {
    expect(requestsDuringIngest.length).toBeGreaterThan(0);
    // Besides pages under /docs/, only the site-wide files that list pages are read.
    const wellKnown = ['/robots.txt', '/sitemap.xml', '/llms.txt', '/llms-full.txt'];
    for (const path of requestsDuringIngest) expect(path.startsWith('/docs/') || wellKnown.includes(path), path).toBe(true);
    expect(requestsDuringIngest).not.toContain('/blog/post.html');
    expect(requestsDuringIngest.filter((path) => /\.(png|pdf)$/.test(path))).toEqual([]);
    expect(new Set(requestsDuringIngest).size).toBe(requestsDuringIngest.length);
    // A request to www.example.org could not reach this server; it would show up as an error.
    const report = JSON.parse(firstIngest.stdout) as IngestJson;
    expect(report.errors.filter((error) => /example\.org/.test(`${error.input} ${error.message}`))).toEqual([]);
  });

  it('reports the broken link (404) in errors and still ingests the rest', () => {
    const report = JSON.parse(firstIngest.stdout) as IngestJson;
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]?.input).toBe(`${base}docs/guide/upgrading.html`);
    expect(report.errors[0]?.message).toMatch(/404/);
    expect(requestsDuringIngest).toContain('/docs/guide/upgrading.html');
  });

  it('re-running the same ingest reports every page unchanged, with the same chunk count', async () => {
    const again = freshPath('reingest.db');
    const first = await cli(['ingest', `${base}docs/`, '--db', again, '--json']);
    expect(first.code).toBe(0);
    const second = await cli(['ingest', `${base}docs/`, '--db', again, '--json']);
    expect(second.code).toBe(0);
    const before = JSON.parse(first.stdout) as IngestJson;
    const after = JSON.parse(second.stdout) as IngestJson;
    expect(after).toMatchObject({ pages: before.pages, chunks: before.chunks, added: 0, changed: 0, unchanged: before.pages });
  });
});

describe('inspect --site', () => {
  it('reports the crawled site: pages, passages, anchored headings, no anchor missing from its page, as text and as JSON', async () => {
    const text = await cli(['inspect', '--site', `${base}docs/`, '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\d+ pages, \d+ passages/);
    expect(text.stdout).toMatch(/anchors not on their page 0/);
    const json = await cli(['inspect', '--site', `${base}docs/`, '--db', db, '--json']);
    const report = JSON.parse(json.stdout) as { pages: number; passages: number; anchorsMissing: { count: number }; headings: { withAnchor: number } };
    expect(report.pages).toBeGreaterThan(3);
    expect(report.passages).toBeGreaterThanOrEqual(report.pages);
    expect(report.anchorsMissing.count).toBe(0);
    expect(report.headings.withAnchor).toBeGreaterThan(0);
  });

  it('exits 1 naming the URL when no page is under it', async () => {
    const result = await cli(['inspect', '--site', 'https://nowhere.example/', '--db', db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('https://nowhere.example/');
  });
});

describe('search "<question>" --json', () => {
  const cases = [
    {
      placement: 'id on the enclosing div.sect2 (DocBook)',
      question: 'How do I create a multicolumn index?',
      url: 'docs/guide/indexes/creating.html#INDEXES-MULTICOLUMN',
      heading: '2.1.1. Multicolumn Indexes',
    },
    {
      placement: 'id on the enclosing div.sect1 (DocBook)',
      question: 'How can I build an index without locking out writes?',
      url: 'docs/guide/indexes/concurrently.html#INDEXES-CONCURRENTLY',
      heading: '2.2. Building Indexes Concurrently',
    },
    {
      placement: 'id on the enclosing <section> (Sphinx)',
      question: 'How do I set a statement timeout?',
      url: 'docs/guide/config/timeouts.html#statement-timeout',
      heading: 'Setting a statement timeout',
    },
    {
      placement: "the heading's own id (MkDocs)",
      question: 'How do I rename a table?',
      url: 'docs/guide/tables/dropping.html#renaming-a-table',
      heading: 'Renaming a table',
    },
    {
      placement: 'an <a class="mark" id> inside the heading (Node.js)',
      question: 'What does connect_timeout do?',
      url: 'docs/reference/api.html#connect_timeoutms',
      heading: 'connect_timeout(ms)',
    },
    {
      placement: 'no id on the heading: the nearest anchored ancestor heading',
      question: 'How do I drop a table that views depend on, with CASCADE?',
      url: 'docs/guide/tables/dropping.html#dropping-a-table',
      heading: 'Dropping tables that other objects depend on',
    },
    {
      placement: 'no id on any heading of the page: the bare page URL',
      question: 'Why is my backup file so large?',
      url: 'docs/faq.html',
      heading: 'Why is my backup file so much larger than the database?',
    },
  ];

  it.each(cases)('puts the right section first, linked through $placement', async ({ question, url, heading }) => {
    const { results } = await search(question);
    expect(results[0]?.url).toBe(`${base}${url}`);
    // A section without an id of its own shares its parent's anchor and passage: its heading is then in the text.
    expect(results[0]?.headingPath.at(-1) === heading || results[0]?.text.includes(`# ${heading}`)).toBe(true);
    expect(await fragmentExistsInServedPage(`${base}${url}`)).toBe(true);
  });

  it('gives every result a url, title, headingPath, text, score and tokenCount, best score first', async () => {
    const { results } = await search('index');
    expect(results.length).toBeGreaterThan(2);
    for (const result of results) {
      expect(result.url.startsWith(`${base}docs/`)).toBe(true);
      expect(typeof result.title).toBe('string');
      expect(result.title).not.toBe('');
      expect(Array.isArray(result.headingPath)).toBe(true);
      expect(result.text).not.toBe('');
      expect(Number.isFinite(result.score)).toBe(true);
      expect(Number.isInteger(result.tokenCount) && result.tokenCount > 0).toBe(true);
    }
    const scores = results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('links every result to an anchor that exists in the served page', async () => {
    const urls = new Set<string>();
    for (const question of ['index', 'table', 'timeout', 'connect', 'backup']) {
      for (const result of (await search(question)).results) urls.add(result.url);
    }
    expect(urls.size).toBeGreaterThan(5);
    for (const url of urls) expect(await fragmentExistsInServedPage(url), url).toBe(true);
  });

  it('returns at most --limit results', async () => {
    const all = await search('index table');
    expect(all.results.length).toBeGreaterThan(2);
    const limited = await search('index table', '--limit', '2');
    expect(limited.results.map((result) => result.url)).toEqual(all.results.slice(0, 2).map((result) => result.url));
  });

  it('keeps the sum of tokenCount within --max-tokens', async () => {
    const all = await search('index table');
    const total = all.results.reduce((sum, result) => sum + result.tokenCount, 0);
    const budget = 150;
    expect(total).toBeGreaterThan(budget);
    const capped = await search('index table', '--max-tokens', String(budget));
    expect(capped.results.length).toBeGreaterThan(0);
    expect(capped.results.reduce((sum, result) => sum + result.tokenCount, 0)).toBeLessThanOrEqual(budget);
  });

  it('keeps code blocks fenced with their language', async () => {
    const drop = await search('DROP TABLE IF EXISTS');
    expect(drop.results[0]?.url).toBe(`${base}docs/guide/tables/dropping.html#dropping-a-table`);
    expect(drop.results[0]?.text).toContain('```sql\nDROP TABLE products;\nDROP TABLE IF EXISTS products;\n```');

    const python = await search('statement_timeout open_session execute');
    expect(python.results[0]?.text).toContain('```python\nimport fixturedb');

    const docbook = await search('CREATE INDEX CONCURRENTLY sales_quantity_index');
    expect(docbook.results[0]?.text).toContain('```\nCREATE INDEX CONCURRENTLY sales_quantity_index ON sales_table (quantity);\n```');
  });

  it('keeps a table with its header row', async () => {
    const { results } = await search('default lock_timeout setting');
    const table = results.find((result) => result.url === `${base}docs/guide/config/timeouts.html#configuring-timeouts`);
    expect(table?.text).toContain('| Setting | What it limits | Default |\n| --- | --- | --- |');
    expect(table?.text).toMatch(/\| `lock_timeout` \| waiting for one lock \| 10000 \|/);
  });

  it('never returns navigation, banner, sidebar or footer text', async () => {
    const queries = [
      ...cases.map((entry) => entry.question),
      'Sponsored by Fixture Cloud hosted free',
      'Copyright Fixture Corp all rights reserved license',
      'Next chapter previous topic navigation',
      'Jump to home user guide blog',
      'Skip to content table of contents',
      'blogonlyzebra announcing',
    ];
    for (const query of queries) {
      for (const result of (await search(query)).results) {
        const visible = [result.title, ...result.headingPath, result.text].join('\n');
        for (const word of CHROME_WORDS) expect(visible, `"${query}" → ${result.url}`).not.toContain(word);
      }
    }
  });
});

describe('ask "<question>" --json', () => {
  const questions = [
    'How can I build an index without locking out writes?',
    'How do I create a multicolumn index?',
    'How do I drop a table that views depend on?',
    'How do I set a statement timeout?',
    'What does connect_timeout do?',
    'Why is my backup file so large?',
    'What is the default lock_timeout?',
  ];

  it('cites with [n] markers that all refer to citations, and every cited URL#anchor exists in the served page', async () => {
    for (const question of questions) {
      const response = await ask(question);
      expect(response.answer, question).not.toBe('');
      expect(response.citations.length, question).toBeGreaterThan(0);
      expect(response.warnings.filter((warning) => /Removed/.test(warning)), question).toEqual([]);

      const markers = new Set([...response.answer.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
      const numbers = new Set(response.citations.map((citation) => citation.n));
      expect(markers.size, question).toBeGreaterThan(0);
      for (const marker of markers) expect(numbers.has(marker), `${question}: [${marker}]`).toBe(true);
      for (const n of numbers) expect(markers.has(n), `${question}: citation ${n} unused`).toBe(true);

      for (const citation of response.citations) {
        expect(citation.url.startsWith(`${base}docs/`), citation.url).toBe(true);
        expect(await fragmentExistsInServedPage(citation.url), citation.url).toBe(true);
        for (const word of CHROME_WORDS) expect(citation.title).not.toContain(word);
      }
      for (const word of CHROME_WORDS) expect(response.answer, question).not.toContain(word);
    }
  });

  it.each([
    { question: 'How can I build an index without locking out writes?', url: 'docs/guide/indexes/concurrently.html#INDEXES-CONCURRENTLY', fact: 'CONCURRENTLY' },
    { question: 'How do I set a statement timeout?', url: 'docs/guide/config/timeouts.html#statement-timeout', fact: 'statement_timeout' },
    { question: 'What does connect_timeout do?', url: 'docs/reference/api.html#connect_timeoutms', fact: 'ERR_CONNECT_TIMEOUT' },
    { question: 'Why is my backup file so large?', url: 'docs/faq.html', fact: '--no-wal' },
  ])('answers "$question" from the section that holds the fact, cited first', async ({ question, url, fact }) => {
    const response = await ask(question);
    expect(response.citations[0]?.url).toBe(`${base}${url}`);
    expect(response.answer).toContain(fact);
  });
});

describe('exit codes and error messages', () => {
  it('exits with 2 on a usage error: unknown flag, missing argument, bad number, empty question', async () => {
    const usageErrors = [
      ['search', 'index', '--no-such-flag', '--db', db],
      ['search', '--db', db],
      ['ingest'],
      ['ask', '--db', db],
      ['search', 'index', '--limit', '0', '--db', db],
      ['search', 'index', '--max-tokens', 'many', '--db', db],
      ['ask', '   ', '--db', db],
    ];
    for (const argv of usageErrors) {
      const run = await cli(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).not.toBe('');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('search and ask before any ingest exit 1 with one line naming the index path and saying to run ingest', async () => {
    for (const command of ['search', 'ask']) {
      const missing = freshPath('never-ingested.db');
      const run = await cli([command, 'how do I create an index', '--db', missing]);
      expect(run.code, command).toBe(1);
      expect(run.stdout).toBe('');
      expectOneCleanErrorLine(run.stderr);
      expect(run.stderr).toContain(missing);
      expect(run.stderr).toMatch(/citedocs ingest/);
      expect(existsSync(missing), 'a read must not create the index file').toBe(false);
    }
  });

  it('ingest of a URL where nothing listens exits 1 naming the URL, and leaves no index file', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const target = freshPath('unreachable.db');
    const run = await cli(['ingest', url, '--db', target]);
    expect(run.code).toBe(1);
    expectOneCleanErrorLine(run.stderr);
    expect(run.stderr).toContain(url);
    expect(existsSync(target)).toBe(false);
  });

  it('ingest of a folder with no documents exits 1 naming the folder', async () => {
    const empty = join(workDir, 'empty-folder');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'not documentation\n');
    const target = freshPath('empty.db');
    const run = await cli(['ingest', empty, '--db', target]);
    expect(run.code).toBe(1);
    expectOneCleanErrorLine(run.stderr);
    expect(run.stderr).toContain(empty);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a --db file that is not SQLite with "not a citedocs index" and leaves it unchanged', async () => {
    const notSqlite = freshPath('notes.db');
    writeFileSync(notSqlite, 'These are my notes, not a database.\n'.repeat(20));
    const before = readFileSync(notSqlite);
    for (const argv of [
      ['search', 'index', '--db', notSqlite],
      ['ask', 'how do I create an index', '--db', notSqlite],
      ['stats', '--db', notSqlite],
      ['ingest', `${base}docs/`, '--db', notSqlite],
    ]) {
      const run = await cli(argv);
      expect(run.code, argv[0]).toBe(1);
      expectOneCleanErrorLine(run.stderr);
      expect(run.stderr).toContain('not a citedocs index');
      expect(run.stderr).toContain(notSqlite);
      expect(readFileSync(notSqlite).equals(before), `${argv[0]} changed the file`).toBe(true);
    }
    expect(readdirSync(join(notSqlite, '..'))).toEqual(['notes.db']);
  });

  it('refuses a SQLite database of another application and leaves it untouched', async () => {
    const foreign = freshPath('other-app.sqlite');
    const setup = new Database(foreign);
    setup.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');");
    setup.close();
    const before = readFileSync(foreign);
    for (const argv of [
      ['search', 'index', '--db', foreign],
      ['ask', 'how do I create an index', '--db', foreign],
      ['ingest', `${base}docs/`, '--db', foreign],
    ]) {
      const run = await cli(argv);
      expect(run.code, argv[0]).toBe(1);
      expectOneCleanErrorLine(run.stderr);
      expect(run.stderr).toContain(foreign);
      expect(readFileSync(foreign).equals(before), `${argv[0]} changed the file`).toBe(true);
    }
    expect(readdirSync(join(foreign, '..'))).toEqual(['other-app.sqlite']);
    const check = new Database(foreign, { readonly: true });
    try {
      expect(check.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['notes']);
      expect(check.prepare('SELECT body FROM notes').pluck().all()).toEqual(['keep me']);
    } finally {
      check.close();
    }
  });
});
