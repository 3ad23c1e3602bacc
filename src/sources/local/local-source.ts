import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, posix, relative, sep } from 'node:path';
import matter from 'gray-matter';
import { SourceError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { ExtractedDocument, SourceItem } from '../../core/types.js';
import { binaryContentReason, decodeDocument } from '../decode.js';
import { NOINDEX, pageFromDocument, SOURCE_LISTING } from '../page-from-document.js';
import { DOCUMENT_EXTENSIONS, PathRegistry, type UrlStyle } from './path-registry.js';

type MaybePromise<T> = T | Promise<T>;

export interface LocalExtractors {
  markdown: (source: string, options: { fallbackTitle: string; resolveLink: (target: string) => string | undefined }) => MaybePromise<ExtractedDocument>;
  html: (html: string, pageUrl: string) => MaybePromise<ExtractedDocument>;
}

export interface LocalSourceOptions {
  directory: string;
  baseUrl: string;
  urlStyle: UrlStyle;
  extractors: LocalExtractors;
  now?: () => Date;
  /** Stored pages under a URL prefix: those no file maps to any more are reported gone. */
  knownUrls?: (prefix: string) => MaybePromise<string[]>;
  /** Pages read at most; the files left are reported in a `limited` item. Unset: every file. */
  maxPages?: number;
  /** Where the documents come from instead of the disk (e.g. a git tag's objects); `directory` then only names them in messages. */
  files?: DocumentFiles;
}

/** A folder's documents: their paths (relative, `/`-separated) and their bytes. */
export interface DocumentFiles {
  list(): Promise<string[]>;
  read(path: string): Promise<Uint8Array>;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.svn', '.hg']);

/** Reads a folder of Markdown/MDX/HTML documents as pages published under `baseUrl`. */
export async function* readLocalFolder(options: LocalSourceOptions): AsyncGenerator<SourceItem> {
  const { directory, extractors } = options;
  const now = options.now ?? (() => new Date());
  const reader = options.files ?? folderFiles(directory);
  const files = (await reader.list()).filter(isDocumentPath).sort(indexFirst);
  if (files.length === 0) {
    throw new SourceError(
      `No documents (${DOCUMENT_EXTENSIONS.join(', ')}) found in ${directory}. Point citedocs at the folder that holds your documentation.`,
      directory,
    );
  }

  // Register every document first, so links between documents resolve to their real URLs.
  const registry = new PathRegistry(options.baseUrl, options.urlStyle);
  const sources = new Map<string, string>();
  const urls = new Map<string, string>();
  for (const path of files) {
    const bytes = await reader.read(path);
    // A binary file named .md or .html (an image, an archive, a build artefact) is no document.
    const binary = binaryContentReason(bytes);
    if (binary !== undefined) {
      yield { kind: 'error', input: path, message: `${path} is not a text document: ${binary}; skipped.` };
      continue;
    }
    // HTML files declare their charset in <meta>; Markdown is UTF-8 (a BOM is honoured and dropped).
    const source = decodeDocument(bytes, { html: !isMarkdown(path) });
    sources.set(path, source);
    const slug = isMarkdown(path) ? frontMatterSlug(source) : undefined;
    const registered = registry.register(path, slug);
    if ('conflictWith' in registered) {
      yield { kind: 'error', input: path, message: `${path} is published at ${registered.url}, which ${registered.conflictWith} already has; skipped ${path}.` };
      continue;
    }
    urls.set(path, registered.url);
  }

  let pages = 0;
  let read = 0;
  for (const [path, url] of urls) {
    if (options.maxPages !== undefined && pages >= options.maxPages) {
      yield { kind: 'limited', limit: 'maxPages', value: options.maxPages, remaining: urls.size - read };
      break;
    }
    read += 1;
    const source = sources.get(path) ?? '';
    try {
      const extracted = isMarkdown(path)
        ? await extractors.markdown(source, { fallbackTitle: posix.basename(path), resolveLink: (target) => resolveRelativeLink(target, path, url, registry) })
        : await extractors.html(source, url);
      if (extracted.noindex === true) {
        // Stored by an earlier run, before it asked not to be: no longer.
        yield { kind: 'gone', url, reason: NOINDEX };
        yield { kind: 'warning', code: 'crawl.noindex', input: path, message: `${path} ${NOINDEX}: its text was not stored` };
        continue;
      }
      if (extracted.sourceListing === true) {
        yield { kind: 'gone', url, reason: SOURCE_LISTING };
        yield { kind: 'warning', code: 'crawl.source-listing', input: path, message: `${path} ${SOURCE_LISTING}: its text was not stored` };
        continue;
      }
      const page = pageFromDocument(url, extracted, { contentHash: sha256(extracted.markdown), fetchedAt: now().toISOString(), source: 'local', sourcePath: path });
      pages += 1;
      yield { kind: 'page', page };
    } catch (error) {
      yield { kind: 'error', input: path, message: `Could not read ${path}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  // Every file was listed (even when a limit stopped the reading): a stored page of this folder that no file maps to was deleted or moved.
  const current = new Set(urls.values());
  for (const url of (await options.knownUrls?.(registry.baseUrl)) ?? []) {
    if (!current.has(url)) yield { kind: 'gone', url, reason: `no file of ${directory} is published at ${url} any more` };
  }
}

function folderFiles(directory: string): DocumentFiles {
  return { list: () => listFiles(directory), read: (path) => readFile(join(directory, ...path.split('/'))) };
}

/** A document a folder's ingest reads: a known extension, nothing under a hidden or dependency folder. */
export function isDocumentPath(path: string): boolean {
  return (DOCUMENT_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase()) && !path.split('/').some((part) => SKIPPED_DIRECTORIES.has(part) || part.startsWith('.'));
}

async function listFiles(directory: string): Promise<string[]> {
  let info;
  try {
    info = await stat(directory);
  } catch (error) {
    throw new SourceError(`${directory} does not exist. Give a folder of documentation or an http(s) URL.`, directory, { cause: error });
  }
  if (!info.isDirectory()) {
    throw new SourceError(`${directory} is not a folder. Give a folder of documentation or an http(s) URL.`, directory);
  }
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(directory, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** `a/index.md` before `a.md`, so a folder's index keeps the URL when both exist. */
function indexFirst(a: string, b: string): number {
  const weight = (path: string) => (/(^|\/)(index|readme|_index)\.[^/]+$/i.test(path) ? 0 : 1);
  return weight(a) - weight(b) || a.localeCompare(b);
}

function isMarkdown(path: string): boolean {
  return ['.md', '.mdx', '.markdown'].includes(extname(path).toLowerCase());
}

function frontMatterSlug(source: string): string | undefined {
  const slug: unknown = matter(source).data['slug'];
  return typeof slug === 'string' && slug.trim() !== '' ? slug : undefined;
}

/** `../b.md#x` from `a/c.md` → the published URL of `b.md` plus `#x`; external links unchanged. */
function resolveRelativeLink(target: string, fromPath: string, fromUrl: string, registry: PathRegistry): string | undefined {
  if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  if (target.startsWith('#')) return `${fromUrl}${target}`;
  const [pathPart = '', fragment] = target.split('#', 2);
  const documentPath = pathPart.startsWith('/') ? pathPart.slice(1) : posix.join(posix.dirname(fromPath), pathPart);
  const url = registry.lookup(decodeURIComponent(documentPath)) ?? new URL(target, fromUrl).href.split('#')[0];
  return fragment === undefined ? url : `${url}#${fragment}`;
}
