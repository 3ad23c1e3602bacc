import type { Diagnostic } from '../../core/diagnostics.js';
import type { ExtractedDocument } from '../../core/types.js';
import type { LookupFunction } from '../web/host-guard.js';
import type { FetchLike } from '../../core/http/send.js';
import type { DocumentFormat } from './fetch-page.js';
import type { PageRenderer } from '../render/page-renderer.js';
import type { CrawlFrontier } from './frontier.js';

type MaybePromise<T> = T | Promise<T>;

export interface KnownPage {
  contentHash?: string;
  etag?: string;
  lastModified?: string;
  links: string[];
}

export type CrawlExtraction = ExtractedDocument & {
  links: string[];
  canonical?: string;
  /** The page is scripts and an empty root element: its content is built by JavaScript. */
  emptyShell?: boolean;
  /** What extraction had to cut (deep nesting, giant words), for the report. */
  warnings?: Diagnostic[];
};

export interface CrawlProgress {
  fetched: number;
  notModified: number;
  queued: number;
  failed: number;
}

export interface CrawlOptions {
  startUrl: string;
  /** Requests at most in this run; a crawl stopped by it continues on the next run. */
  maxPages: number;
  /** Links followed from the start page at most (0: the start page only). */
  maxDepth?: number | undefined;
  concurrency: number;
  /** Pause between request starts; robots.txt Crawl-delay raises it. */
  delayMs: number;
  timeoutMs: number;
  maxPageBytes: number;
  maxRedirects: number;
  retries: number;
  retryBaseDelayMs: number;
  maxRetryAfterMs: number;
  userAgent: string;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Trap limits: longer URLs, and paths repeating a segment more often, are never requested. */
  maxUrlLength?: number;
  maxRepeatedSegments?: number;
  /** Hosts besides the start URL's that the start URL may redirect to (`host` or `host:port`). */
  allowedHosts?: readonly string[];
  /** The start host may be on a private network (see host-policy.ts); never any other host. */
  allowPrivateHosts?: boolean;
  /** Resolves host names for the address guard (tests map made-up names to 127.0.0.1). */
  lookup?: LookupFunction;
  respectRobots?: boolean;
  useSitemaps?: boolean;
  /** The extract stage, injected: main content as Markdown, every link, the canonical URL. */
  extract: (document: { format: Exclude<DocumentFormat, 'xml'>; body: string }, pageUrl: string) => MaybePromise<CrawlExtraction>;
  /**
   * Runs each fetched HTML page's scripts before extraction (`ingest --render`); links then
   * come from the built document. The caller owns it (and closes it). Its sub-requests obey
   * the crawl's hosts, traps and robots.txt, through the crawl's own fetch.
   */
  renderer?: PageRenderer;
  /** Stored validators and links of a page, for conditional requests. */
  known?: (url: string) => MaybePromise<KnownPage | undefined>;
  /** Stored pages under a prefix: revalidated at the end of a complete crawl, removed when gone. */
  knownUrls?: (prefix: string) => MaybePromise<string[]>;
  frontier?: CrawlFrontier;
  /** Replaces the guarded fetch (tests, library callers with their own client): hops are still checked before each request. */
  fetch?: FetchLike;
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds, for pacing requests (default `Date.now`); a test gives a clock that only its `sleep` advances. */
  clock?: () => number;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}
