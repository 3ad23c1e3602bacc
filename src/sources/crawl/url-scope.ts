import picomatch from 'picomatch';
import { safeDecode } from '../../core/url-text.js';

/** Extensions that are never documentation pages: not worth a request. */
const BINARY_EXTENSIONS = /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|pdf|zip|gz|tgz|bz2|xz|7z|tar|rar|exe|dmg|msi|deb|rpm|jar|whl|mp3|mp4|webm|ogg|wav|mov|avi|woff2?|ttf|otf|eot|css|js|mjs|map|json|xml|rss|atom|epub|mobi|ps|tex|dvi)$/i;

/**
 * Which URLs a crawl may follow: same origin as the start page, under its folder
 * (`/docs/guide.html` → `/docs/`), matching the include globs (when any) and none of the
 * exclude globs (matched against the URL path, e.g. `/docs/ja/**`), not an obvious binary,
 * and within the trap limits (`urlTrapReason`).
 */
export interface CrawlScope {
  readonly origin: string;
  readonly pathPrefix: string;
  /** Origin and folder: every URL the crawl may store starts with it. */
  readonly prefix: string;
  contains(url: string): boolean;
}

export interface ScopeRules {
  include?: readonly string[];
  exclude?: readonly string[];
  /** Longer URLs are traps (a path that grows with every link), never real pages. */
  maxUrlLength?: number;
  /** A URL whose path has one segment more often than this is a trap (`/a/b/a/b/a/b/…`). */
  maxRepeatedSegments?: number;
}

/** Defaults of the trap limits: the sitemap protocol caps URLs at 2,048 characters. */
export const DEFAULT_URL_LIMITS = { maxUrlLength: 2048, maxRepeatedSegments: 3 } as const;

/**
 * Why a URL looks like a crawler trap, or undefined: longer than `maxUrlLength`, or a path
 * repeating one segment more than `maxRepeatedSegments` times. A site whose pages link to
 * `x/` relative to themselves grows `/x/x/x/…` without end; these limits stop it.
 */
export function urlTrapReason(url: string, limits: Pick<ScopeRules, 'maxUrlLength' | 'maxRepeatedSegments'> = {}): string | undefined {
  const maxLength = limits.maxUrlLength ?? DEFAULT_URL_LIMITS.maxUrlLength;
  if (url.length > maxLength) return `its URL has ${url.length} characters, over crawl.maxUrlLength (${maxLength})`;
  const maxRepeats = limits.maxRepeatedSegments ?? DEFAULT_URL_LIMITS.maxRepeatedSegments;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const counts = new Map<string, number>();
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    const count = (counts.get(segment) ?? 0) + 1;
    if (count > maxRepeats) return `its path repeats the segment "${segment.slice(0, 40)}" ${count} times, over crawl.maxRepeatedSegments (${maxRepeats})`;
    counts.set(segment, count);
  }
  return undefined;
}

export function createScope(startUrl: string, rules: ScopeRules = {}): CrawlScope {
  const start = new URL(startUrl);
  const pathPrefix = start.pathname.endsWith('/') ? start.pathname : start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
  const included = rules.include !== undefined && rules.include.length > 0 ? picomatch([...rules.include], { dot: true }) : undefined;
  const excluded = rules.exclude !== undefined && rules.exclude.length > 0 ? picomatch([...rules.exclude], { dot: true }) : undefined;
  return {
    origin: start.origin,
    pathPrefix,
    prefix: `${start.origin}${pathPrefix}`,
    contains(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
      if (parsed.origin !== start.origin || !parsed.pathname.startsWith(pathPrefix) || BINARY_EXTENSIONS.test(parsed.pathname)) return false;
      if (urlTrapReason(url, rules) !== undefined) return false;
      const path = safeDecode(parsed.pathname);
      if (excluded?.(path) === true) return false;
      return included === undefined || included(path) || parsed.pathname === start.pathname;
    },
  };
}


/** The URL a page is fetched and stored under: no fragment. */
export function pageUrlOf(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

const INDEX_FILE = /\/index\.html?$/i;

/**
 * `guide/index.html` and `guide/` are one page: the folder URL is the one kept, whichever
 * link is found first, so repeated crawls store the same URL. Undefined when not an index file.
 */
export function folderUrlOf(url: string): string | undefined {
  const parsed = new URL(url);
  if (!INDEX_FILE.test(parsed.pathname) || parsed.search !== '') return undefined;
  parsed.pathname = parsed.pathname.replace(INDEX_FILE, '/');
  parsed.hash = '';
  return parsed.href;
}
