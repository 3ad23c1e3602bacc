import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PACKAGE_NAME, PACKAGE_ROOT } from './package-info.js';

/** Where this copy of citedocs is installed, which decides where an optional package must go. */
export type InstallKind = { kind: 'global'; prefix: string } | { kind: 'dependency'; project: string } | { kind: 'clone'; root: string };

/**
 * A global install lives in `<prefix>/lib/node_modules/citedocs` with its command linked at
 * `<prefix>/bin/citedocs` (on Windows `<prefix>\node_modules\citedocs` and `<prefix>\citedocs.cmd`);
 * a dependency in `<project>/node_modules/citedocs`; anything else is a clone of the repository.
 */
export function installKind(root: string = PACKAGE_ROOT, name: string = PACKAGE_NAME): InstallKind {
  const packageDir = resolve(root);
  const modules = dirname(packageDir);
  if (basename(modules) !== 'node_modules') return { kind: 'clone', root: packageDir };
  const above = dirname(modules);
  if (basename(above) === 'lib' && existsSync(join(dirname(above), 'bin', name))) return { kind: 'global', prefix: dirname(above) };
  if (existsSync(join(above, `${name}.cmd`))) return { kind: 'global', prefix: above };
  return { kind: 'dependency', project: above };
}

/**
 * How to install optional packages where this copy of citedocs can import them, as a phrase:
 * "`npm install -g --prefix /usr/local x`". Node resolves a package from the folders above
 * citedocs's own, so a global install finds packages installed globally beside it (the prefix is
 * named: npm's default may not be the one used), and a dependency finds those of its project.
 */
export function installInstruction(packages: readonly string[], where: InstallKind = installKind()): string {
  const list = packages.map(quote).join(' ');
  switch (where.kind) {
    case 'global':
      return `\`npm install -g --prefix ${quote(where.prefix)} ${list}\``;
    case 'dependency':
      return `\`npm install ${list}\` in ${where.project}`;
    case 'clone':
      return `\`npm ci\` in ${where.root} (a clone installs the optional packages for development)`;
  }
}

/** Double quotes where a shell would read a character (`>=` in a version range, a space in a path): they work in sh, cmd and PowerShell. */
function quote(word: string): string {
  return /^[\w@./:\\^~-]+$/.test(word) ? word : `"${word}"`;
}
