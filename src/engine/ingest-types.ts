import type { CitedocsConfig } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { FetchLike } from '../core/http/send.js';
import type { Page, SourceItem, StoppedBy, Tokenizer } from '../core/types.js';
import type { DocumentFiles } from '../sources/local/local-source.js';
import type { UrlStyle } from '../sources/local/path-registry.js';
import type { LookupFunction } from '../sources/web/host-guard.js';
import type { Store } from '../store/store.js';
import type { EmbedProgress, EmbedReport } from './embed-pass.js';
import type { SourceResolver } from './source-resolver.js';

/* The types of an ingest, apart from ingest() itself: the sources it reads (crawl-source.ts) use them without importing the ingest. */

export interface IngestOptions {
  /** The library the pages belong to. Default: the source already read from this URL, else one named by the host or the start page's title. */
  library?: string;
  /** Its version. Default: the source's, else the version in the URL path (`/docs/5.2/`), else the one the start page names ("PostgreSQL 15.20 Documentation"), else `latest`. */
  version?: string;
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  userAgent?: string;
  include?: string[];
  exclude?: string[];
  /** For a folder: the URL its documents are published under. Default: their file:// URLs. */
  baseUrl?: string;
  urlStyle?: Exclude<UrlStyle, 'source'>;
  /** For a site: let the start host be on a private network (an intranet docs site). */
  allowPrivateHosts?: boolean;
  /** For a site: other hosts the start URL may redirect to (`host` or `host:port`). */
  allowedHosts?: string[];
  /** For a site: run each page's scripts in headless Chromium before extraction (default: crawl.render). */
  render?: boolean;
  /** Called with each page read (fetched or from disk), e.g. to export them as JSON lines. */
  onPage?: (page: Page) => void;
  /** The current chunking settings: a stored page chunked otherwise is downloaded again in full. */
  chunking?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** Progress of the embedding pass that follows, when the index has an embedder. */
  onEmbedProgress?: (progress: EmbedProgress) => void;
}

export interface IngestProgress {
  fetched: number;
  queued: number;
  pages: number;
  errors: number;
}

export interface IngestError {
  input: string;
  message: string;
}

export interface IngestReport {
  /** The library and version the pages were stored under (absent when no page was). */
  library?: string;
  version?: string;
  /** Pages ingested by this run (added, changed or unchanged). */
  pages: number;
  /** Chunks those pages have in the index. */
  chunks: number;
  added: number;
  changed: number;
  unchanged: number;
  /** Stored pages removed because they are gone (404/410, redirected away, out of scope). */
  removed: number;
  /** Page bodies actually downloaded or read (a 304 costs none). */
  fetched: number;
  /** Pages whose content another stored page of the same site already has: kept as its aliases. */
  duplicates: number;
  errors: IngestError[];
  /** Pages read and stored, with something a person should know (empty pages built by JavaScript, markup cut by extraction limits). */
  warnings: string[];
  /** The same warnings as data: a stable code, the stage, the message. */
  diagnostics: Diagnostic[];
  /** Pages that are empty until JavaScript runs, read without rendering: run again with --render. Only when there are some. */
  needsRender?: { count: number; examples: string[] };
  /** Pages that ask robots not to index them (`<meta name="robots" content="noindex">`): their links were followed, their text not stored. Only when there are some. */
  noindex?: { count: number; examples: string[] };
  /** Pages that are a documentation generator's listing of the source code: their links were followed, their text not stored. Only when there are some. */
  sourceListings?: { count: number; examples: string[] };
  /** Pages that link other pages by a route in the URL's fragment (`#/api`), which a crawl does not read. Only when there are some. */
  hashRoutes?: { count: number; examples: string[] };
  /** True when the run was interrupted before the source was exhausted (it resumes next time). */
  interrupted: boolean;
  /** Why the source gave up early, when it did. */
  stopped?: string;
  /** The limit that ended the run early, when one did (exit code 0: the index is usable, but incomplete). */
  stoppedBy?: StoppedBy;
  /** URLs still to crawl when the run ended early (interrupted, or at --max-pages): the next run continues with them. */
  queued?: number;
  /** The embedding pass after the pages were stored, when the index has (or gets) vectors. */
  embedding?: EmbedReport;
}

export interface IngestDependencies {
  config: CitedocsConfig;
  /** Opened on first write, so a source that fails at once leaves no new index file behind. */
  openStore: () => Store;
  /** The index if it exists already (for reading what a re-crawl knows), without creating it. */
  existingStore: () => Store | undefined;
  /** Loaded on the first page that needs chunking: a re-crawl answered with 304s never needs it. */
  tokenizer: () => Promise<Tokenizer>;
  fetch?: FetchLike;
  /** Resolves host names for the crawl's address guard. */
  lookup?: LookupFunction;
  now?: () => Date;
  /** Which source (library@version) the pages belong to; none: pages keep the source they have. */
  source?: SourceResolver;
  /** A folder's documents read from elsewhere than the disk (a git tag's objects), published under `baseUrl`; `input` then only names them. */
  documents?: { files: DocumentFiles; baseUrl: string; urlStyle: UrlStyle };
}

/** What an ingest reads from: its items, the key its runs are recorded under, and whether this session opened a run. */
export interface IngestSource {
  items: AsyncIterable<SourceItem>;
  kind: 'crawl' | 'local';
  key: string;
  runOpened: () => boolean;
}
