import type { Chunk, Page } from '../core/types.js';

export type UpsertOutcome = 'added' | 'changed' | 'unchanged';

export interface TextQuery {
  /** Search terms, already analysed (no stop-words); any may match, more matches rank higher. */
  terms: string[];
  limit: number;
  /** Relative weight of a match in the page title, the heading path and the text. */
  fieldWeights: { title: number; headings: number; text: number };
}

export interface TextHit {
  chunk: Chunk;
  /** BM25 score, higher is better. */
  bm25: number;
}

export interface StoreStats {
  pages: number;
  chunks: number;
  anchors: number;
  bytes: number;
}

/**
 * Where pages, chunks and the anchor map live. Writes of one page are atomic: a crash leaves
 * either the old version of the page or the new one, never a mix.
 */
export interface Store {
  readonly path: string;
  /** Replaces the page and its chunks and anchors, unless its content hash is unchanged. */
  upsertPage(page: Page, chunks: readonly Chunk[]): UpsertOutcome;
  searchText(query: TextQuery): TextHit[];
  /** The stored page with this URL (exact, fragment-free), if any. */
  getPage(url: string): StoredPage | undefined;
  /** Every fragment id that exists on the page: the anchor map used to check links. */
  anchorsOf(url: string): ReadonlySet<string>;
  /** URLs of the pages that have this anchor. */
  pagesWithAnchor(anchor: string): string[];
  stats(): StoreStats;
  close(): void;
}

export interface StoredPage {
  url: string;
  title: string;
  contentHash: string;
  source: Page['source'];
  fetchedAt: string;
  chunkCount: number;
}
