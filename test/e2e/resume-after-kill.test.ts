/**
 * Crash safety of a crawl, for real: a generated documentation site is served from 127.0.0.1
 * with a small delay per page, `citedocs ingest` runs as a child process and is killed with
 * SIGKILL half-way through. The index it leaves must be a valid SQLite file holding some of
 * the pages and the unfinished crawl's frontier; the next `ingest` must continue from that
 * frontier (pages already stored are not downloaded again, at most revalidated with a
 * conditional request) and end with exactly the pages and chunks of an uninterrupted crawl.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCliCaptured } from '../../src/testing/run-cli.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** 1 index + 12 section pages + 12 × 15 leaf pages = 193 pages under /docs/. */
const SECTIONS = 12;
const LEAVES_PER_SECTION = 15;
const PAGE_COUNT = 1 + SECTIONS + SECTIONS * LEAVES_PER_SECTION;
/** Each page response waits this long, so the crawl lasts long enough to be killed in the middle. */
const RESPONSE_DELAY_MS = 15;
/** The child is killed when the server has received this many page requests. */
const KILL_AFTER_PAGE_REQUESTS = 60;
const CHILD_TIMEOUT_MS = 60_000;
const LAST_MODIFIED = new Date(Date.UTC(2024, 0, 15, 12, 0, 0)).toUTCString();

interface RequestEntry {
  path: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  status?: number;
}

interface IngestJson {
  pages: number;
  chunks: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  fetched: number;
  errors: { input: string; message: string }[];
  interrupted: boolean;
}

interface SiteServer {
  url: string;
  requests: RequestEntry[];
  /** Called synchronously as each request arrives (before the delay). */
  onRequest: ((entry: RequestEntry) => void) | undefined;
  close(): Promise<void>;
}

interface KilledSnapshot {
  integrity: string;
  foreignKeyProblems: number;
  lexicalIndex: string;
  pageUrls: string[];
  pagesWithoutChunks: number;
  runs: { id: number; finished_at: string | null }[];
  frontierRows: number;
  frontierDone: string[];
}

const sectionName = (section: number) => `s${String(section).padStart(2, '0')}`;
const leafName = (section: number, leaf: number) => `${sectionName(section)}-p${String(leaf).padStart(2, '0')}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<nav><a href="index.html">Home</a></nav>
<main>
<h1 id="top">${title}</h1>
${body}
</main>
<footer>Generated for the resume test.</footer>
</body></html>
`;
}

/** Writes the site: docs/index.html → docs/sNN.html → docs/sNN-pMM.html, leaves also chained to the next one. */
function generateSite(root: string): void {
  const docs = join(root, 'docs');
  mkdirSync(docs, { recursive: true });
  const sectionLinks = Array.from({ length: SECTIONS }, (_, s) => `<li><a href="${sectionName(s)}.html">Section ${s}</a></li>`).join('\n');
  writeFileSync(
    join(docs, 'index.html'),
    page('Resume test documentation', `<h2 id="overview">Overview</h2>\n<p>This manual has ${SECTIONS} sections about crash-safe crawling.</p>\n<h2 id="sections">Sections</h2>\n<ul>\n${sectionLinks}\n</ul>`),
  );
  for (let s = 0; s < SECTIONS; s += 1) {
    const leafLinks = Array.from({ length: LEAVES_PER_SECTION }, (_, l) => `<li><a href="${leafName(s, l)}.html">Topic ${s}.${l}</a></li>`).join('\n');
    writeFileSync(
      join(docs, `${sectionName(s)}.html`),
      page(
        `Section ${s}`,
        `<h2 id="about">About section ${s}</h2>\n<p>Section ${s} groups the topics on sectionword${s} and how a crawler keeps them.</p>\n<h2 id="topics">Topics</h2>\n<ul>\n${leafLinks}\n</ul>\n<p><a href="index.html#sections">Back to all sections</a></p>`,
      ),
    );
    for (let l = 0; l < LEAVES_PER_SECTION; l += 1) {
      const next = l + 1 < LEAVES_PER_SECTION ? `<p>Next: <a href="${leafName(s, l + 1)}.html#usage">topic ${s}.${l + 1}</a>.</p>` : '';
      writeFileSync(
        join(docs, `${leafName(s, l)}.html`),
        page(
          `Topic ${s}.${l}`,
          `<h2 id="details">Details of topic ${s}.${l}</h2>\n<p>Topic ${s}.${l} describes the setting leafword${s}x${l}. It is read by the crawler once and stored with its anchors.</p>\n` +
            `<h2 id="usage">Using topic ${s}.${l}</h2>\n<p>Set leafword${s}x${l} before the next run; the value ${s * 100 + l} is a good start.</p>\n${next}\n` +
            `<p>Up: <a href="${sectionName(s)}.html#topics">section ${s}</a>.</p>`,
        ),
      );
    }
  }
}

