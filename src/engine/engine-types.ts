import type { DatabaseHealth } from '../store/postgres/pg-version-watch.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Heading } from '../core/types.js';
import type { Usage } from './usage.js';
import type { SiteReport } from './site-report.js';
import type { CitedocsConfig } from '../core/config.js';
import type { Candidate, Citation, DroppedCandidate } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm } from '../llm/llm.js';
import type { FetchLike } from '../core/http/send.js';
import type { LookupFunction } from '../sources/web/host-guard.js';
import type { SearchBackend } from '../sources/web/search-backend.js';
import type { IngestJob, IngestRunSummary, StoreStats } from '../store/store.js';
import type { EmbedProgress, EmbedReport } from './embed-pass.js';
import type { DirectDocument } from './ingest-documents.js';
import type { IngestOptions, IngestReport } from './ingest.js';
import type { GitIngestOptions, GitIngestReport } from './git-ingest.js';
import type { WebOptions, WebResponse } from './web-types.js';

/** Pages, chunks, anchors and bytes of the index. */
export type IndexStats = StoreStats;

/** Limits a search or an answer to one library (its `latest`, or the version given) or to one version of each library. */
export interface ScopeOptions {
  library?: string;
  /** An exact version, a range (`5.x`, `>=4.2 <5`) or `latest` (the highest). */
  version?: string;
}

export interface SearchOptions extends ScopeOptions {
  limit?: number;
  maxTokens?: number;
  /** Distinct pages the passages may come from. */
  maxPages?: number;
  explain?: boolean;
  /** Also group the results by page (`pages`): each page once, with its best sections. */
  groupByPage?: boolean;
  signal?: AbortSignal;
}

export interface SearchResult {
  url: string;
  /** The library and version of the page the passage is from. */
  library: string;
  version: string;
  title: string;
  headingPath: string[];
  text: string;
  score: number;
  tokenCount: number;
  /** Present when only a follow-up query found the passage (adaptive retrieval), with that query. */
  retrievalType?: 'follow-up';
  followUpQuery?: string;
  /** The passage was cut to its most relevant part to fit the token budget (its URL#anchor is the same place). */
  trimmed?: boolean;
  explain?: Candidate['trace'];
}

/** The results of one page (`search` with `groupByPage`): the page once, then its best sections. */
export interface PageGroup {
  /** The page's URL, without a fragment. */
  url: string;
  library: string;
  version: string;
  title: string;
  /** The best score among its sections: groups are ordered by it. */
  score: number;
  /** The tokens of its sections together: the same budget the flat results count. */
  tokenCount: number;
  /** Its sections (`url#anchor`), best first, each once. */
  sections: SearchResult[];
}

export interface SearchResponse {
  results: SearchResult[];
  /** With `groupByPage`: the same results grouped by page, pages in the order of their best result. */
  pages?: PageGroup[];
  warnings: string[];
  /** The warnings as data: a stable code, the stage it comes from, the message (the same as in `warnings`). */
  diagnostics: Diagnostic[];
  /** The LLM and embedding calls the search made: tokens and time. */
  usage: Usage;
  /** How the results were found: the embedder of the dense lists (absent: BM25 only) and every list fused. */
  retrieval: { embedder?: string; lists: string[] };
  /** With --explain: the tokens selected and every candidate left out, with why. */
  selection?: { totalTokens: number; dropped: DroppedCandidate[] };
}

export interface AskOptions extends ScopeOptions {
  /** The user's earlier questions in this conversation, oldest first: a follow-up is searched together with the one before it. */
  earlierQuestions?: readonly string[];
  maxTokens?: number;
  maxPages?: number;
  explain?: boolean;
  signal?: AbortSignal;
}

/**
 * `delta`: more answer text, safe to show (its links are checked), with `citations` (every source
 * cited so far, numbered as in the answer) when new ones were numbered since the last delta;
 * `done`: the whole response. The deltas join to the response's `text`; its sources list is not
 * streamed but given as data (`citations`), for the caller to show as it likes.
 */
export type AskEvent = { type: 'delta'; text: string; citations?: Citation[] } | { type: 'done'; response: AskResponse };

export interface EmbedOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EmbedProgress) => void;
}

/** A citation with the library and version of the page it cites. */
export type LabelledCitation = Citation & { library: string; version: string };

export interface AskResponse {
  /** The answer followed by its sources list ("Sources:" then "[n] Title — URL" a line), as one text. */
  answer: string;
  /** The answer alone, without the sources list: what the deltas of askStream join to. */
  text: string;
  /** The sources the answer cites, numbered as its [n] markers. */
  citations: LabelledCitation[];
  warnings: string[];
  /** The warnings as data: a stable code, the stage it comes from, the message (the same as in `warnings`). */
  diagnostics: Diagnostic[];
  /** The LLM and embedding calls the answer took (retrieval, reranking, writing): tokens and time. */
  usage: Usage;
  /** The passages the answer was drawn from (URL, score, tokens); with --explain, every candidate left out, with why. */
  selection: { totalTokens: number; sources: { url: string; score: number; tokenCount: number }[]; dropped?: DroppedCandidate[] };
}

