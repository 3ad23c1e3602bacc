import { safeDecode } from '../../core/url-text.js';

/** What the citation post-processor reads of the index: which pages exist and which anchors each has. */
export interface LinkIndex {
  /**
   * The stored page URL this URL is (exact, after normalisation: trailing slash,
   * /index(.html), .md/.mdx/.html extension variants, percent-encoding, default ports,
   * fragment removed), or undefined.
   */
  resolvePage(url: string): Promise<string | undefined>;
  anchorsOf(pageUrl: string): Promise<ReadonlySet<string>>;
  /** Stored pages that have this anchor. */
  pagesWithAnchor(anchor: string): Promise<string[]>;
  /** Stored page URLs starting with this prefix (to resolve a truncated parent/directory URL). */
  pagesUnder(prefix: string): Promise<string[]>;
}

/** The part of the Store a LinkIndex needs (the Store has these methods, so it fits as it is). */
export interface PageLookup {
  resolveFirstPageUrl(urls: readonly string[]): Promise<string | undefined>;
  anchorsOf(url: string): Promise<ReadonlySet<string>>;
  pagesWithAnchor(anchor: string): Promise<string[]>;
  pageUrlsUnder(prefix: string): Promise<string[]>;
}

/** Same list as the local path registry publishes documents from. */
const DOCUMENT_EXTENSIONS = ['.md', '.mdx', '.markdown', '.html', '.htm'] as const;
const INDEX_NAMES = ['index', 'README', 'readme', '_index'] as const;

/**
 * Every spelling a stored page URL may have for this URL, most literal first: the URL as
 * given (fragment removed), its WHATWG form (host case, default port, dot segments), its path
 * percent-decoded and re-encoded, each with and without a trailing slash, a document extension
 * (.md, .mdx, .markdown, .html, .htm) or an index file (index, README, _index). An exact-match
 * lookup tried on each in order resolves the URL as `LinkIndex.resolvePage` describes.
 */
export function urlVariants(url: string): string[] {
  const bare = withoutFragment(url);
  const variants = new Set<string>([bare]);
  const parsed = parse(bare);
  if (parsed === undefined) return [...variants];
  const head = `${parsed.protocol}//${parsed.host}`;
  const paths = pathSpellings(parsed.pathname);
  for (const path of paths) variants.add(`${head}${path}${parsed.search}`);
  for (const path of paths) for (const variant of pathVariants(path)) variants.add(`${head}${variant}${parsed.search}`);
  return [...variants];
}

/**
 * The folder a URL names, as a prefix of the pages in it: `https://d/docs/guide/`,
 * `…/guide`, `…/guide.md` and `…/guide/index.html` all give `https://d/docs/guide/`.
 * Undefined when the URL does not parse.
 */
export function directoryPrefix(url: string): string | undefined {
  const parsed = parse(withoutFragment(url));
  if (parsed === undefined) return undefined;
  return `${parsed.protocol}//${parsed.host}${pathStem(parsed.pathname)}/`;
}

export interface MemoryPage {
  url: string;
  anchors: string[];
  aliases?: string[];
}

/** An in-memory LinkIndex over a fixed list of pages (tests, and answers over a few pages). */
export function createMemoryLinkIndex(pages: readonly MemoryPage[]): LinkIndex {
  const byUrl = new Map<string, string>();
  const anchors = new Map<string, ReadonlySet<string>>();
  for (const page of pages) {
    if (anchors.has(page.url)) continue;
    anchors.set(page.url, new Set(page.anchors));
    byUrl.set(page.url, page.url);
  }
  for (const page of pages) for (const alias of page.aliases ?? []) if (!byUrl.has(alias)) byUrl.set(alias, page.url);
  const urls = [...anchors.keys()].sort();
  return {
    resolvePage: async (url) => urlVariants(url).map((variant) => byUrl.get(variant)).find((hit) => hit !== undefined),
    anchorsOf: async (pageUrl) => anchors.get(pageUrl) ?? new Set<string>(),
    pagesWithAnchor: async (anchor) => urls.filter((url) => anchors.get(url)?.has(anchor) === true),
    pagesUnder: async (prefix) => urls.filter((url) => url.startsWith(prefix)),
  };
}

/** A LinkIndex backed by the store: exact lookups (URL or recorded alias) of every URL variant, in one call. */
export function linkIndexOfStore(store: PageLookup): LinkIndex {
  return {
    resolvePage: (url) => store.resolveFirstPageUrl(urlVariants(url)),
    anchorsOf: (pageUrl) => store.anchorsOf(pageUrl),
    pagesWithAnchor: (anchor) => store.pagesWithAnchor(anchor),
    pagesUnder: (prefix) => store.pageUrlsUnder(prefix),
  };
}

function withoutFragment(url: string): string {
  const hashAt = url.indexOf('#');
  return hashAt === -1 ? url : url.slice(0, hashAt);
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The path as WHATWG encodes it, fully decoded, and re-encoded with upper-case escapes. */
function pathSpellings(encoded: string): string[] {
  const decoded = safeDecode(encoded);
  let reencoded = encoded;
  try {
    reencoded = encodeURI(decoded);
  } catch {
    // A lone surrogate cannot be encoded: the other spellings still apply.
  }
  return [...new Set([encoded, reencoded, decoded])];
}

/** The path without trailing slashes, document extension or index file name: `/docs/a/index.md` → `/docs/a`. */
function pathStem(path: string): string {
  let stem = path.replace(/\/+$/, '');
  const last = stem.slice(stem.lastIndexOf('/') + 1).toLowerCase();
  const extension = DOCUMENT_EXTENSIONS.find((candidate) => last.endsWith(candidate) && last.length > candidate.length);
  if (extension !== undefined) stem = stem.slice(0, -extension.length);
  const name = stem.slice(stem.lastIndexOf('/') + 1).toLowerCase();
  if (INDEX_NAMES.some((index) => index.toLowerCase() === name)) stem = stem.slice(0, stem.lastIndexOf('/'));
  return stem;
}

function pathVariants(path: string): string[] {
  const stem = pathStem(path);
  const indexFiles = INDEX_NAMES.flatMap((name) => DOCUMENT_EXTENSIONS.map((extension) => `${stem}/${name}${extension}`));
  if (stem === '') return ['/', '/index', ...indexFiles];
  return [stem, `${stem}/`, ...DOCUMENT_EXTENSIONS.map((extension) => `${stem}${extension}`), `${stem}/index`, ...indexFiles];
}
