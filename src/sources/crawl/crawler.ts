import { SourceError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { ExtractedDocument, Page, SourceItem } from '../../core/types.js';
import { type FetchLike, type FetchedPage, fetchPage } from './fetch-page.js';
import { type CrawlScope, createScope, folderUrlOf, pageUrlOf } from './url-scope.js';

export interface CrawlOptions {
  startUrl: string;
  maxPages: number;
  concurrency: number;
  timeoutMs: number;
  maxPageBytes: number;
  userAgent: string;
  /** The extract stage, injected: main content as Markdown, plus every link on the page. */
  extract: (html: string, pageUrl: string) => ExtractedDocument & { links: string[] };
  fetch?: FetchLike;
  now?: () => Date;
  signal?: AbortSignal;
  /** Called when a page is queued or finished, for progress display. */
  onProgress?: (progress: { done: number; queued: number }) => void;
}

interface Outcome {
  requestedUrl: string;
  fetched: FetchedPage;
}

/**
 * Breadth-first crawl from `startUrl`, same origin, under the start page's folder, at most
 * `maxPages` requests and `concurrency` in flight. Yields pages as they finish; a failed page
 * is an error item, but an unreachable start page throws, because nothing could be crawled.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<SourceItem> {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? (() => new Date());
  const fetchOptions = {
    fetch: fetchImpl,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxPageBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };

  const startUrl = pageUrlOf(options.startUrl);
  const first = await fetchPage(startUrl, fetchOptions);
  if (first.kind === 'failed') {
    throw new SourceError(
      `Could not crawl ${options.startUrl}: ${first.message}. Check the URL and that the site is up (for a folder of files, pass its path instead).`,
      options.startUrl,
    );
  }
  // Scope comes from where the start page really is, after redirects (`/docs` → `/docs/`).
  const scope = createScope(first.url);
  const seen = new Set<string>([startUrl, pageUrlOf(first.url)]);
  const hashes = new Map<string, string>();
  const queue: string[] = [];
  /** Folder URL → the index file it was linked as, fetched instead when the folder URL fails. */
  const indexFiles = new Map<string, string>();
  let requested = 1;
  let done = 0;

  const handle = function* (outcome: Outcome): Generator<SourceItem> {
    done += 1;
    const { fetched } = outcome;
    if (fetched.kind === 'failed') {
      // A server without folder indexes serves `guide/index.html` but not `guide/`.
      const indexFile = indexFiles.get(outcome.requestedUrl);
      if (indexFile !== undefined && fetched.status === 404) {
        indexFiles.delete(outcome.requestedUrl);
        queue.unshift(indexFile);
        return;
      }
      yield { kind: 'error', input: outcome.requestedUrl, message: fetched.message };
      return;
    }
    const url = pageUrlOf(fetched.url);
    if (url !== outcome.requestedUrl) {
      if (!scope.contains(url)) {
        yield { kind: 'error', input: outcome.requestedUrl, message: `${outcome.requestedUrl} redirects to ${url}, outside ${scope.origin}${scope.pathPrefix}; skipped` };
        return;
      }
      if (seen.has(url) && outcome.requestedUrl !== startUrl) return;
      seen.add(url);
    }
    let extracted;
    try {
      extracted = options.extract(fetched.html, url);
    } catch (error) {
      yield { kind: 'error', input: url, message: `Could not extract ${url}: ${error instanceof Error ? error.message : String(error)}` };
      return;
    }
    enqueueLinks(extracted.links, scope, seen, queue, indexFiles);
    const contentHash = sha256(extracted.markdown);
    // `guide/` and `guide/index.html` are one page served twice: keep the first URL seen.
    if (hashes.has(contentHash)) return;
    hashes.set(contentHash, url);
    const page: Page = {
      url,
      canonicalUrl: url,
      title: extracted.title,
      markdown: extracted.markdown,
      headings: extracted.headings,
      anchors: extracted.anchors,
      contentHash,
      fetchedAt: now().toISOString(),
      source: 'crawl',
      ...(fetched.etag === undefined ? {} : { etag: fetched.etag }),
      ...(fetched.lastModified === undefined ? {} : { lastModified: fetched.lastModified }),
    };
    yield { kind: 'page', page };
  };

  yield* handle({ requestedUrl: startUrl, fetched: first });
  options.onProgress?.({ done, queued: queue.length });

  const inFlight = new Map<string, Promise<Outcome>>();
  while (queue.length > 0 || inFlight.size > 0) {
    while (queue.length > 0 && inFlight.size < options.concurrency && requested < options.maxPages && options.signal?.aborted !== true) {
      const next = queue.shift() as string;
      requested += 1;
      inFlight.set(next, fetchPage(next, fetchOptions).then((fetched) => ({ requestedUrl: next, fetched })));
    }
    if (inFlight.size === 0) break;
    const outcome = await Promise.race(inFlight.values());
    inFlight.delete(outcome.requestedUrl);
    yield* handle(outcome);
    options.onProgress?.({ done, queued: queue.length + inFlight.size });
  }
}

/** Queues unseen in-scope links; an index file is queued as its folder URL (see folderUrlOf). */
function enqueueLinks(links: readonly string[], scope: CrawlScope, seen: Set<string>, queue: string[], indexFiles: Map<string, string>): void {
  for (const link of links) {
    if (!scope.contains(link)) continue;
    const original = pageUrlOf(link);
    const folder = folderUrlOf(original);
    const url = folder !== undefined && scope.contains(folder) ? folder : original;
    if (seen.has(url)) continue;
    seen.add(url);
    seen.add(original);
    if (url !== original) indexFiles.set(url, original);
    queue.push(url);
  }
}
