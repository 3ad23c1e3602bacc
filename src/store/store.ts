import type { Chunk, FrontierEntry, Heading, Page, StoppedBy, TextIndex } from '../core/types.js';
import type { VectorStore } from './vectors.js';

export type { FrontierEntry, TextHit, TextQuery } from '../core/types.js';

export type UpsertOutcome = 'added' | 'changed' | 'unchanged';

export interface StoreStats {
  pages: number;
  chunks: number;
  anchors: number;
  bytes: number;
  /** The last ingest of each source (site start URL or folder), newest first: whether it completed, and what stopped it. */
  ingests: IngestRunSummary[];
}

/**
 * How the last ingest of a source ended: `running` while it runs (or when it was killed),
 * `complete`, `limited` (a limit ended it early: `stoppedBy`), `stopped` (the source gave up:
 * `reason`), or `interrupted` (Ctrl-C).
 */
export type IngestOutcome = 'running' | 'complete' | 'limited' | 'stopped' | 'interrupted';

export interface IngestRunSummary {
  /** The start URL of a crawl, or the URL a folder's documents are published under. */
  source: string;
  startedAt: string;
  endedAt?: string;
  outcome: IngestOutcome;
  /** False unless the outcome is `complete`: the index may lack pages of this source. */
  complete: boolean;
  stoppedBy?: StoppedBy;
  reason?: string;
}

/**
 * Where pages, chunks and the anchor map live. Writes of one page are atomic: a crash leaves
 * either the old version of the page or the new one, never a mix.
 */
export interface Store extends TextIndex {
  readonly path: string;
  /**
   * Replaces the page and its chunks and anchors, unless its content hash is unchanged
   * (then only its validators are refreshed), or `rechunked` says its chunks changed anyway.
   */
  upsertPage(page: Page, chunks: readonly Chunk[], options?: { rechunked?: boolean; sourceId?: number }): UpsertOutcome;
  /** The stored page with this URL (exact, fragment-free), if any. */
  getPage(url: string): StoredPage | undefined;
  /** The URL of the stored page this URL is, or redirects to (a recorded alias), if any. */
  resolvePageUrl(url: string): string | undefined;
  /** A stored page with exactly this content hash, if any. */
  pageUrlWithContent(contentHash: string): string | undefined;
  /** Records `alias` as another URL of the stored page `pageUrl`. */
  addAlias(pageUrl: string, alias: string): void;
  /** Records that a stored page was confirmed current (HTTP 304); its chunk count, or undefined when not stored. */
  confirmPage(url: string, fetchedAt: string): number | undefined;
  /** Brings the lexical index up to date with the chunks (searches do it too, when needed); whether it had to. */
  refreshTextIndex(): boolean;
  /** Removes a page with its chunks and anchors; false when it was not stored. */
  removePage(url: string): boolean;
  /** URLs of the stored pages that start with this prefix (a crawl's origin and folder), of one source kind if given. */
  pageUrlsUnder(prefix: string, source?: Page['source']): string[];
  /** Crawl runs and their frontiers, so an interrupted crawl resumes where it stopped. */
  readonly crawlState: CrawlStateStore;
  /** Libraries at versions, the pages each owns, and background ingest jobs. */
  readonly catalog: CatalogStore;
  /** Dense vectors of the chunks, for semantic search. */
  readonly vectors: VectorStore;
  /** The chunks of a page in reading order. */
  chunksOf(url: string): Chunk[];
  /** Every fragment id that exists on the page: the anchor map used to check links. */
  anchorsOf(url: string): ReadonlySet<string>;
  /** URLs of the pages that have this anchor. */
  pagesWithAnchor(anchor: string): string[];
  stats(): StoreStats;
  /** Whether any chunk is stored: cheap, unlike stats(). */
  hasChunks(): boolean;
  close(): void;
}

export interface StoredPage {
  url: string;
  title: string;
  contentHash: string;
  source: Page['source'];
  fetchedAt: string;
  chunkCount: number;
  etag?: string;
  lastModified?: string;
  links: string[];
  /** The page's headings in document order, as extracted. */
  headings: Heading[];
  chunking?: string;
}

export interface CrawlRun {
  id: number;
  /** Entries still to fetch, in the order they were found. */
  queued: FrontierEntry[];
  /** Every URL the run has queued or fetched so far. */
  seen: string[];
}

export interface CrawlStateStore {
  /** Resumes the unfinished run with this start URL and settings, or starts a new one. */
  openRun(startUrl: string, settings: string, startedAt: string): CrawlRun;
  enqueue(runId: number, entries: readonly FrontierEntry[]): void;
  markDone(runId: number, url: string): void;
  /** Marks the run complete and drops its frontier. */
  finishRun(runId: number, finishedAt: string): void;
  /** Records how the latest run of this source (a crawl's start URL, a folder's URL) ended. */
  recordOutcome(source: string, outcome: { outcome: Exclude<IngestOutcome, 'running'>; endedAt: string; stoppedBy?: StoppedBy; reason?: string }): void;
  /** The latest run of each source, newest first. */
  latestRuns(): IngestRunSummary[];
}

/** A source as an ingest names it: one library at one version, read from `rootUrl`. */
export interface SourceInput {
  library: string;
  version: string;
  rootUrl: string;
  kind: 'crawl' | 'local' | 'git' | 'web';
  /** The ingest options a refresh repeats. */
  settings?: Record<string, unknown>;
  createdAt: string;
}

export interface StoredSource extends Required<Omit<SourceInput, 'settings'>> {
  id: number;
  settings: Record<string, unknown>;
  pages: number;
  passages: number;
  /** When its last ingest ended. */
  lastCrawl?: string;
  /** The newest and oldest time one of its pages was fetched (or confirmed unchanged). */
  newestFetch?: string;
  oldestFetch?: string;
  /** The title of its shortest-URL page: a one-line description. */
  description?: string;
}

export interface SourceLabel {
  library: string;
  version: string;
}

export interface IngestJob {
  id: number;
  library: string;
  version: string;
  url: string;
  state: 'running' | 'complete' | 'failed';
  progress: { fetched?: number; queued?: number; pages?: number; errors?: number; stoppedBy?: StoppedBy };
  startedAt: string;
  endedAt?: string;
  error?: string;
}

export interface CatalogStore {
  /** Creates the source (library, version) or updates its root URL, kind and settings. */
  upsertSource(input: SourceInput): StoredSource;
  renameSource(id: number, library: string): void;
  recordCrawl(id: number, endedAt: string): void;
  /** Every source with its page and passage counts, by library then version. */
  listSources(): StoredSource[];
  /** Each source's id, library and version only: what scoping a search needs, without counting its pages (cheap enough for every query). */
  sourceNames(): { id: number; library: string; version: string }[];
  /** The library and version of each of these page URLs that is stored. */
  sourceLabels(urls: readonly string[]): Map<string, SourceLabel>;
  pageUrlsOfSource(id: number): string[];
  /** Deletes a source that no longer owns a page. */
  deleteSource(id: number): void;
  startJob(job: { library: string; version: string; url: string; startedAt: string }): number;
  updateJob(id: number, update: { library?: string; version?: string; state?: IngestJob['state']; progress?: IngestJob['progress']; endedAt?: string; error?: string }): void;
  /** Every job, newest first. */
  listJobs(): IngestJob[];
}
