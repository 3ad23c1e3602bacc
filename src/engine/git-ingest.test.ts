import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { createGitRepository } from '../testing/git-fixture.js';
import { createEngine, type Engine } from './engine.js';

const GUIDE_1 = '# Guide\n\nHow to use widget.\n\n## Installing\n\nRun `pip install widget` to get the frobnicator.\n';
const GUIDE_2 = '# Guide\n\nHow to use widget.\n\n## Setting up\n\nRun `widget-setup` to configure the quuxinator.\n';
const INDEX = '# Widget\n\nWidget turns things. See [the guide](guide.md#installing).\n';

/** Two tagged versions whose docs differ, an untagged commit after them, and files beside the docs. */
function widgetRepository(): string {
  return createGitRepository([
    { files: { 'README.md': '# Widget readme\n', 'docs/index.md': INDEX, 'docs/guide.md': GUIDE_1, 'docs/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) }, tag: 'v1.0.0' },
    { files: { 'docs/guide.md': GUIDE_2, 'docs/api.html': '<html><head><title>API</title></head><body><main><h1 id="api">API</h1><p>The spin() call.</p></main></body></html>' }, tag: 'v2.0.0', annotated: true },
    { files: { 'docs/guide.md': '# Guide\n\nUnreleased work.\n' } },
  ]);
}

describe('ingesting a git repository, one version per tag', () => {
  const engines: Engine[] = [];
  const engineAt = () => {
    const engine = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-git-ingest-')), 'index.db') });
    engines.push(engine);
    return engine;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  it('stores each matching tag as a version named by the tag, read from git objects with its own files', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    const report = await engine.ingestGit(repository, { tags: ['v*'] });
    expect(report.versions.map((version) => [version.tag, version.library, version.version, version.pages])).toEqual([
      ['v1.0.0', 'project', '1.0.0', 2],
      ['v2.0.0', 'project', '2.0.0', 3],
    ]);
    const base = `git+${pathToFileURL(repository).href}`;
    expect(report.versions[0]?.url).toBe(`${base}@v1.0.0/docs/`);
    expect((await engine.listSources()).map((source) => [source.library, source.version, source.kind, source.url])).toEqual([
      ['project', '1.0.0', 'git', `${base}@v1.0.0/docs/`],
      ['project', '2.0.0', 'git', `${base}@v2.0.0/docs/`],
    ]);
    // The working tree holds neither version's guide: the pages come from the tags.
    const old = await engine.search('frobnicator', { library: 'project', version: '1.0.0' });
    expect(old.results[0]).toMatchObject({ library: 'project', version: '1.0.0', url: `${base}@v1.0.0/docs/guide.md#installing` });
    expect((await engine.search('frobnicator quuxinator spin', { library: 'project', version: '1.0.0' })).results.every((result) => result.version === '1.0.0')).toBe(true);
    const latest = await engine.search('quuxinator', { library: 'project', version: 'latest' });
    expect(latest.results[0]).toMatchObject({ version: '2.0.0', url: `${base}@v2.0.0/docs/guide.md#setting-up` });
    expect((await engine.search('spin call', { library: 'project' })).results[0]?.url).toBe(`${base}@v2.0.0/docs/api.html#api`);
    expect(await engine.search('unreleased', { library: 'project', version: '2.0.0' })).toMatchObject({ results: [] });
  });

  it('links between documents stay inside their version', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    await engine.ingestGit(repository, { tags: ['v1.0.0'] });
    const page = await engine.inspect(`git+${pathToFileURL(repository).href}@v1.0.0/docs/index.md`);
    expect(page?.chunks.map((chunk) => chunk.text).join('\n')).toContain(`(git+${pathToFileURL(repository).href}@v1.0.0/docs/guide.md#installing)`);
  });

  it('reads HEAD as latest without --tags, and publishes under --base-url with {version}', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    const head = await engine.ingestGit(repository, {});
    expect(head.versions.map((version) => [version.tag, version.version, version.pages])).toEqual([['HEAD', 'latest', 3]]);
    const published = await engine.ingestGit(repository, { tags: ['v1*', 'v2*'], baseUrl: 'https://widget.example/docs/{version}/', library: 'widget' });
    expect(published.versions.map((version) => version.url)).toEqual(['https://widget.example/docs/1.0.0/', 'https://widget.example/docs/2.0.0/']);
    expect((await engine.search('frobnicator', { library: 'widget', version: '1.0.0' })).results[0]?.url).toBe('https://widget.example/docs/1.0.0/guide#installing');
  });

  it('clones a repository given by URL (here a file:// one) and removes the clone afterwards', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    const report = await engine.ingestGit(pathToFileURL(repository).href, { tags: ['v2.0.0'] });
    expect(report.versions.map((version) => [version.library, version.version, version.pages])).toEqual([['project', '2.0.0', 3]]);
  });

  it('refreshes a git version by reading its tag again: every file unchanged', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    await engine.ingestGit(repository, { tags: ['v*'] });
    const [refreshed, ...rest] = await engine.refresh('project@1.0.0');
    expect(rest).toEqual([]);
    expect(refreshed).toMatchObject({ library: 'project', version: '1.0.0', report: { unchanged: 2, added: 0, changed: 0, removed: 0 } });
  });

  it('says what is wrong: not a repository, no tag matching (listing the tags), a docs folder missing at a tag, one --version for several tags', async () => {
    const repository = widgetRepository();
    const engine = engineAt();
    const plain = mkdtempSync(join(tmpdir(), 'citedocs-not-git-'));
    await expect(engine.ingestGit(plain, { tags: ['v*'] })).rejects.toThrow(new RegExp(`--git ${plain}: it is not a git repository`));
    await expect(engine.ingestGit(join(plain, 'missing'), {})).rejects.toThrow(/neither an existing folder nor a repository URL/);
    await expect(engine.ingestGit(repository, { tags: ['release-*'] })).rejects.toThrow("No tag of " + repository + " matches --tags 'release-*'. Its tags: v1.0.0, v2.0.0.");
    await expect(engine.ingestGit(repository, { tags: ['v*'], docsPath: 'site' })).rejects.toThrow(`${repository} has no folder site/ at tag v1.0.0 (its top-level folders there: docs). Give the docs folder with --docs-path, or choose tags that have it with --tags.`);
    await expect(engine.ingestGit(repository, { tags: ['v*'], version: '3' })).rejects.toThrow(UsageError);
    await expect(engine.ingestGit(repository, { tags: ['v*'], version: '3' })).rejects.toThrow(/matched 2 tags \(v1\.0\.0, v2\.0\.0\)/);
    // Nothing was stored by the refused runs.
    expect(await engine.listSources()).toEqual([]);
  });

  it('refuses a docs path that exists at one matching tag but not at another before storing anything', async () => {
    const repository = createGitRepository([
      { files: { 'manual/a.md': '# A\n\nAlpha.\n' }, tag: 'v1' },
      { files: { 'manual/a.md': null, 'docs/a.md': '# A\n\nAlpha two.\n' }, tag: 'v2' },
    ]);
    const engine = engineAt();
    await expect(engine.ingestGit(repository, { tags: ['v*'], docsPath: 'docs' })).rejects.toThrow(/has no folder docs\/ at tag v1 \(its top-level folders there: manual\)/);
    expect(await engine.listSources()).toEqual([]);
    expect(execFileSync('git', ['-C', repository, 'tag']).toString()).toBe('v1\nv2\n');
  });
});
