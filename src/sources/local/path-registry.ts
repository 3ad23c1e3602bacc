import { posix } from 'node:path';

/**
 * `clean` → base/a/b, `slash` → base/a/b/, `html` → base/a/b.html, `source` → base/a/b.md
 * (the file itself: used for file:// URLs when no base URL is given).
 */
export type UrlStyle = 'clean' | 'slash' | 'html' | 'source';

export const DOCUMENT_EXTENSIONS = ['.md', '.mdx', '.markdown', '.html', '.htm'] as const;
const INDEX_NAMES = new Set(['index', 'readme', '_index']);

export interface RegisteredDocument {
  path: string;
  url: string;
}

/**
 * Maps document paths (relative, `/`-separated) to the one canonical URL each is published
 * at: `a/b.md`, `a/b.mdx` and `a/b/index.md` → `base/a/b` (clean style). A file is never
 * mapped to its parent directory, and two files never share a URL: the first registered keeps it.
 */
export class PathRegistry {
  readonly #baseUrl: URL;
  readonly #style: UrlStyle;
  readonly #byPath = new Map<string, string>();
  readonly #byUrl = new Map<string, string>();

  constructor(baseUrl: string, style: UrlStyle) {
    this.#baseUrl = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.#style = style;
  }

  /** The URL every document of the folder is published under. */
  get baseUrl(): string {
    return this.#baseUrl.href;
  }

  /** Registers a document; returns its URL, or the path already holding that URL on a collision. */
  register(path: string, slug?: string): { url: string } | { conflictWith: string; url: string } {
    const url = this.urlFor(path, slug);
    const holder = this.#byUrl.get(url);
    if (holder !== undefined && holder !== path) return { conflictWith: holder, url };
    this.#byUrl.set(url, path);
    this.#byPath.set(normalisePath(path), url);
    return { url };
  }

  /** The URL of a registered document, given its path with or without extension. */
  lookup(path: string): string | undefined {
    const normal = normalisePath(path);
    const direct = this.#byPath.get(normal);
    if (direct !== undefined) return direct;
    for (const extension of DOCUMENT_EXTENSIONS) {
      const found = this.#byPath.get(`${normal}${extension}`) ?? this.#byPath.get(`${normal}/index${extension}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The published URL of a path: pure, no registration. */
  urlFor(path: string, slug?: string): string {
    if (this.#style === 'source') return new URL(encodePath(normalisePath(path)), this.#baseUrl).href;
    const route = slug === undefined ? routeOf(normalisePath(path)) : slugRoute(normalisePath(path), slug);
    if (route.isIndex) {
      if (route.path === '') return this.#baseUrl.href;
      return new URL(this.#style === 'clean' ? route.path : `${route.path}/`, this.#baseUrl).href;
    }
    const suffix = this.#style === 'slash' ? '/' : this.#style === 'html' ? '.html' : '';
    return new URL(`${route.path}${suffix}`, this.#baseUrl).href;
  }
}

interface Route {
  path: string;
  isIndex: boolean;
}

function routeOf(path: string): Route {
  const extension = posix.extname(path);
  const withoutExtension = extension === '' ? path : path.slice(0, -extension.length);
  const name = posix.basename(withoutExtension);
  if (INDEX_NAMES.has(name.toLowerCase())) {
    const directory = posix.dirname(withoutExtension);
    return { path: directory === '.' ? '' : encodePath(directory), isIndex: true };
  }
  return { path: encodePath(withoutExtension), isIndex: false };
}

/** Front-matter `slug`: `/x/y` is relative to the base URL, `y` to the document's folder. */
function slugRoute(path: string, slug: string): Route {
  const trimmed = slug.trim();
  const joined = trimmed.startsWith('/') ? trimmed.slice(1) : posix.join(posix.dirname(path), trimmed);
  const clean = posix.normalize(joined).replace(/^(\.\/|\.$)/, '').replace(/\/+$/, '');
  return { path: clean === '.' ? '' : encodePath(clean), isIndex: clean === '' || clean === '.' };
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function normalisePath(path: string): string {
  return posix.normalize(path.replaceAll('\\', '/')).replace(/^\.\//, '').replace(/^\/+/, '');
}