/** One documentation set in the index: a library at a version, the URL it was read from, and what it holds. */
export interface SourceSummary {
  library: string;
  version: string;
  /** The crawl's start URL, or the URL a folder is published under. */
  url: string;
  kind: 'crawl' | 'local' | 'git' | 'web';
  pages: number;
  passages: number;
  /** When its last ingest ended. */
  lastCrawl?: string;
  /** Days since its least recently fetched (or confirmed) page was: how stale it may be. */
  oldestPageAgeDays?: number;
  /** The title of its top page. */
  description?: string;
  /** False when the last ingest of one of its sources did not complete (a limit ended it, Ctrl-C, a crash); absent when no ingest was recorded. */
  complete?: boolean;
  /** The last ingest of each of its sources (crawl start URLs, folders), newest first. */
  ingests?: IngestRunSummary[];
}

export type { SiteReport } from './site-report.js';
export type { IngestJob } from '../store/store.js';

/** A library a typed name may mean (resolve_library), best first. */
export interface LibraryMatch {
  library: string;
  /** Closeness of the name to the one typed, in (0, 1]. */
  score: number;
  /** Its versions, highest first. */
  versions: string[];
  pages: number;
  description: string;
  url: string;
}

export interface RemovedSource {
  library: string;
  version: string;
  pages: number;
}

export interface RefreshReport {
  library: string;
  version: string;
  url: string;
  report: IngestReport;
}

/** What the index holds for one page: `citedocs inspect`. */
export interface PageInspection {
  url: string;
  title: string;
  anchors: string[];
  /** The page's headings in document order, with their anchors. */
  headings: Heading[];
  chunks: { anchor?: string; headingPath: string[]; text: string; tokenCount: number }[];
}

export interface EngineDependencies {
  /** Where the configuration came from (a file path), named in configuration errors. */
  configOrigin?: string;
  fetch?: FetchLike;
  now?: () => Date;
  /** Where API keys named in the configuration are read from (the CLI passes process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** An embedder to use for its model id instead of building one (tests, embedding applications). */
  embedder?: Embedder;
  /** The LLM for query techniques instead of the configured one. */
  llm?: Llm;
  /** Resolves the hosts of web results (tests map made-up host names to 127.0.0.1). */
  lookup?: LookupFunction;
  /** A web search engine behind the SearchBackend contract, instead of DuckDuckGo's HTML endpoint. */
  searchBackend?: SearchBackend;
}

export interface Engine {
  readonly config: CitedocsConfig;
  ingest(input: string, options?: IngestOptions): Promise<IngestReport>;
  /** Reads the docs folder of a git repository (path or URL) at each tag matching `tags` (or at HEAD), each tag one version of the library. */
  ingestGit(repository: string, options?: GitIngestOptions): Promise<GitIngestReport>;
  /** Indexes documents given as Markdown (no crawl): evaluation corpora, a caller's own pages. */
  ingestDocuments(documents: Iterable<DirectDocument>, options?: Pick<IngestOptions, 'signal' | 'onEmbedProgress'>): Promise<IngestReport>;
  /** How many stored pages have URLs starting with this prefix (0 when there is no index yet). */
  countPagesUnder(prefix: string): Promise<number>;
  /** Gives every passage without one a vector of the configured embedder (or the index's own). */
  embed(options?: EmbedOptions): Promise<EmbedReport>;
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  ask(question: string, options?: AskOptions): Promise<AskResponse>;
  /** The same answer as `ask`, as it is written: text deltas (links already checked), then the response. */
  askStream(question: string, options?: AskOptions): AsyncGenerator<AskEvent>;
  /** The best web pages (or their best sections) for a query, within a token budget: `citedocs web`. */
  web(query: string, options?: WebOptions): Promise<WebResponse>;
  stats(): Promise<StoreStats>;
  /** The stored page at this URL (or an alias of it); undefined when the index has no such page. */
  inspect(url: string): Promise<PageInspection | undefined>;
  /** How well the pages under `site` (every page when empty) were extracted: `citedocs inspect --site`. */
  siteReport(site: string): Promise<SiteReport>;
  /** The documentation sets in the index (library versions), by library then version. */
  listSources(): Promise<SourceSummary[]>;
  /** Deletes every page of `LIBRARY` (all its versions) or `LIBRARY@VERSION`; the other sources stay as they are. */
  removeSources(spec: string): Promise<RemovedSource[]>;
  /** Re-reads each source (all, or those `LIBRARY[@VERSION]` names) as its ingest did: unchanged pages cost a conditional request. */
  refresh(spec?: string, options?: Pick<IngestOptions, 'signal' | 'onProgress' | 'onEmbedProgress'>): Promise<RefreshReport[]>;
  /** Libraries a name as typed may mean, best first. */
  resolveLibrary(name: string, limit?: number): Promise<LibraryMatch[]>;
  /** The background ingest jobs recorded in the index, newest first. */
  listJobs(): Promise<IngestJob[]>;
  /**
   * Starts an ingest as a recorded job (one job at a time per engine; later ones wait their turn)
   * and returns its id at once; `done` settles when it ends.
   */
  startIngestJob(url: string, options: Pick<IngestOptions, 'library' | 'version' | 'onProgress'>): Promise<{ id: number; done: Promise<IngestJob> }>;
  /** Up to `limit` stored pages spread evenly over the index (in URL order), with their titles: topics to suggest to a reader. */
  samplePages(limit: number): Promise<{ url: string; title: string }[]>;
  /** The version (commit generation) of the lexical index this process last searched, when its store tells (PostgreSQL): what a replica serves. */
  indexVersion(): number | undefined;
  /** Whether the database is reachable, and since when it is not, when the store tells (PostgreSQL): a replica keeps serving what it has read meanwhile. */
  databaseHealth(): DatabaseHealth | undefined;
  close(): Promise<void>;
}

