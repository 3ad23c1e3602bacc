import semver from 'semver';
import { UsageError } from '../core/errors.js';
import { normaliseLibraryName } from './names.js';

/** What a catalog decision needs to know of a source. */
export interface CatalogSource {
  id: number;
  library: string;
  version: string;
}

export interface ScopeRequest {
  library?: string;
  version?: string;
}

const LATEST = 'latest';

/** `15` → 15.0.0, `3.11` → 3.11.0, `v4.2.1` → 4.2.1; undefined for a version with no number (`latest`, `main`). */
export function coerceVersion(version: string): semver.SemVer | undefined {
  return semver.coerce(version) ?? undefined;
}

/** Highest first: numbered versions by semver, then the others (`latest`, `main`) by name. */
export function compareVersionsDescending(a: string, b: string): number {
  const first = coerceVersion(a);
  const second = coerceVersion(b);
  if (first !== undefined && second !== undefined) return semver.rcompare(first, second) || a.localeCompare(b);
  if (first !== undefined) return -1;
  if (second !== undefined) return 1;
  return a.localeCompare(b);
}

/**
 * The version of one library a version request names: an exact value (`5.2`, also `v5.2` or
 * `5.2.0`), a range (`5.x`, `>=4.2 <5`: its highest match) or `latest` (the highest numbered
 * version, else the one called `latest`). Undefined when none matches: never a substitute.
 */
export function pickVersion(versions: readonly string[], request: string): string | undefined {
  const wanted = request.trim();
  const exact = versions.find((version) => version === wanted) ?? versions.find((version) => version.toLowerCase() === wanted.toLowerCase().replace(/^v(?=\d)/, ''));
  if (exact !== undefined) return exact;
  const sorted = [...versions].sort(compareVersionsDescending);
  if (wanted.toLowerCase() === LATEST) return sorted[0];
  const coerced = /^v?\d+(\.\d+){0,2}$/i.test(wanted) ? coerceVersion(wanted) : undefined;
  if (coerced !== undefined) {
    const same = sorted.find((version) => coerceVersion(version)?.compare(coerced) === 0);
    if (same !== undefined) return same;
  }
  const range = semver.validRange(wanted, { loose: true });
  if (range === null || coerced !== undefined) return undefined;
  return sorted.find((version) => {
    const numbered = coerceVersion(version);
    return numbered !== undefined && semver.satisfies(numbered, range);
  });
}

/** Whether a version request is something `pickVersion` understands at all. */
export function isVersionRequest(request: string): boolean {
  const wanted = request.trim();
  return wanted !== '' && (wanted.toLowerCase() === LATEST || /^[\w.+-]+$/.test(wanted) || semver.validRange(wanted, { loose: true }) !== null);
}

/** "pytest (8.1, 7.4), libssh (latest)": what the index holds, for error messages. */
export function describeCatalog(sources: readonly CatalogSource[]): string {
  const byLibrary = groupByLibrary(sources);
  if (byLibrary.size === 0) return 'none (the index has no sources yet)';
  return [...byLibrary.entries()].map(([library, versions]) => `${library} (${versions.join(', ')})`).join(', ');
}

/**
 * The sources a request is scoped to: one version per library (a library alone: its `latest`;
 * a version alone: that version of every library that has it). Undefined when the request
 * names neither. An unknown library or version is a usage error listing what there is.
 */
export function resolveScope(sources: readonly CatalogSource[], request: ScopeRequest): CatalogSource[] | undefined {
  const library = request.library?.trim();
  const version = request.version?.trim();
  if ((library === undefined || library === '') && (version === undefined || version === '')) return undefined;
  const byLibrary = groupByLibrary(sources);
  let libraries = [...byLibrary.keys()];
  if (library !== undefined && library !== '') {
    const wanted = normaliseLibraryName(library);
    const match = libraries.find((name) => name === library) ?? libraries.find((name) => normaliseLibraryName(name) === wanted);
    if (match === undefined) throw new UsageError(`No library "${library}" in the index. Libraries: ${describeCatalog(sources)}. Use one of these names (or resolve_library to find one).`);
    libraries = [match];
  }
  const chosen: CatalogSource[] = [];
  for (const name of libraries) {
    const versions = byLibrary.get(name) ?? [];
    const picked = pickVersion(versions, version === undefined || version === '' ? LATEST : version);
    const source = sources.find((candidate) => candidate.library === name && candidate.version === picked);
    if (source !== undefined) chosen.push(source);
  }
  if (chosen.length === 0) {
    const known = library === undefined || library === '' ? describeCatalog(sources) : `${libraries[0]} has ${(byLibrary.get(libraries[0] ?? '') ?? []).join(', ')}`;
    throw new UsageError(`No version matches "${version ?? ''}"${library === undefined || library === '' ? ' in any library' : ` for ${libraries[0]}`}: ${known}. Give one of these, a range like 5.x or ">=4.2 <5", or latest.`);
  }
  return chosen;
}

/** Library → its versions, highest first, libraries by name. */
export function groupByLibrary(sources: readonly CatalogSource[]): Map<string, string[]> {
  const byLibrary = new Map<string, string[]>();
  for (const source of [...sources].sort((a, b) => a.library.localeCompare(b.library))) byLibrary.set(source.library, [...(byLibrary.get(source.library) ?? []), source.version]);
  for (const versions of byLibrary.values()) versions.sort(compareVersionsDescending);
  return byLibrary;
}
