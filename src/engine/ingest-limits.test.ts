import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlPage, serveSite, type SiteServer } from '../testing/http-site.js';
import { runCliCaptured } from '../testing/run-cli.js';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

/** A folder of `count` Markdown pages. */
function folderOf(count: number) {
  return docsWorkspace(Object.fromEntries(Array.from({ length: count }, (_, index) => [`page-${String(index).padStart(3, '0')}.md`, `# Page ${index}\n\nAbout topic ${index}.\n`])));
}

/** A site of a home page linking `count` pages. */
async function siteOf(count: number) {
  const links = Array.from({ length: count }, (_, index) => `p${index}.html`);
  const server = await serveSite(Object.fromEntries([['/docs/', htmlPage('Home', links)], ...links.map((link) => [`/docs/${link}`, htmlPage(`Page ${link}`)])]));
  servers.push(server);
  return server;
}

describe('an ingest a limit ends early', () => {
  it('reads a whole folder by default, whatever crawl.maxPages says (it guards sites, not folders)', async () => {
    const { docs, dbPath } = folderOf(15);
    writeFileSync(join(docs, '..', 'citedocs.config.json'), JSON.stringify({ crawl: { maxPages: 5 } }));
    const run = await runCliCaptured(['ingest', docs, '--db', dbPath, '--json'], { cwd: join(docs, '..') });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ pages: 15, added: 15 });
    expect(report['stoppedBy']).toBeUndefined();
  });

  it('says so for a folder of limit+10 files under --max-requests, in the JSON and the human output, and exits 0', async () => {
    const { docs, dbPath } = folderOf(15);
    const json = await runCliCaptured(['ingest', docs, '--db', dbPath, '--json', '--max-requests', '5'], { cwd: docs });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      pages: 5,
      stoppedBy: { limit: 'maxPages', value: 5, remaining: 10, unit: 'files', flag: '--max-requests', resumes: false },
    });
    const human = await runCliCaptured(['ingest', docs, '--db', dbPath, '--max-requests', '5'], { cwd: docs });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Not complete: --max-requests 5 ended this run with 10 files not read. Run it again with a larger --max-requests, or without it (folders have no limit by default), to ingest them.');
    const stats = await runCliCaptured(['stats', '--db', dbPath], { cwd: docs });
    expect(stats.stdout).toMatch(/warning: the last ingest of file:\/\/.*\/docs\/ is incomplete: --max-requests 5 ended it with 10 files not read/);
  });

  it('says so for a site larger than --max-requests, records it in stats and sources, and the next run ingests the rest', async () => {
    const server = await siteOf(8);
    const { dbPath } = folderOf(0);
    const start = `${server.base}/docs/`;
    const flags = ['--db', dbPath, '--max-requests', '5'];
    const first = await runCliCaptured(['ingest', start, ...flags, '--json'], { cwd: '.' });
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as { pages: number; queued: number; stoppedBy: unknown };
    expect(report.pages).toBe(5);
    expect(report.stoppedBy).toEqual({ limit: 'maxPages', value: 5, remaining: 4, unit: 'requests', flag: '--max-requests', setting: 'crawl.maxPages', resumes: true });
    expect(report.queued).toBe(4);

    const statsJson = JSON.parse((await runCliCaptured(['stats', '--db', dbPath, '--json'], { cwd: '.' })).stdout) as { ingests: unknown[] };
    expect(statsJson.ingests).toEqual([expect.objectContaining({ source: start, outcome: 'limited', complete: false, stoppedBy: expect.objectContaining({ remaining: 4 }) })]);
    const engine = createEngine({ dbPath });
    expect(await engine.listSources()).toEqual([expect.objectContaining({ url: start, pages: 5, complete: false })]);
    await engine.close();

    const second = await runCliCaptured(['ingest', start, ...flags], { cwd: '.' });
    expect(second.code).toBe(0);
    // The start page is asked for again (conditionally); the four pages left are added.
    expect(second.stdout).toMatch(/^Ingested 5 pages \(4 added, 0 changed, 1 unchanged,/);
    expect(second.stdout).not.toContain('Not complete');
    const stats = await runCliCaptured(['stats', '--db', dbPath], { cwd: '.' });
    expect(stats.stdout).not.toContain('incomplete');
    expect(stats.stdout).toMatch(/: 9 pages,/);
  });

  it('prints the site notice with the flag, the setting and what is left', async () => {
    const server = await siteOf(4);
    const { dbPath } = folderOf(0);
    const run = await runCliCaptured(['ingest', `${server.base}/docs/`, '--db', dbPath, '--max-requests', '2'], { cwd: '.' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Not complete: the page budget (--max-requests 2, setting crawl.maxPages) ended this run with 3 URLs still queued. The index is usable; run the same ingest again to continue where it stopped, or raise --max-requests.',
    );
  });
});
