import { libraryNameFromHost } from '../catalog/names.js';
import { rankLibraries } from '../catalog/resolve-library.js';
import { groupByLibrary, pickVersion, resolveScope, describeCatalog, type ScopeRequest } from '../catalog/scope.js';
import { librariesNamedIn } from '../catalog/routing.js';
import { UsageError } from '../core/errors.js';
import type { Candidate } from '../core/types.js';
import type { IngestRunSummary, SourceLabel, Store, StoredSource } from '../store/store.js';
import type { LibraryMatch, SourceSummary } from './engine-types.js';

/** The sources a search or answer is limited to; undefined: the whole index. */
export async function scopedSourceIds(store: Store, request: ScopeRequest): Promise<number[] | undefined> {
  return resolveScope(await store.catalog.sourceNames(), request)?.map((source) => source.id);
}

/** One entry per library version, with its pages, passages, freshness and how its last ingest ended. */
export function summariseCatalog(sources: readonly StoredSource[], runs: readonly IngestRunSummary[], now: Date): SourceSummary[] {
  return sources.map((source) => {
    const ingests = runs.filter((run) => run.source === source.rootUrl);
    const freshness = source.oldestFetch === undefined ? undefined : Math.max(0, Math.round((now.getTime() - Date.parse(source.oldestFetch)) / 86_400_000));
    return {
      library: source.library,
      version: source.version,
      url: source.rootUrl,
      kind: source.kind,
      pages: source.pages,
      passages: source.passages,
      ...(source.lastCrawl === undefined ? {} : { lastCrawl: source.lastCrawl }),
      ...(freshness === undefined ? {} : { oldestPageAgeDays: freshness }),
      ...(source.description === undefined ? {} : { description: source.description }),
      ...(ingests.length === 0 ? {} : { complete: ingests.every((run) => run.complete), ingests }),
    };
  });
}

/** `pytest` or `pytest@8.1` (a range or latest too): the sources it names; an unknown one is a usage error listing those there are. */
export function sourcesNamed(sources: readonly StoredSource[], spec: string): StoredSource[] {
  const at = spec.lastIndexOf('@');
  const library = (at > 0 ? spec.slice(0, at) : spec).trim();
  const version = at > 0 ? spec.slice(at + 1).trim() : undefined;
  if (library === '') throw new UsageError(`"${spec}" names no library. Give LIBRARY or LIBRARY@VERSION, like pytest@8.1 (citedocs sources lists them).`);
  if (version === undefined) {
    const named = resolveScope(sources, { library })?.[0]?.library;
    return sources.filter((source) => source.library === named);
  }
  const [chosen] = resolveScope(sources, { library, version }) ?? [];
  return sources.filter((source) => source.id === chosen?.id);
}

/** Removes every page of these sources, then the sources. */
export async function removeSources(store: Store, sources: readonly StoredSource[]): Promise<{ library: string; version: string; pages: number }[]> {
  const removed: { library: string; version: string; pages: number }[] = [];
  for (const source of sources) {
    let pages = 0;
    for (const url of await store.catalog.pageUrlsOfSource(source.id)) if (await store.removePage(url)) pages += 1;
    await store.catalog.deleteSource(source.id);
    removed.push({ library: source.library, version: source.version, pages });
  }
  return removed;
}

/** Candidates for a name as typed, best first, with their versions (highest first), pages and a one-line description. */
export function matchLibraries(sources: readonly StoredSource[], typed: string, limit = 5): LibraryMatch[] {
  const byLibrary = groupByLibrary(sources);
  return rankLibraries(typed, [...byLibrary.keys()])
    .slice(0, limit)
    .map(({ library, score }) => {
      const versions = byLibrary.get(library) ?? [];
      const own = sources.filter((source) => source.library === library);
      const latest = own.find((source) => source.version === pickVersion(versions, 'latest'));
      return {
        library,
        score,
        versions,
        pages: own.reduce((sum, source) => sum + source.pages, 0),
        description: latest?.description ?? latest?.rootUrl ?? '',
        url: latest?.rootUrl ?? '',
      };
    });
}

/** What a result or citation of this page URL says of its library and version. */
export function labelFor(labels: ReadonlyMap<string, SourceLabel>, url: string): SourceLabel {
  const pageUrl = url.split('#')[0] ?? url;
  return labels.get(pageUrl) ?? { library: libraryNameFromHost(pageUrl) ?? 'local', version: 'latest' };
}

/** The latest version of each library an unscoped question names, when the index holds more than one library; undefined when it names none. */
export async function namedLibrarySources(store: Store, question: string): Promise<number[] | undefined> {
  const sources = await store.catalog.sourceNames();
  if (groupByLibrary(sources).size < 2) return undefined;
  const named = librariesNamedIn(question, sources.map((source) => source.library));
  if (named.length === 0) return undefined;
  return named.flatMap((library) => resolveScope(sources, { library })?.map((source) => source.id) ?? []);
}

/**
 * Routing of an unscoped question that names libraries of the index ("pytest fixture
 * teardown"): their passages first, each group in its own order. A question that names none
 * keeps its order (its results say their library instead).
 */
export async function routeByNamedLibrary(question: string, candidates: readonly Candidate[], store: Store): Promise<{ candidates: Candidate[]; named: string[] }> {
  const sources = await store.catalog.sourceNames();
  if (groupByLibrary(sources).size < 2) return { candidates: [...candidates], named: [] };
  const named = librariesNamedIn(question, sources.map((source) => source.library));
  if (named.length === 0 || candidates.length === 0) return { candidates: [...candidates], named };
  const labels = await store.catalog.sourceLabels(candidates.map((candidate) => candidate.chunk.pageUrl));
  const first: Candidate[] = [];
  const rest: Candidate[] = [];
  for (const candidate of candidates) (named.includes(labelFor(labels, candidate.chunk.pageUrl).library) ? first : rest).push(candidate);
  return { candidates: [...first, ...rest], named };
}

/** The source (library version) of each candidate's page, for an index of several sources; one that has none: undefined. */
export async function sourceIdOfCandidates(store: Store, candidates: readonly Candidate[]): Promise<(candidate: Candidate) => number | undefined> {
  const sources = await store.catalog.sourceNames();
  if (sources.length < 2) return () => undefined;
  const labels = await store.catalog.sourceLabels(candidates.map((candidate) => candidate.chunk.pageUrl));
  const ids = new Map(sources.map((source) => [`${source.library}@${source.version}`, source.id]));
  return (candidate) => {
    const label = labels.get(candidate.chunk.pageUrl);
    return label === undefined ? undefined : ids.get(`${label.library}@${label.version}`);
  };
}

export { describeCatalog };
