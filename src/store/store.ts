import type { Chunk, FrontierEntry, Heading, Page, StoppedBy, TextIndex } from '../core/types.js';
import type { VectorStore } from './vectors.js';

export type { FrontierEntry, TextHit, TextQuery } from '../core/types.js';

export type UpsertOutcome = 'added' | 'changed' | 'unchanged';

export interface StoreStats {
  pages: number;
  chunks: number;
  anchors: number;
  /** Space the index takes in its storage (a file and its write-ahead log; a database's tables). */
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
 * Where pages, chunks, the anchor map, the text and vector indexes, crawl state and the catalog
 * live: the contract every backend implements (SQLite embedded, PostgreSQL shared) and
 * `store.contract.ts` (its suites in `contract/`) tests, identically for each.
 *
 * - Asynchronous: every method returns a Promise; nothing in it names a file, a connection or a
 *   row id. A page is named by its URL, a chunk by its id (`Chunk.id`, unique in the index: the
 *   chunker derives it from the page URL, position and content), a source, crawl run or ingest job
 *   by the opaque number the store gave it.
 * - One handle for a process's life: reads and writes go through it concurrently; `close` ends
 *   it. No call is ever needed to make writes searchable: the store keeps its text and vector
 *   indexes current itself. A write is seen by every read through the same handle that starts
 *   after its promise resolved, and by other handles (other processes) once committed: at the
 *   latest shortly after the write (within about a second, even while writes go on), and at `close`.
 * - Atomic page writes: `upsertPage` and `removePage` apply whole or not at all; a crash leaves
 *   the old version of the page or the new one, never a mix.
 * - Consistent reads while a writer ingests (in this process or another): each read sees one
 *   committed state of the index (a text or vector search scores and returns the chunks of one
 *   snapshot), never a half-written page, never a chunk already deleted, and never fails because
 *   a write is under way.
 */
export interface Store extends TextIndex {
  /**
   * Replaces the page and its chunks and anchors, unless its content hash is unchanged
   * (then only its validators, links and aliases are refreshed), or `rechunked` says its chunks
   * changed anyway. A page given another `sourceId` than it has is rewritten whole.
   */
  upsertPage(page: Page, chunks: readonly Chunk[], options?: { rechunked?: boolean; sourceId?: number }): Promise<UpsertOutcome>;
  /** The stored page with this URL (exact, fragment-free), if any. */
  getPage(url: string): Promise<StoredPage | undefined>;
  /** The URL of the stored page this URL is, or redirects to (a recorded alias), if any. */
  resolvePageUrl(url: string): Promise<string | undefined>;
  /** `resolvePageUrl` of the first of these URLs (in the caller's order of preference) that names a stored page: one look-up for many spellings. */
  resolveFirstPageUrl(urls: readonly string[]): Promise<string | undefined>;
  /** A stored page with exactly this content hash (the first stored, when several), if any. */
  pageUrlWithContent(contentHash: string): Promise<string | undefined>;
  /** Records `alias` as another URL of the stored page `pageUrl` (nothing when that page is not stored). */
  addAlias(pageUrl: string, alias: string): Promise<void>;
  /** Records that a stored page was confirmed current (HTTP 304); its chunk count, or undefined when not stored. */
  confirmPage(url: string, fetchedAt: string): Promise<number | undefined>;
  /** Removes a page with its chunks, anchors and aliases; false when it was not stored. */
  removePage(url: string): Promise<boolean>;
  /** URLs of the stored pages that start with this prefix (a crawl's origin and folder), of one source kind if given, sorted. */
  pageUrlsUnder(prefix: string, source?: Page['source']): Promise<string[]>;
  /** Crawl runs and their frontiers, so an interrupted crawl resumes where it stopped. */
  readonly crawlState: CrawlStateStore;
  /** Libraries at versions, the pages each owns, and background ingest jobs. */
  readonly catalog: CatalogStore;
  /** Dense vectors of the chunks, for semantic search. */
  readonly vectors: VectorStore;
  /** The chunks of a page in reading order. */
  chunksOf(url: string): Promise<Chunk[]>;
  /** Every fragment id that exists on the page: the anchor map used to check links. */
  anchorsOf(url: string): Promise<ReadonlySet<string>>;
  /** URLs of the pages that have this anchor, sorted. */
  pagesWithAnchor(anchor: string): Promise<string[]>;
  stats(): Promise<StoreStats>;
  /** Whether any chunk is stored: cheap, unlike stats(). */
  hasChunks(): Promise<boolean>;
  /** Ends the handle once its writes are committed and indexed for every reader; nothing may be called after. */
  close(): Promise<void>;
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
  /** Opaque: what the other CrawlStateStore methods name the run by. */
  id: number;
  /** Entries still to fetch, in the order they were found. */
  queued: FrontierEntry[];
  /** Every URL the run has queued or fetched so far. */
  seen: string[];
}

export interface CrawlStateStore {
  /** Resumes the unfinished run with this start URL and settings, or starts a new one. */
  openRun(startUrl: string, settings: string, startedAt: string): Promise<CrawlRun>;
  /** Adds entries to the run's frontier; a URL already in it is kept as it is. */
  enqueue(runId: number, entries: readonly FrontierEntry[]): Promise<void>;
  markDone(runId: number, url: string): Promise<void>;
  /** Marks the run complete and drops its frontier. */
  finishRun(runId: number, finishedAt: string): Promise<void>;
  /** Records how the latest run of this source (a crawl's start URL, a folder's URL) ended. */
  recordOutcome(source: string, outcome: { outcome: Exclude<IngestOutcome, 'running'>; endedAt: string; stoppedBy?: StoppedBy; reason?: string }): Promise<void>;
  /** The latest run of each source, newest first. */
  latestRuns(): Promise<IngestRunSummary[]>;
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
  /** Opaque: what scoping (`sourceIds`), `upsertPage` and the catalog name the source by. */
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
  upsertSource(input: SourceInput): Promise<StoredSource>;
  renameSource(id: number, library: string): Promise<void>;
  recordCrawl(id: number, endedAt: string): Promise<void>;
  /** Every source with its page and passage counts, by library then version. */
  listSources(): Promise<StoredSource[]>;
  /** Each source's id, library and version only: what scoping a search needs, without counting its pages (cheap enough for every query). */
  sourceNames(): Promise<{ id: number; library: string; version: string }[]>;
  /** The library and version of each of these page URLs that is stored. */
  sourceLabels(urls: readonly string[]): Promise<Map<string, SourceLabel>>;
  pageUrlsOfSource(id: number): Promise<string[]>;
  /** Deletes a source that no longer owns a page. */
  deleteSource(id: number): Promise<void>;
  /** Records a new job; its opaque id. */
  startJob(job: { library: string; version: string; url: string; startedAt: string }): Promise<number>;
  updateJob(id: number, update: { library?: string; version?: string; state?: IngestJob['state']; progress?: IngestJob['progress']; endedAt?: string; error?: string }): Promise<void>;
  /** Every job, newest first. */
  listJobs(): Promise<IngestJob[]>;
}
