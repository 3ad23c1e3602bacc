import { CitedocsError } from '../../core/errors.js';

/** One web search result, as the search engine ranked it (rank from 1). */
export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  rank: number;
}

export type SafeSearch = 'strict' | 'moderate' | 'off';

export interface WebSearchOptions {
  /** Results wanted at most; the backend pages until it has them or the engine has no more. */
  maxResults: number;
  /** The engine's region code (DuckDuckGo's `kl`, e.g. `us-en`; `wt-wt` is no region). */
  region?: string;
  safeSearch?: SafeSearch;
  signal?: AbortSignal;
}

export interface WebSearchOutcome {
  hits: SearchHit[];
  /** Why fewer results came back than asked for (rate limited on a later page, …). */
  warnings: string[];
  /** Requests sent to the search engine. */
  requests: number;
}

/** A web search engine behind one small contract: DuckDuckGo's HTML endpoint is the default. */
export interface SearchBackend {
  /** `duckduckgo-html`: named in warnings and in cache keys. */
  readonly name: string;
  /** What identifies the results this backend gives for a query (its endpoint), for cache keys. */
  readonly endpoint: string;
  search(query: string, options: WebSearchOptions): Promise<WebSearchOutcome>;
}

/**
 * The search engine refused the search before giving any result: rate limited (429, an
 * "anomaly" challenge page) or unreachable. The message says what happened and what to do.
 */
export class SearchBlockedError extends CitedocsError {
  override readonly name = 'SearchBlockedError';
  /** Seconds the engine asked us to wait, when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
