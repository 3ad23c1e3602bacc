/**
 * `citedocs ingest --render` end to end through the CLI, in process, on the fixture site
 * src/testing/fixtures/js-site/ served from 127.0.0.1: every page is an empty root element
 * and a module script that builds its headings (with ids), its text and its links. Without
 * --render the report says the site needs it; with it both pages are ingested and searchable
 * by their anchors; run again, the pages are confirmed by 304s, not rendered again.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCliCaptured } from '../../src/testing/run-cli.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium with apt.`);

const FIXTURE_SITE = fileURLToPath(new URL('../../src/testing/fixtures/js-site/', import.meta.url));

interface IngestJson {
  pages: number;
  added: number;
  changed: number;
  unchanged: number;
  fetched: number;
  errors: unknown[];
  warnings: string[];
  needsRender?: { count: number; examples: string[] };
}

let server: StaticServer;
let workDir: string;
const cli = (argv: string[]): Promise<CliRun> => runCliCaptured(argv, { cwd: workDir });
const ingestJson = async (...argv: string[]): Promise<IngestJson> => {
  const run = await cli(['ingest', ...argv, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as IngestJson;
};

beforeAll(async () => {
  server = await startStaticServer(FIXTURE_SITE);
  workDir = mkdtempSync(join(tmpdir(), 'citedocs-render-'));
});
afterAll(async () => {
  await server.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('ingest of a site built by JavaScript', { timeout: 60_000 }, () => {
  it('without --render, says the site builds its pages with JavaScript and to run again with --render', async () => {
    const db = join(workDir, 'plain.db');
    const report = await ingestJson(`${server.url}docs/`, '--db', db);
    expect(report.needsRender).toEqual({ count: 1, examples: [`${server.url}docs/`] });
    expect(report.warnings[0]).toMatch(/1 page is empty until JavaScript runs .*: this site builds its pages with JavaScript; run again with --render\.$/);
    const human = await cli(['ingest', `${server.url}docs/`, '--db', join(workDir, 'plain-human.db')]);
    expect(human.stdout).toContain('warning: 1 page is empty until JavaScript runs');
    expect(human.stdout).toContain('run again with --render');
  });

  it.skipIf(!available)('with --render, ingests every built page, searchable with its anchors; run again, 304s keep them without rendering', async () => {
    const db = join(workDir, 'rendered.db');
    const first = await ingestJson(`${server.url}docs/`, '--db', db, '--render');
    expect(first).toMatchObject({ pages: 2, added: 2, errors: [], warnings: [] });
    expect(first.needsRender).toBeUndefined();

    const search = await cli(['search', 'glimmerdust palette', '--db', db, '--json']);
    const urls = (JSON.parse(search.stdout) as { results: { url: string }[] }).results.map((result) => result.url);
    expect(urls[0]).toBe(`${server.url}docs/guide.html#theming`);
    const install = await cli(['search', 'zorblax package manager', '--db', db, '--json']);
    expect((JSON.parse(install.stdout) as { results: { url: string }[] }).results[0]?.url).toBe(`${server.url}docs/#installing-quasar`);

    const scriptRequests = server.requests.filter((path) => path === '/docs/app.js').length;
    const again = await ingestJson(`${server.url}docs/`, '--db', db, '--render');
    expect(again).toMatchObject({ pages: 2, unchanged: 2, fetched: 0, errors: [] });
    // Confirmed by 304s: no page was rendered again, so no script was loaded.
    expect(server.requests.filter((path) => path === '/docs/app.js').length).toBe(scriptRequests);
  });

  it.skipIf(!available)('an index read without --render is read again in full when --render is switched on', async () => {
    const db = join(workDir, 'switched.db');
    await ingestJson(`${server.url}docs/`, '--db', db);
    const rendered = await ingestJson(`${server.url}docs/`, '--db', db, '--render');
    expect(rendered).toMatchObject({ pages: 2, errors: [] });
    expect(rendered.unchanged).toBe(0);
  });
});
