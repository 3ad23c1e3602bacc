import { sha256 } from '../../core/hash.js';
import type { Page, SourceItem } from '../../core/types.js';
import type { CrawlOptions } from './crawl-options.js';
import { discoverListedPages } from './discovery.js';
import { abortableSleep } from '../../core/http/retry.js';
import { startCrawl } from './crawl-start.js';
import type { FetchLike } from '../../core/http/send.js';
import { type FetchPageOptions, type FetchedPage, fetchPage } from './fetch-page.js';
import { createMemoryFrontier, type FrontierEntry } from './frontier.js';
import { renderFetched } from './render-fetched.js';
import { createCrawlFetch, createHostPolicy, type HostPolicy } from './host-policy.js';
import { folderUrlOf, pageUrlOf, type ScopeRules, urlTrapReason } from './url-scope.js';

export type { CrawlOptions, CrawlProgress, KnownPage } from './crawl-options.js';

/** Over this share of failed fetches (after MIN_OUTCOMES), the crawl stops: the site is down or hostile. */
const FAILURE_RATIO = 0.5;
const MIN_OUTCOMES = 10;
const MAX_CRAWL_DELAY_MS = 60_000;

/** How often a worker of a shared crawl with nothing to do looks again while other workers hold entries. */
const SHARED_POLL_MS = 250;

/** Depth of a revalidation task: a stored page nothing links to any more; its links are not followed. */
const REVALIDATION_DEPTH = -1;

interface Task extends FrontierEntry {
  expand: boolean;
}

/**
 * Breadth-first crawl: robots.txt obeyed, sitemaps and llms.txt as extra seeds, one origin,
 * under the start folder, bounded requests, depth and concurrency, polite pacing. Every
 * request, redirects included, is checked before it is sent: the hosts come from the start
 * URL the user gave (host-policy.ts), pages from the scope, and URLs past the trap limits
 * are never requested. Stored pages are requested conditionally; pages that are gone are
 * reported for removal. The frontier is kept as the crawl goes, so an interrupted crawl
 * resumes; a page whose request the signal interrupted stays queued for the next run.
 */
export async function* crawl(options: CrawlOptions): AsyncGenerator<SourceItem> {
  const startUrl = pageUrlOf(options.startUrl);
  const policy = createHostPolicy({
    startUrl,
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.allowPrivateHosts === undefined ? {} : { allowPrivateHosts: options.allowPrivateHosts }),
  });
  const guarded = options.fetch === undefined ? createCrawlFetch(policy, options.lookup === undefined ? {} : { lookup: options.lookup }) : undefined;
  try {
    yield* crawlFrom(startUrl, options, (guarded?.fetch ?? options.fetch) as FetchLike, policy);
  } finally {
    await guarded?.close();
  }
}

