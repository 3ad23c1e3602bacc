import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { libraryNameFromHost, libraryNameFromPath, libraryNameFromTitle, libraryNameFromUrlPath, normaliseLibraryName, versionFromUrl } from '../catalog/names.js';
import { UsageError } from '../core/errors.js';
import type { Page } from '../core/types.js';
import type { SourceInput, Store, StoredSource } from '../store/store.js';

export interface SourceRequest {
  /** The crawl's start URL, or the URL a folder (a git tag's docs) is published under. */
  rootUrl: string;
  kind: SourceInput['kind'];
  /** For a folder: its path, a name of last resort. */
  path?: string;
  library?: string;
  version?: string;
  /** The ingest options a refresh repeats. */
  settings: Record<string, unknown>;
  now: () => Date;
}

/** Decides, on the first page an ingest stores, which source (library@version) its pages belong to. */
export interface SourceResolver {
  /** The source's id, created or found on the first call. */
  idFor(store: Store, firstPage: Pick<Page, 'title' | 'url' | 'siteVersion' | 'siteName'>): Promise<number>;
  /** The source once resolved. */
  resolved(): StoredSource | undefined;
  /** Whether a stored page is this ingest's to revalidate or remove: never another source's. */
  owns(store: Store, url: string): Promise<boolean>;
}

/** The URL a folder's pages are published under, as ingest computes it. */
export function folderRootUrl(input: string, baseUrl: string | undefined): string {
  return baseUrl ?? pathToFileURL(resolve(input)).href.replace(/\/?$/, '/');
}

export function assertLibraryName(library: string | undefined, version: string | undefined): void {
  if (library !== undefined && normaliseLibraryName(library) === '') throw new UsageError(`--library "${library}" has no letters or digits. Give a name like pytest or django.`);
  if (version !== undefined && (version.trim() === '' || /[\s@]/.test(version.trim()))) throw new UsageError(`--version "${version}" is not a version. Give one like 5.2, v4 or latest (no spaces, no @).`);
}

/**
 * Names the source of an ingest: the library and version given; else those of the source
 * already read from this root URL (a re-ingest keeps its names); else a library named by the
 * host (or, when the host is an address, the site's name or title the first page gives, else the
 * folder's or URL's last folder) at the version in the URL path, else the one the first page
 * says it documents ("pytest 7.2 documentation"), else `latest`. A derived name another root URL already uses gets a
 * suffix (`-2`), so two sites never merge unless the user names them the same.
 */
export function sourceResolver(request: SourceRequest): SourceResolver {
  assertLibraryName(request.library, request.version);
  let source: StoredSource | undefined;
  const existingByRoot = async (store: Store) => (await store.catalog.listSources()).find((candidate) => candidate.rootUrl === request.rootUrl && candidate.kind === request.kind);
  return {
    async idFor(store, firstPage) {
      if (source !== undefined) return source.id;
      const sources = await store.catalog.listSources();
      // A re-ingest of the same root keeps the version it was stored under: the start page may
      // answer 304 this time, and say nothing of its version.
      const stored = request.version === undefined ? await existingByRoot(store) : undefined;
      const previous = stored !== undefined && (request.library === undefined || normaliseLibraryName(request.library) === normaliseLibraryName(stored.library)) ? stored : undefined;
      let library = request.library?.trim() ?? previous?.library;
      const version = request.version?.trim().replace(/^v(?=\d)/i, '') ?? previous?.version ?? versionFromUrl(request.rootUrl) ?? firstPage.siteVersion ?? 'latest';
      if (library === undefined) {
        const derived =
          libraryNameFromHost(request.rootUrl) ??
          // The site's name first: a start page's own title ("Introduction") names a page.
          (firstPage.siteName === undefined ? undefined : libraryNameFromTitle(firstPage.siteName)) ??
          libraryNameFromTitle(firstPage.title) ??
          (request.path === undefined ? libraryNameFromUrlPath(request.rootUrl) : libraryNameFromPath(request.path)) ??
          'docs';
        library = derived;
        for (let suffix = 2; sources.some((other) => other.library === library && other.version === version && other.rootUrl !== request.rootUrl); suffix += 1) library = `${derived}-${suffix}`;
      }
      source = await store.catalog.upsertSource({ library, version, rootUrl: request.rootUrl, kind: request.kind, settings: request.settings, createdAt: request.now().toISOString() });
      return source.id;
    },
    resolved: () => source,
    async owns(store, url) {
      const label = (await store.catalog.sourceLabels([url])).get(url);
      if (label === undefined) return true;
      const mine = source ?? (await existingByRoot(store));
      return mine !== undefined && label.library === mine.library && label.version === mine.version;
    },
  };
}

/** Stored pages under a prefix that this ingest may revalidate or remove: never another source's. */
export async function ownedUrlsUnder(dependencies: { existingStore: () => Store | undefined; source?: SourceResolver }, prefix: string, kind: Page['source']): Promise<string[]> {
  const store = dependencies.existingStore();
  if (store === undefined) return [];
  const urls = await store.pageUrlsUnder(prefix, kind);
  const resolver = dependencies.source;
  if (resolver === undefined) return urls;
  const owned: string[] = [];
  for (const url of urls) if (await resolver.owns(store, url)) owned.push(url);
  return owned;
}
