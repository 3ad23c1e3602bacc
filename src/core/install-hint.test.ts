import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installInstruction, installKind } from './install-hint.js';

describe('where citedocs is installed, and how an optional package gets beside it', () => {
  const base = mkdtempSync(join(tmpdir(), 'citedocs-install-kind-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const folder = (...parts: string[]) => {
    const path = join(base, ...parts);
    mkdirSync(path, { recursive: true });
    return path;
  };

  it('a global install: <prefix>/lib/node_modules/citedocs with <prefix>/bin/citedocs, installed with -g into that prefix', () => {
    const root = folder('global', 'lib', 'node_modules', 'citedocs');
    writeFileSync(join(folder('global', 'bin'), 'citedocs'), '');
    const where = installKind(root, 'citedocs');
    expect(where).toEqual({ kind: 'global', prefix: join(base, 'global') });
    expect(installInstruction(['@energetic-ai/core@^0.2.0'], where)).toBe(`\`npm install -g --prefix ${join(base, 'global')} @energetic-ai/core@^0.2.0\``);
  });

  it('a global install on Windows: <prefix>\\node_modules\\citedocs with <prefix>\\citedocs.cmd', () => {
    const root = folder('appdata', 'npm', 'node_modules', 'citedocs');
    writeFileSync(join(base, 'appdata', 'npm', 'citedocs.cmd'), '');
    expect(installKind(root, 'citedocs')).toEqual({ kind: 'global', prefix: join(base, 'appdata', 'npm') });
  });

  it('a dependency of a project: installed in that project', () => {
    const root = folder('project', 'node_modules', 'citedocs');
    const where = installKind(root, 'citedocs');
    expect(where).toEqual({ kind: 'dependency', project: join(base, 'project') });
    expect(installInstruction(['x'], where)).toBe(`\`npm install x\` in ${join(base, 'project')}`);
  });

  it('a clone of the repository: npm ci installs the optional packages as development dependencies', () => {
    const where = installKind(folder('clone'), 'citedocs');
    expect(where).toEqual({ kind: 'clone', root: join(base, 'clone') });
    expect(installInstruction(['x'], where)).toMatch(/^`npm ci` in .*clone/);
  });

  it('quotes what a shell would read: a version range with >=, a prefix with a space', () => {
    expect(installInstruction(['@huggingface/transformers@>=3.0.0'], { kind: 'global', prefix: '/opt/my tools' })).toBe('`npm install -g --prefix "/opt/my tools" "@huggingface/transformers@>=3.0.0"`');
  });
});