async function* crawlFrom(startUrl: string, options: CrawlOptions, fetchFunction: FetchLike, policy: HostPolicy): AsyncGenerator<SourceItem> {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? abortableSleep;
  const frontier = options.frontier ?? createMemoryFrontier();
  const fetchOptions: FetchPageOptions = {
    fetch: fetchFunction,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxPageBytes,
    maxRedirects: options.maxRedirects,
    retries: options.retries,
    retryBaseDelayMs: options.retryBaseDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    sleep,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const fetchFor = async (url: string, allowHop: (url: string) => string | undefined) => {
    const known = await options.known?.(url);
    const validators = known === undefined ? undefined : { ...(known.etag ? { etag: known.etag } : {}), ...(known.lastModified ? { lastModified: known.lastModified } : {}) };
    return fetchPage(url, { ...fetchOptions, allowHop, ...(validators === undefined ? {} : { validators }) });
  };
  const rules: ScopeRules = {
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.maxUrlLength === undefined ? {} : { maxUrlLength: options.maxUrlLength }),
    ...(options.maxRepeatedSegments === undefined ? {} : { maxRepeatedSegments: options.maxRepeatedSegments }),
  };

  const started = await startCrawl({
    givenUrl: options.startUrl,
    startUrl,
    policy,
    rules,
    respectRobots: options.respectRobots !== false,
    userAgent: options.userAgent,
    fetchOptions,
    fetchPage: fetchFor,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (started === undefined) return;
  const { scope, robots, first, siteHop } = started;
  /** Pages (and their redirects) are requested only inside the scope and where robots.txt allows. */
  const pageHop = (url: string): string | undefined => {
    if (scope.contains(url)) return robots.isAllowed(url) ? undefined : `robots.txt disallows ${url}`;
    return policy.hostRefusal(url) ?? urlTrapReason(url, rules) ?? `it is outside the crawl's scope (${scope.prefix}${options.include?.length || options.exclude?.length ? ', --include and --exclude' : ''})`;
  };
  /** What a rendered page's scripts may load: the crawl's hosts only, where robots.txt allows, never a trap. */
  const resourceHop = (url: string): string | undefined =>
    policy.hostRefusal(url) ?? urlTrapReason(url, rules) ?? (robots.isAllowed(url) ? undefined : `robots.txt disallows ${url}`);
  const renderer = options.renderer;
  const render = (fetched: FetchedPage): Promise<FetchedPage> =>
    renderer === undefined
      ? Promise.resolve(fetched)
      : renderFetched(fetched, {
          renderer,
          fetch: fetchFunction,
          userAgent: options.userAgent,
          timeoutMs: options.timeoutMs,
          maxBytes: options.maxPageBytes,
          allowResource: resourceHop,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
  const delayMs = Math.max(options.delayMs, Math.min(robots.crawlDelayMs ?? 0, MAX_CRAWL_DELAY_MS));
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;

  const resumed = await frontier.resume();
  const seen = new Set<string>([startUrl, ...resumed.seen]);
  const queue: Task[] = resumed.queued.map((entry) => ({ ...entry, expand: entry.depth !== REVALIDATION_DEPTH }));
  const triedIndexFiles = new Set<string>();
  const hashes = new Map<string, string>();
  const counts = { fetched: 0, notModified: 0, failed: 0, outcomes: 0 };
  // The request budget is per ingest run: a crawl stopped at maxPages continues next run.
  let requested = 1;
  let lastRequestAt = Number.NEGATIVE_INFINITY;

  // Each trap limit is reported once, with the first URL it stopped; the others go quietly.
  const trapsReported = new Set<string>();
  const notices: SourceItem[] = [];
  const enqueue = async (links: readonly string[], depth: number) => {
    if (depth > maxDepth) return;
    const added: Task[] = [];
    for (const link of links) {
      if (!scope.contains(link)) {
        const trap = sameOrigin(link, scope.origin) ? urlTrapReason(link, rules) : undefined;
        const limit = trap === undefined ? undefined : /crawl\.\w+/.exec(trap)?.[0];
        if (trap !== undefined && limit !== undefined && !trapsReported.has(limit)) {
          trapsReported.add(limit);
          notices.push({ kind: 'error', input: link.slice(0, 200), message: `Links like ${shorten(link)} were not followed: ${trap}. The site may be a crawler trap; others like it are skipped without notice` });
        }
        continue;
      }
      const original = pageUrlOf(link);
      const folder = folderUrlOf(original);
      const url = folder !== undefined && scope.contains(folder) ? folder : original;
      if (seen.has(url) || seen.has(original) || !robots.isAllowed(url)) continue;
      seen.add(url);
      seen.add(original);
      added.push({ url, depth, expand: true });
    }
    queue.push(...added);
    await frontier.add(added);
  };
  const drainNotices = function* (): Generator<SourceItem> {
    yield* notices.splice(0);
  };

  const handle = async function* (task: Task, fetched: FetchedPage): AsyncGenerator<SourceItem> {
    const known = await options.known?.(task.url);
    if (fetched.kind === 'failed' && fetched.refusedHop !== undefined) {
      // A redirect the crawl may not follow (another host, out of scope, a trap) was never requested: not a failure of the site.
      if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${fetched.refusedHop}` };
      yield { kind: 'error', input: task.url, message: fetched.message };
      return;
    }
    counts.outcomes += 1;
    if (fetched.kind === 'failed') {
      // A server without folder indexes serves `guide/index.html` but not `guide/`: try it once.
      const indexFile = fetched.status === 404 && task.url.endsWith('/') && !triedIndexFiles.has(task.url) ? `${task.url}index.html` : undefined;
      if (indexFile !== undefined && scope.contains(indexFile) && robots.isAllowed(indexFile)) {
        triedIndexFiles.add(task.url);
        seen.add(indexFile);
        queue.unshift({ ...task, url: indexFile });
        await frontier.add([{ url: indexFile, depth: task.depth }]);
        return;
      }
      counts.failed += 1;
      if (known !== undefined && (fetched.status === 404 || fetched.status === 410)) yield { kind: 'gone', url: task.url, reason: `HTTP ${fetched.status}` };
      yield { kind: 'error', input: task.url, message: fetched.message };
      return;
    }
    if (fetched.kind === 'not-modified') {
      counts.notModified += 1;
      if (known?.contentHash !== undefined) hashes.set(known.contentHash, task.url);
      yield { kind: 'unchanged', url: task.url };
      if (task.expand) await enqueue(known?.links ?? [], task.depth + 1);
      yield* drainNotices();
      return;
    }
    counts.fetched += 1;
    let url = pageUrlOf(fetched.url);
    const aliases = new Set([task.url, ...fetched.redirects.map(pageUrlOf)]);
    if (url !== task.url) {
      if (!scope.contains(url) || !robots.isAllowed(url)) {
        if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${url}` };
        yield { kind: 'error', input: task.url, message: `${task.url} redirects to ${url}, outside ${scope.prefix} or disallowed by robots.txt; skipped` };
        return;
      }
      if (known !== undefined) yield { kind: 'gone', url: task.url, reason: `now redirects to ${url}` };
      if (seen.has(url) && task.url !== startUrl) return;
      seen.add(url);
    }
    if (fetched.format === 'xml') {
      yield { kind: 'error', input: url, message: `GET ${url} is XML, not a page; skipped` };
      return;
    }
    let extracted;
    try {
      extracted = await options.extract({ format: fetched.format, body: fetched.body }, url);
    } catch (error) {
      yield { kind: 'error', input: url, message: `Could not extract ${url}: ${error instanceof Error ? error.message : String(error)}` };
      return;
    }
    if (extracted.emptyShell === true) {
      yield renderer === undefined
        ? { kind: 'warning', code: 'crawl.needs-render', input: url, message: `${url} is an empty page whose content is built by JavaScript`, needsRender: true }
        : { kind: 'warning', code: 'crawl.empty-after-render', input: url, message: `${url} has next to no text even after its scripts ran` };
    }
    for (const warning of extracted.warnings ?? []) yield { kind: 'warning', code: warning.code, input: url, message: warning.message };
    if (task.expand) await enqueue(extracted.links, task.depth + 1);
    yield* drainNotices();
    // A canonical URL inside the scope names the page, unless another page already has it.
    const canonical = extracted.canonical === undefined ? undefined : pageUrlOf(extracted.canonical);
    if (canonical !== undefined && canonical !== url && scope.contains(canonical) && !seen.has(canonical)) {
      seen.add(canonical);
      url = canonical;
    }
    aliases.add(pageUrlOf(fetched.url));
    aliases.delete(url);
    const contentHash = sha256(extracted.markdown);
    // One page served at two URLs (aliases, query strings): the first URL keeps it.
    const original = hashes.get(contentHash);
    if (original !== undefined) {
      if (original !== url) yield { kind: 'alias', url, of: original };
      return;
    }
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
      links: extracted.links,
      ...(aliases.size === 0 ? {} : { aliases: [...aliases] }),
      ...(fetched.etag === undefined ? {} : { etag: fetched.etag }),
      ...(fetched.lastModified === undefined ? {} : { lastModified: fetched.lastModified }),
    };
    yield { kind: 'page', page };
  };

  const progress = (inFlight: number) =>
    options.onProgress?.({ fetched: counts.fetched, notModified: counts.notModified, failed: counts.failed, queued: queue.length + inFlight });

  await frontier.add([{ url: startUrl, depth: 0 }]);
  const firstPage = await render(first);
  if (firstPage.kind === 'failed' && firstPage.interrupted === true) return;
  yield* handle({ url: startUrl, depth: 0, expand: true }, firstPage);
  await frontier.done(startUrl);
  // Also on a resumed run: the interrupted one may have stopped before reading the sitemaps.
  if (options.useSitemaps !== false && maxDepth >= 1) {
    const listed = await discoverListedPages(scope, robots, { ...fetchOptions, allowHop: siteHop, maxUrls: options.maxPages });
    await enqueue(listed.urls, 1);
    yield* drainNotices();
    for (const problem of listed.problems) yield { kind: 'error', input: problem.url, message: problem.message };
  }
  progress(0);

  let revalidated = false;
  const inFlight = new Map<string, Promise<{ task: Task; fetched: FetchedPage }>>();
  for (;;) {
    while (queue.length > 0 && inFlight.size < options.concurrency && requested < options.maxPages && options.signal?.aborted !== true) {
      const wait = lastRequestAt + delayMs - Date.now();
      if (wait > 0) {
        if (inFlight.size > 0) break; // handle finished requests while waiting
        await sleep(wait, options.signal);
        continue;
      }
      const task = queue.shift() as Task;
      // A shared crawl fetches only what this worker claimed: another holds it, or fetched it already.
      if (frontier.shared !== undefined && !(await frontier.shared.claim(task.url))) continue;
      requested += 1;
      lastRequestAt = Date.now();
      const slot = frontier.shared === undefined || delayMs === 0 ? Promise.resolve() : frontier.shared.hostSlot(task.url, delayMs).then((waitMs) => sleep(waitMs, options.signal));
      inFlight.set(task.url, slot.then(() => fetchFor(task.url, pageHop)).then(render).then((fetched) => ({ task, fetched })));
    }
    if (inFlight.size === 0 && queue.length === 0 && frontier.shared !== undefined && requested < options.maxPages && options.signal?.aborted !== true) {
      // This worker's queue is empty: take what other workers found, or left when they died.
      const { entries, waiting } = await frontier.shared.more(options.concurrency * 4);
      for (const entry of entries) {
        seen.add(entry.url);
        queue.push({ ...entry, expand: entry.depth !== REVALIDATION_DEPTH });
      }
      if (entries.length > 0) continue;
      if (waiting) {
        await sleep(SHARED_POLL_MS, options.signal);
        continue;
      }
    }
    if (inFlight.size === 0) {
      const complete = queue.length === 0 && options.signal?.aborted !== true;
      if (!complete || revalidated) {
        if (complete) await frontier.finish();
        // Nothing in flight, URLs queued, not interrupted: the request budget ended this run.
        else if (options.signal?.aborted !== true) yield { kind: 'limited', limit: 'maxPages', value: options.maxPages, remaining: queue.length };
        return;
      }
      // Everything linked was visited: check the stored pages nothing links to any more.
      revalidated = true;
      for (const url of (await options.knownUrls?.(scope.prefix)) ?? []) {
        if (seen.has(url)) continue;
        if (!scope.contains(url) || !robots.isAllowed(url)) {
          yield { kind: 'gone', url, reason: 'outside the crawl scope' };
          continue;
        }
        seen.add(url);
        queue.push({ url, depth: REVALIDATION_DEPTH, expand: false });
      }
      await frontier.add(queue);
      continue;
    }
    const { task, fetched } = await Promise.race(inFlight.values());
    inFlight.delete(task.url);
    // Interrupted (Ctrl-C): not the page's failure. It stays queued in the frontier, so the next run asks for it again.
    if (fetched.kind === 'failed' && fetched.interrupted === true) continue;
    yield* handle(task, fetched);
    await frontier.done(task.url);
    progress(inFlight.size);
    if (counts.outcomes >= MIN_OUTCOMES && counts.failed / counts.outcomes > FAILURE_RATIO) {
      yield { kind: 'stopped', reason: `${counts.failed} of ${counts.outcomes} requests to ${scope.origin} failed, so the crawl stopped; fix the site or the URL and run ingest again to resume` };
      return;
    }
  }
}

function sameOrigin(url: string, origin: string): boolean {
  return URL.canParse(url) && new URL(url).origin === origin;
}

function shorten(url: string): string {
  return url.length > 120 ? `${url.slice(0, 120)}…` : url;
}
