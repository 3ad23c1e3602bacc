import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding citedocs's own package.json. This module sits at `<root>/src/core/` in a clone
 * and at `<root>/dist/core/` in an installed package: the same depth, so one relative URL finds it.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string; peerDependencies?: Record<string, string> };

/** The version `citedocs --version` prints and the MCP server announces. */
export const PACKAGE_VERSION: string = manifest.version;
export const PACKAGE_NAME: string = manifest.name;

/** `name@range` for an optional package, with the range package.json declares for it (so an install picks a version that fits). */
export function optionalPackageSpec(name: string): string {
  const range = manifest.peerDependencies?.[name];
  return range === undefined ? name : `${name}@${range}`;
}