/** Serves `root` with a delay per page, ETag and Last-Modified, 304 for matching conditional requests, and logs each request. */
async function startSiteServer(root: string): Promise<SiteServer> {
  const requests: RequestEntry[] = [];
  const state: SiteServer = { url: '', requests, onRequest: undefined, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const entry: RequestEntry = { path };
    const ifNoneMatch = header('if-none-match');
    const ifModifiedSince = header('if-modified-since');
    if (ifNoneMatch !== undefined) entry.ifNoneMatch = ifNoneMatch;
    if (ifModifiedSince !== undefined) entry.ifModifiedSince = ifModifiedSince;
    requests.push(entry);
    state.onRequest?.(entry);
    if (path === '/docs') {
      entry.status = 301;
      response.writeHead(301, { location: '/docs/' }).end();
      return;
    }
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!path.startsWith('/docs/') || path.includes('..') || !existsSync(file) || !statSync(file).isFile()) {
      entry.status = 404;
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    setTimeout(() => {
      const body = readFileSync(file);
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
      const unchanged = ifNoneMatch !== undefined ? ifNoneMatch === etag : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(LAST_MODIFIED);
      if (unchanged) {
        entry.status = 304;
        response.writeHead(304, { etag, 'last-modified': LAST_MODIFIED }).end();
        return;
      }
      entry.status = 200;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length), etag, 'last-modified': LAST_MODIFIED });
      response.end(body);
    }, RESPONSE_DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.close = () =>
    new Promise((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return state;
}

const cli = (argv: string[], cwd: string): Promise<CliRun> => runCliCaptured(argv, { cwd });

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function readOnly<T>(path: string, read: (database: Database.Database) => T): T {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return read(database);
  } finally {
    database.close();
  }
}

/**
 * The lexical index's state against the chunks, on a copy of the index: `current` (built from
 * exactly these chunks), `stale` (built before the last change, or never: the next search or
 * ingest rebuilds it), or what is wrong.
 */
function lexicalIndexState(path: string, scratch: string): string {
  mkdirSync(scratch, { recursive: true });
  const copy = join(scratch, 'copy.db');
  copyFileSync(path, copy);
  if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
  const database = new Database(copy);
  try {
    // Chunks stored since the last flush wait in lexical_pending: the next flush (a writer's search, refresh or close) indexes them.
    const pending = database.prepare('SELECT count(*) FROM lexical_pending').pluck().get() as number;
    if (pending > 0) return 'stale';
    const indexed = (database.prepare('SELECT documents FROM lexical_stats').pluck().get() as number | undefined) ?? 0;
    const chunks = database.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    return indexed === chunks ? 'current' : `built from ${indexed} chunks, but ${chunks} are stored`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    database.close();
  }
}

const chunksPerPage = (database: Database.Database) =>
  Object.fromEntries(
    (database.prepare('SELECT p.url, p.content_hash, count(c.id) AS chunks FROM pages p LEFT JOIN chunks c ON c.page_id = p.id GROUP BY p.id ORDER BY p.url').all() as {
      url: string;
      content_hash: string;
      chunks: number;
    }[]).map((row) => [row.url, { contentHash: row.content_hash, chunks: row.chunks }]),
  );

