import type { DiagnosticCode } from './diagnostics.js';

/** A heading of a page. `anchor` is an id that really exists on the page (never invented). */
export interface Heading {
  level: number;
  text: string;
  anchor?: string;
  /**
   * Repeats an enclosing heading where its section resumes after a list of entries (the prose
   * after a `<dl>` of functions belongs to the section again, not to the last function). Not a
   * heading of its own: tables of contents and counts skip it.
   */
  continues?: true;
}

export type PageSource = 'crawl' | 'local' | 'web';

/** One document, as extracted: Markdown of its main content plus the anchors it really has. */
export interface Page {
  url: string;
  canonicalUrl: string;
  title: string;
  markdown: string;
  /** Headings in document order, matching the ATX headings of `markdown` one to one. */
  headings: Heading[];
  /** Every fragment id a link may target on this page (heading anchors and any other ids). */
  anchors: string[];
  contentHash: string;
  fetchedAt: string;
  source: PageSource;
  etag?: string;
  lastModified?: string;
  sourcePath?: string;
  /** Every in-page link (crawled pages): what a re-crawl follows when the server answers 304. */
  links?: string[];
  /** Other URLs that lead to this page: redirect sources, a URL its canonical link replaced. */
  aliases?: string[];
  /** The chunking settings its stored chunks were made with. */
  chunking?: string;
  /** The version the page says its documentation is of, as read (not stored): what an ingest names a source's version by when nothing else does. */
  siteVersion?: string;
  /** The name the page gives its site, as read (not stored): what an ingest names a source's library by when nothing else does. */
  siteName?: string;
}

/** A passage of a page. Its URL is fixed from the page at chunking time, never re-derived. */
export interface Chunk {
  id: string;
  pageUrl: string;
  pageTitle: string;
  /** Anchor of the nearest enclosing heading that has one; absent before the first one. */
  anchor?: string;
  headingPath: string[];
  text: string;
  tokenCount: number;
  contentHash: string;
}

export interface CandidateScores {
  bm25?: number;
  dense?: number;
  fused: number;
  rerank?: number;
}

/** Why a candidate scored what it did: shown by `--explain`. */
export interface ScoreTrace {
  technique: string;
  rank: number;
  score: number;
  detail?: string;
}

export interface Candidate {
  chunk: Chunk;
  scores: CandidateScores;
  techniques: string[];
  trace: ScoreTrace[];
  /** Set when only a follow-up query (after the first round) found it. */
  retrievalType?: 'follow-up';
  /** The follow-up query that found it. */
  followUpQuery?: string;
  /** Its text was cut to its most relevant part to fit the token budget (same URL#anchor). */
  trimmed?: boolean;
}

export interface DroppedCandidate {
  /**
   * threshold: score under `scoreThreshold`; duplicate: the same text as, or too similar to, a
   * kept passage (`duplicateOf`); budget: over the remaining tokens; limit: past the passage
   * limit; cap: from a page beyond `maxSelectedPages`.
   */
  reason: 'budget' | 'duplicate' | 'limit' | 'threshold' | 'cap';
  url: string;
  /** For a duplicate: the kept passage it repeats, and how similar they are. */
  duplicateOf?: string;
  similarity?: number;
  score?: number;
}

export interface Selection {
  candidates: Candidate[];
  totalTokens: number;
  dropped: DroppedCandidate[];
}

export interface Citation {
  n: number;
  url: string;
  anchor?: string;
  title: string;
}

/** A URL a crawl has found, and how many links from the start page it is (-1: a stored page revalidated). */
export interface FrontierEntry {
  url: string;
  depth: number;
}

/** The fields of a chunk that lexical search weighs apart (`text` is the prose, without code). */
export type TextField = 'title' | 'headings' | 'identifiers' | 'code' | 'text';

/** How a lexical match is scored: BM25F's field weights, saturation and length normalisation, and the link prior. */
export interface LexicalRanking {
  fieldWeights: Readonly<Record<TextField, number>>;
  /** Term-frequency saturation: higher lets repeated words count longer. */
  k1: number;
  /** Length normalisation in [0, 1]: 0 ignores a field's length, 1 divides by it fully. */
  b: number;
  /**
   * How much being linked to lifts a match: its score is multiplied by 1 + linkPrior × links /
   * (links + 40) (half the weight at 40 links). Documentation links to its most used entries most often.
   */
  linkPrior: number;
  /**
   * How much a page that many other pages link to lifts every match on it: adds pagePrior ×
   * linking pages / (linking pages + 40) to that factor. Readers are sent to the pages that
   * define the everyday API (built-ins, common types) from everywhere.
   */
  pagePrior: number;
  /** How much words in backticks or quotes count: mostly the asker's own names and values. */
  quotedWeight: number;
}

export interface TextQuery {
  /** The query as written: the index analyses it (stop-words dropped, compound words split, dotted names kept whole). */
  text: string;
  limit: number;
  ranking: LexicalRanking;
  /** Report each field's share of the score. */
  explain?: boolean;
  /** Only chunks of pages of these sources (library versions) are scored: the statistics are theirs alone. */
  sourceIds?: readonly number[];
}

