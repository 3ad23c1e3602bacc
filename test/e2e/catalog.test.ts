import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { fixturePage, librarySite, writeSite } from '../../src/testing/catalog-sites.js';
import { createGitRepository } from '../../src/testing/git-fixture.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { startStaticServer, type StaticServer } from '../../src/testing/static-server.js';

const SHARED_PAGE = fixturePage('Installing widget', { 'Install with pip': 'Run pip install widget; the same page in every version.' });

describe('a catalog of libraries and versions in one index', () => {
  const sites: StaticServer[] = [];
  let dbPath: string;
  let engine: Engine;
  let alpha: StaticServer;
  let widget: StaticServer;
  let gadgetRepository: string;
  let gadgetIngest: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    alpha = await startStaticServer(writeSite(librarySite('Alpha', 6, 'alphaflow')));
    const beta = await startStaticServer(writeSite(librarySite('Beta', 6, 'betaflow')));
    // Gamma is ingested without --library: on 127.0.0.1 its name comes from its start page's title.
    const gamma = await startStaticServer(writeSite(librarySite('Gamma', 3, 'gammaflow')));
    const prefixed = (prefix: string, files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([path, html]) => [`${prefix}${path}`, html]));
    widget = await startStaticServer(
      writeSite({
        ...prefixed('docs/1.0/', librarySite('Widget', 3, 'oldwidget', { 'install.html': SHARED_PAGE })),
        ...prefixed('docs/2.0/', librarySite('Widget', 3, 'newwidget', { 'install.html': SHARED_PAGE })),
      }),
    );
    sites.push(alpha, beta, gamma, widget);
    dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-catalog-')), 'index.db');
    engine = createEngine({ dbPath });
    expect(await engine.ingest(alpha.url, { library: 'alpha' })).toMatchObject({ library: 'alpha', version: 'latest', pages: 7 });
    expect(await engine.ingest(beta.url, { library: 'beta', version: '3.1' })).toMatchObject({ library: 'beta', version: '3.1' });
    expect(await engine.ingest(gamma.url)).toMatchObject({ library: 'gamma', version: 'latest' });
    // The versions come from the URL paths /docs/1.0/ and /docs/2.0/.
    expect(await engine.ingest(`${widget.url}docs/1.0/`, { library: 'widget' })).toMatchObject({ library: 'widget', version: '1.0', pages: 5 });
    expect(await engine.ingest(`${widget.url}docs/2.0/`, { library: 'widget' })).toMatchObject({ library: 'widget', version: '2.0', pages: 5 });
    // A library from a git repository: two tags whose docs differ, one version each.
    gadgetRepository = createGitRepository([
      { files: { 'docs/index.md': '# Gadget\n\nGadget docs.\n', 'docs/usage.md': '# Usage\n\n## Legacy sprockets\n\nCall gadget.sprocket() to mesh the legacy sprockets.\n' }, tag: 'v1.0.0' },
      { files: { 'docs/usage.md': '# Usage\n\n## Turbo cogs\n\nCall gadget.cog() to spin the turbo cogs; sprockets are gone.\n' }, tag: 'v2.0.0' },
    ]);
    gadgetIngest = await runCliCaptured(['ingest', '--git', gadgetRepository, '--docs-path', 'docs', '--tags', 'v*', '--library', 'gadget', '--json', '--db', dbPath], { cwd: tmpdir() });
  });

  afterAll(async () => {
    await engine.close();
    await Promise.all(sites.map((site) => site.close()));
  });

  it('lists every library version with its root URL, pages and passages', async () => {
    const listed = await runCliCaptured(['sources', '--json', '--db', dbPath], { cwd: tmpdir() });
    expect(listed.code).toBe(0);
    const sources = JSON.parse(listed.stdout) as { library: string; version: string; url: string; pages: number; passages: number; complete: boolean }[];
    expect(sources.map((source) => `${source.library}@${source.version}`)).toEqual(['alpha@latest', 'beta@3.1', 'gadget@1.0.0', 'gadget@2.0.0', 'gamma@latest', 'widget@1.0', 'widget@2.0']);
    expect(sources.find((source) => source.library === 'widget' && source.version === '1.0')).toMatchObject({ url: `${widget.url}docs/1.0/`, pages: 5, complete: true });
    for (const source of sources) expect(source.passages).toBeGreaterThanOrEqual(source.pages);
  });

  it('labels results of several libraries with their library and version when the search is not scoped', async () => {
    const { results } = await engine.search('connection timeouts', { limit: 20 });
    expect(new Set(results.map((result) => result.library)).size).toBeGreaterThan(1);
    for (const result of results) expect(result).toEqual(expect.objectContaining({ library: expect.any(String), version: expect.any(String) }));
  });

  it('never returns another library or version from a scoped search, and still fills its limit', async () => {
    const scoped = await engine.search('connection timeouts', { library: 'alpha', limit: 5 });
    expect(scoped.results).toHaveLength(5);
    expect(new Set(scoped.results.map((result) => `${result.library}@${result.version}`))).toEqual(new Set(['alpha@latest']));
    const old = await engine.search('install widget pip', { library: 'widget', version: '1.0' });
    expect(old.results.length).toBeGreaterThan(0);
    // The page both versions serve is each version's own, under its own URL.
    for (const result of old.results) expect(result).toMatchObject({ library: 'widget', version: '1.0', url: expect.stringContaining('/docs/1.0/') });
  });

  it('ingests a git repository at each tag as one version per tag, from the CLI', () => {
    expect(gadgetIngest.code).toBe(0);
    const report = JSON.parse(gadgetIngest.stdout) as { versions: { tag: string; library: string; version: string; pages: number; url: string }[] };
    expect(report.versions.map(({ tag, library, version, pages }) => ({ tag, library, version, pages }))).toEqual([
      { tag: 'v1.0.0', library: 'gadget', version: '1.0.0', pages: 2 },
      { tag: 'v2.0.0', library: 'gadget', version: '2.0.0', pages: 2 },
    ]);
  });

  it('keeps the versions of a git library apart: scoped search never returns the other tag, latest is the highest', async () => {
    const old = await engine.search('sprockets cogs gadget', { library: 'gadget', version: '1.0.0', limit: 10 });
    expect(old.results.length).toBeGreaterThan(0);
    for (const result of old.results) expect(result).toMatchObject({ library: 'gadget', version: '1.0.0', url: expect.stringContaining('@v1.0.0/docs/') });
    expect(old.results[0]?.text).toContain('legacy sprockets');
    const latest = await engine.search('sprockets cogs gadget', { library: 'gadget', limit: 10 });
    for (const result of latest.results) expect(result).toMatchObject({ version: '2.0.0' });
    expect(latest.results[0]?.text).toContain('turbo cogs');
  });

  it('says which tags there are when --tags matches none, and refuses a source beside --git', async () => {
    const none = await runCliCaptured(['ingest', '--git', gadgetRepository, '--tags', 'release-*', '--db', dbPath], { cwd: tmpdir() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`No tag of ${gadgetRepository} matches --tags 'release-*'. Its tags: v1.0.0, v2.0.0.`);
    const both = await runCliCaptured(['ingest', 'https://example.com/', '--git', gadgetRepository, '--db', dbPath], { cwd: tmpdir() });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/Give either https:\/\/example\.com\/ or --git/);
  });

  it('takes latest (and a library with no version) to mean the highest version, and accepts ranges', async () => {
    for (const version of [undefined, 'latest', '2.x', '>=1.5 <3']) {
      const { results } = await engine.search('connection timeouts', { library: 'widget', ...(version === undefined ? {} : { version }) });
      expect(new Set(results.map((result) => result.version))).toEqual(new Set(['2.0']));
    }
    const { citations } = await engine.ask('how do I set the connection timeouts', { library: 'widget', version: '1.x' });
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) expect(citation).toMatchObject({ library: 'widget', version: '1.0' });
  });

  it('refuses an unknown version or library, listing the ones there are', async () => {
    await expect(engine.search('timeouts', { library: 'widget', version: '3.0' })).rejects.toThrow(UsageError);
    await expect(engine.search('timeouts', { library: 'widget', version: '3.0' })).rejects.toThrow(/widget has 2\.0, 1\.0/);
    await expect(engine.search('timeouts', { library: 'delta' })).rejects.toThrow(/No library "delta".*alpha \(latest\), beta \(3\.1\), gadget \(2\.0\.0, 1\.0\.0\), gamma \(latest\), widget \(2\.0, 1\.0\)/);
    const cli = await runCliCaptured(['search', 'timeouts', '--library', 'widget', '--version', '9', '--db', dbPath], { cwd: tmpdir() });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/widget has 2\.0, 1\.0/);
  });

  it('ranks the passages of a library the question names first', async () => {
    const { results } = await engine.search('gamma connection timeouts', { limit: 6 });
    expect(results[0]?.library).toBe('gamma');
    expect(results.slice(0, 3).every((result) => result.library === 'gamma')).toBe(true);
  });

  it('refreshes a source with conditional requests only: no unchanged body is fetched', async () => {
    const before = alpha.requests.length;
    const [refreshed] = await engine.refresh('alpha');
    expect(refreshed).toMatchObject({ library: 'alpha', version: 'latest', report: { fetched: 0, unchanged: 7, removed: 0 } });
    expect(alpha.requests.length).toBeGreaterThan(before);
  });

  it('removes exactly one version and leaves the rest searchable', async () => {
    const removed = await runCliCaptured(['remove', 'widget@1.0', '--json', '--db', dbPath], { cwd: tmpdir() });
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual([{ library: 'widget', version: '1.0', pages: 5 }]);
    expect((await engine.listSources()).map((source) => `${source.library}@${source.version}`)).toEqual(['alpha@latest', 'beta@3.1', 'gadget@1.0.0', 'gadget@2.0.0', 'gamma@latest', 'widget@2.0']);
    await expect(engine.search('timeouts', { library: 'widget', version: '1.0' })).rejects.toThrow(/widget has 2\.0/);
    const still = await engine.search('install widget pip', { library: 'widget', version: '2.0' });
    expect(still.results[0]).toMatchObject({ library: 'widget', version: '2.0', url: `${widget.url}docs/2.0/install.html#install-with-pip` });
    expect((await engine.search('connection timeouts', { library: 'beta' })).results.length).toBeGreaterThan(0);
  });
});