describe('ingest killed with SIGKILL in the middle of a crawl, then run again', () => {
  let workDir: string;
  let server: SiteServer;
  let child: ChildProcess | undefined;
  let startUrl: string;
  let referenceDb: string;
  let db: string;
  let reference: IngestJson;
  const childOutput = { stdout: '', stderr: '' };
  let childExit: { code: number | null; signal: NodeJS.Signals | null };
  let killed: KilledSnapshot;
  let resumeStart: number;
  let resumed: { code: number; stdout: string; stderr: string };
  let resumedReport: IngestJson;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'citedocs-resume-'));
    generateSite(join(workDir, 'site'));
    server = await startSiteServer(join(workDir, 'site'));
    startUrl = `${server.url}docs/`;
    referenceDb = join(workDir, 'reference.db');
    db = join(workDir, 'killed.db');

    // The uninterrupted crawl the resumed one is compared with.
    const uninterrupted = await withTimeout(cli(['ingest', startUrl, '--db', referenceDb, '--json', '--concurrency', '2'], workDir), CHILD_TIMEOUT_MS, 'the uninterrupted crawl');
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    reference = JSON.parse(uninterrupted.stdout) as IngestJson;

    // The crawl that is killed: a real process, SIGKILL once a good part of the site was requested.
    const childStart = server.requests.length;
    let pageRequests = 0;
    let reachedKillPoint: () => void = () => undefined;
    const killPoint = new Promise<void>((resolve) => {
      reachedKillPoint = resolve;
    });
    server.onRequest = (entry) => {
      if (!entry.path.startsWith('/docs/')) return;
      pageRequests += 1;
      if (pageRequests === KILL_AFTER_PAGE_REQUESTS) {
        child?.kill('SIGKILL');
        reachedKillPoint();
      }
    };
    const spawned = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'ingest', startUrl, '--db', db, '--json', '--concurrency', '2'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CITEDOCS_DB: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = spawned;
    spawned.stdout.on('data', (data: Buffer) => (childOutput.stdout += data.toString()));
    spawned.stderr.on('data', (data: Buffer) => (childOutput.stderr += data.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => spawned.once('exit', (code, signal) => resolve({ code, signal })));
    await withTimeout(
      Promise.race([
        killPoint,
        exited.then((exit) => {
          throw new Error(`the crawl ended by itself (${JSON.stringify(exit)}) before ${KILL_AFTER_PAGE_REQUESTS} page requests:\n${childOutput.stderr}`);
        }),
      ]),
      CHILD_TIMEOUT_MS,
      `${KILL_AFTER_PAGE_REQUESTS} page requests from the child crawl (stderr: ${childOutput.stderr})`,
    );
    childExit = await withTimeout(exited, 10_000, 'the killed child to exit');
    child = undefined;
    server.onRequest = undefined;
    expect(server.requests.length).toBeGreaterThan(childStart);

    // What the kill left, read before anything opens the index for writing.
    const lexicalCheck = lexicalIndexState(db, join(workDir, 'lexical-check'));
    killed = readOnly(db, (database) => ({
      integrity: database.pragma('integrity_check', { simple: true }) as string,
      foreignKeyProblems: (database.pragma('foreign_key_check') as unknown[]).length,
      lexicalIndex: lexicalCheck,
      pageUrls: database.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[],
      pagesWithoutChunks: database.prepare('SELECT count(*) FROM pages p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.page_id = p.id)').pluck().get() as number,
      runs: database.prepare('SELECT id, finished_at FROM crawl_runs ORDER BY id').all() as { id: number; finished_at: string | null }[],
      frontierRows: database.prepare('SELECT count(*) FROM frontier').pluck().get() as number,
      frontierDone: database.prepare('SELECT url FROM frontier WHERE done = 1 ORDER BY url').pluck().all() as string[],
    }));

    // The next ingest, in process, on the same index.
    resumeStart = server.requests.length;
    resumed = await withTimeout(cli(['ingest', startUrl, '--db', db, '--json', '--concurrency', '2'], workDir), CHILD_TIMEOUT_MS, 'the resumed crawl');
    resumedReport = JSON.parse(resumed.stdout || '{}') as IngestJson;
  }, 180_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await server?.close();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it('the uninterrupted reference crawl stores every page of the generated site', () => {
    expect(reference).toMatchObject({ pages: PAGE_COUNT, added: PAGE_COUNT, errors: [] });
    expect(reference.chunks).toBeGreaterThanOrEqual(PAGE_COUNT);
  });

  it('a crawl killed with SIGKILL leaves a valid index holding some but not all pages, and its unfinished run with the frontier', () => {
    expect(childExit.signal).toBe('SIGKILL');
    expect(killed.integrity).toBe('ok');
    expect(killed.foreignKeyProblems).toBe(0);
    // Killed mid-crawl, the index was never rebuilt for the pages stored so far: a search rebuilds it.
    expect(['current', 'stale']).toContain(killed.lexicalIndex);
    // Each page is written in one transaction: no page without its chunks.
    expect(killed.pagesWithoutChunks).toBe(0);
    expect(killed.pageUrls.length).toBeGreaterThan(0);
    expect(killed.pageUrls.length).toBeLessThan(PAGE_COUNT);
    expect(killed.runs).toHaveLength(1);
    expect(killed.runs[0]?.finished_at).toBeNull();
    expect(killed.frontierRows).toBeGreaterThan(killed.frontierDone.length);
    expect(killed.frontierDone.length).toBeGreaterThan(0);
  });

  it('the next ingest exits 0 and reports only the missing pages as added, none changed or removed', () => {
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumedReport).toMatchObject({ interrupted: false, changed: 0, removed: 0, errors: [] });
    expect(resumedReport.added).toBe(PAGE_COUNT - killed.pageUrls.length);
    // Every page body downloaded again is a page the killed crawl had not stored.
    expect(resumedReport.fetched).toBe(resumedReport.added);
  });

  it('the next ingest downloads no page stored before the kill again: such pages are at most revalidated with a conditional request', () => {
    const storedPaths = new Set(killed.pageUrls.map((url) => new URL(url).pathname));
    const pageRequests = server.requests.slice(resumeStart).filter((entry) => entry.path.startsWith('/docs/'));
    expect(pageRequests.length).toBeGreaterThan(0);
    const unconditionalRefetches = pageRequests.filter((entry) => storedPaths.has(entry.path) && entry.ifNoneMatch === undefined && entry.ifModifiedSince === undefined);
    expect(unconditionalRefetches).toEqual([]);
    expect(pageRequests.filter((entry) => storedPaths.has(entry.path) && entry.status !== 304)).toEqual([]);
    // No page is requested twice in one run.
    const paths = pageRequests.map((entry) => entry.path);
    expect(paths.filter((path, index) => paths.indexOf(path) !== index)).toEqual([]);
  });

  it('the next ingest continues from the stored frontier instead of starting over', () => {
    const donePaths = new Set(killed.frontierDone.map((url) => new URL(url).pathname));
    // Sitemaps and llms.txt under the start folder are read again on a resumed run (it may have been killed before them).
    const listing = new Set(['/docs/sitemap.xml', '/docs/llms.txt', '/docs/llms-full.txt']);
    const requested = new Set(server.requests.slice(resumeStart).filter((entry) => entry.path.startsWith('/docs/') && !listing.has(entry.path)).map((entry) => entry.path));
    // Only the start page is requested again among those marked done (conditionally, see above).
    expect([...requested].filter((path) => donePaths.has(path) && path !== '/docs/')).toEqual([]);
    expect(requested.size).toBeLessThanOrEqual(PAGE_COUNT - donePaths.size + 1);
    readOnly(db, (database) => {
      const runs = database.prepare('SELECT id FROM crawl_runs').pluck().all() as number[];
      expect(runs).toEqual(killed.runs.map((run) => run.id));
    });
  });

  it('ends with the same pages and chunks as an uninterrupted crawl, each page indexed once', () => {
    readOnly(db, (database) => {
      readOnly(referenceDb, (referenceDatabase) => {
        const urls = database.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[];
        const referenceUrls = referenceDatabase.prepare('SELECT url FROM pages ORDER BY url').pluck().all() as string[];
        expect(urls).toEqual(referenceUrls);
        expect(database.prepare('SELECT count(*) FROM pages').pluck().get()).toBe(database.prepare('SELECT count(DISTINCT url) FROM pages').pluck().get());
        expect(database.prepare('SELECT count(*) FROM pages').pluck().get()).toBe(PAGE_COUNT);
        const chunkCount = database.prepare('SELECT count(*) FROM chunks').pluck().get();
        expect(chunkCount).toBe(referenceDatabase.prepare('SELECT count(*) FROM chunks').pluck().get());
        expect(chunkCount).toBe(reference.chunks);
        expect(chunksPerPage(database)).toEqual(chunksPerPage(referenceDatabase));
        expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      });
    });
    expect(lexicalIndexState(db, join(workDir, 'lexical-check-final'))).toBe('current');
  });

  it('the resumed crawl run is finished and its frontier is empty', () => {
    readOnly(db, (database) => {
      const runs = database.prepare('SELECT id, finished_at FROM crawl_runs').all() as { id: number; finished_at: string | null }[];
      expect(runs.length).toBeGreaterThan(0);
      for (const run of runs) expect(run.finished_at).not.toBeNull();
      expect(database.prepare('SELECT count(*) FROM frontier').pluck().get()).toBe(0);
    });
  });
});