export interface TextHit {
  chunk: Chunk;
  /** BM25F score (times the link prior), higher is better. */
  bm25: number;
  /** With `explain`: each field's share of the score before the link prior. */
  fields?: Partial<Record<TextField, number>>;
  /** With `explain`: the link prior's factor. */
  prior?: number;
}

/** How common words are in the index: the IDF that pseudo-relevance feedback weighs terms by. */
export interface TermStats {
  /** Chunks in the index. */
  documents: number;
  /** Chunks containing each word (after the index's stemming); absent words are 0. */
  documentFrequency: ReadonlyMap<string, number>;
}

/** Full-text search over chunks: what the retrieve stage needs of an index. Each call reads one consistent snapshot. */
export interface TextIndex {
  searchText(query: TextQuery): Promise<TextHit[]>;
  termStats(words: readonly string[], sourceIds?: readonly number[]): Promise<TermStats>;
}

/** Counts text the way the target LLM does. */
export interface Tokenizer {
  readonly encoding: string;
  count(text: string): number;
}

export function chunkUrl(chunk: Pick<Chunk, 'pageUrl' | 'anchor'>): string {
  return chunk.anchor === undefined ? chunk.pageUrl : `${chunk.pageUrl}#${encodeFragment(chunk.anchor)}`;
}

/**
 * Percent-encodes only what a URL fragment cannot hold, so `#json.dumps` stays readable. A
 * percent escape the id itself holds (rustdoc's `impl-Extend%3C(K%2C%20V)%3E`) stays as
 * written: a browser looks a fragment up as written before it decodes it, and the page's own
 * links write it so (encoded again, it would read `%253C`).
 */
export function encodeFragment(anchor: string): string {
  return anchor
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, index) => (index % 2 === 1 ? part : encodeURI(part).replace(/#/g, '%23')))
    .join('');
}

/** What the extract stage makes of one document, before it becomes a Page. */
export interface ExtractedDocument {
  title: string;
  markdown: string;
  headings: Heading[];
  anchors: string[];
  /** The version the page says its documentation is of ("pytest 7.2 documentation" in its title), when it says one. */
  siteVersion?: string;
  /** The name the page gives its site ("CMake 3.25.1 Documentation", the site's part of its title; Doxygen's project name), when it gives one. */
  siteName?: string;
  /** The page asks robots not to index it (`<meta name="robots" content="noindex">`): its links are followed, its text is not stored. */
  noindex?: true;
  /**
   * The page is a generator's listing of the library's source code (Javadoc's `src-html`, JSDoc's
   * `file.js.html`, Haddock's hyperlinked source): its doc comments are the pages already indexed,
   * again, under one anchor at the top of a file of code. Its links are followed, its text is not stored.
   */
  sourceListing?: true;
  /**
   * How many other pages the page links by a route in its URL's fragment (`#/api`, `#!/guide`): a
   * single-page app (Docsify) whose pages a crawler, which reads a URL once without its
   * fragment, never reaches.
   */
  hashRoutes?: number;
}

/**
 * What a source yields: a page whose body was read; a stored page confirmed current without
 * reading it (HTTP 304); a stored page that is gone (404/410, or now outside the crawl's
 * scope) and must be removed; or a per-document failure that does not stop the run.
 */
export type SourceItem =
  | { kind: 'page'; page: Page }
  | { kind: 'unchanged'; url: string }
  | { kind: 'gone'; url: string; reason: string }
  /** The same content as a page already yielded (or stored): `url` is another URL of `of`. */
  | { kind: 'alias'; url: string; of: string }
  | { kind: 'error'; input: string; message: string }
  /** The page was read, but something about it needs saying: `needsRender` when it is an empty page built by JavaScript. */
  | { kind: 'warning'; code: DiagnosticCode; input: string; message: string; needsRender?: true }
  /** The source gave up (e.g. most fetches fail): what was stored stays, the run can resume. */
  | { kind: 'stopped'; reason: string }
  /** A limit ended the source before it was exhausted: `remaining` URLs (a site) or files (a folder) were left. */
  | { kind: 'limited'; limit: 'maxPages'; value: number; remaining: number };

/**
 * The limit that ended an ingest early, for people and scripts: which limit, its value, how
 * much was left, and how to raise it. The index holds everything read before it.
 */
export interface StoppedBy {
  /** The page budget: requests of one crawl run, or files of a folder. */
  limit: 'maxPages';
  value: number;
  /** URLs still queued (a site: at least this many) or files not read (a folder). */
  remaining: number;
  unit: 'requests' | 'files';
  /** The flag that raises it, and the configuration setting when there is one. */
  flag: '--max-requests';
  setting?: 'crawl.maxPages';
  /** Whether the same ingest run again continues where this one stopped (a site) or reads the same files again (a folder). */
  resumes: boolean;
}
