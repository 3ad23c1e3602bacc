import { parseRetryAfter } from '../../core/http/retry.js';
import { retryLoop } from '../../core/http/retry-loop.js';
import { type FetchLike, type HttpAttempt, readLimited, startAttempt } from '../../core/http/send.js';
import { decodeDocument } from '../decode.js';
import { type ParsedResultsPage, parseDuckDuckGoHtml } from './duckduckgo-html.js';
import { type SafeSearch, type SearchBackend, SearchBlockedError, type SearchHit, type WebSearchOptions, type WebSearchOutcome } from './search-backend.js';

export const DUCKDUCKGO_HTML_URL = 'https://html.duckduckgo.com/html/';

export interface DuckDuckGoOptions {
  /** The HTML endpoint (tests point it at 127.0.0.1). */
  searchUrl?: string;
  fetch: FetchLike;
  userAgent: string;
  timeoutMs: number;
  /** Tries per results page when DuckDuckGo rate limits or is unreachable (at least 1). */
  attempts: number;
  /** The first wait before trying again; it doubles each time. A Retry-After is honoured up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const SAFE_SEARCH: Record<SafeSearch, string> = { strict: '1', moderate: '-1', off: '-2' };
const RESULTS_PER_PAGE = 10;
const MAX_BODY_BYTES = 5 * 1024 * 1024;

interface Refusal {
  message: string;
  retryAfterMs?: number;
}

/**
 * DuckDuckGo's HTML endpoint: the first page by GET `?q=`, later ones by POSTing the page's
 * "Next" form, until `maxResults` results or the last page. A bot challenge, a 429 or an
 * unreachable endpoint is tried again after a growing pause, a bounded number of times; the
 * loop also ends when a page adds no new result, so a server that repeats itself cannot
 * keep it going.
 */
export function createDuckDuckGoBackend(options: DuckDuckGoOptions): SearchBackend {
  const searchUrl = options.searchUrl ?? DUCKDUCKGO_HTML_URL;
  const attempts = Math.max(1, options.attempts);

  type PageAnswer = { kind: 'done'; value: ParsedResultsPage } | { kind: 'retry'; failure: Refusal; retryAfterMs?: number };
  const refused = (message: string, retryAfterMs?: number): PageAnswer => ({ kind: 'retry', failure: { message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

  async function request(form: URLSearchParams, first: boolean, signal: AbortSignal | undefined): Promise<PageAnswer> {
    const attempt = startAttempt({ fetch: options.fetch, timeoutMs: options.timeoutMs, signal });
    try {
      const url = first ? withQuery(searchUrl, form) : searchUrl;
      const sent = await attempt.send(url, {
        method: first ? 'GET' : 'POST',
        headers: { 'user-agent': options.userAgent, accept: 'text/html', ...(first ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
        ...(first ? {} : { body: form.toString() }),
      });
      if (sent.kind === 'failed') {
        if (sent.aborted) throw signal?.reason;
        return refused(`${searchUrl} could not be reached: ${sent.reason}`);
      }
      return await readResultsPage(url, sent.response, attempt, signal);
    } finally {
      attempt.clear();
    }
  }

  async function readResultsPage(url: string, response: Response, attempt: HttpAttempt, signal: AbortSignal | undefined): Promise<PageAnswer> {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    if (response.status === 429 || response.status === 403 || response.status >= 500) {
      await response.body?.cancel();
      return refused(`${searchUrl} answered HTTP ${response.status}${response.status === 429 ? ' (too many requests)' : ''}`, retryAfterMs);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return refused(`${searchUrl} answered HTTP ${response.status}`, retryAfterMs);
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await attempt.bounded(readLimited(response, MAX_BODY_BYTES));
    } catch (error) {
      const failure = attempt.failure(error);
      if (failure.aborted) throw signal?.reason;
      return refused(`${searchUrl} failed while sending its page: ${failure.reason}`, retryAfterMs);
    }
    if (bytes === undefined) return refused(`${searchUrl} sent a page over ${MAX_BODY_BYTES} bytes, which is not a results page`, retryAfterMs);
    const page = parseDuckDuckGoHtml(decodeDocument(bytes, { contentType: response.headers.get('content-type') ?? '', html: true }), url);
    if (page.kind === 'blocked') return refused(`${page.reason}${response.status === 202 ? ' with HTTP 202' : ''}: it is rate limiting this address`, retryAfterMs);
    return { kind: 'done', value: page };
  }

  /** One results page, tried again after a growing pause (or the server's Retry-After, capped) while refused. */
  async function resultsPage(form: URLSearchParams, first: boolean, signal: AbortSignal | undefined): Promise<{ kind: 'page'; page: ParsedResultsPage; requests: number } | { kind: 'refused'; refusal: Refusal; requests: number }> {
    let requests = 0;
    const outcome = await retryLoop(
      () => {
        requests += 1;
        return request(form, first, signal);
      },
      { retries: attempts - 1, baseDelayMs: options.backoffMs, maxWaitMs: options.maxBackoffMs, longWait: 'cap', ...(signal === undefined ? {} : { signal }), ...(options.sleep === undefined ? {} : { sleep: options.sleep }) },
    );
    if (outcome.kind === 'done') return { kind: 'page', page: outcome.value, requests };
    if (outcome.kind === 'aborted') throw signal?.reason;
    return { kind: 'refused', refusal: outcome.failure, requests };
  }

  return {
    name: 'duckduckgo-html',
    endpoint: searchUrl,
    async search(query: string, search: WebSearchOptions): Promise<WebSearchOutcome> {
      const hits: SearchHit[] = [];
      const warnings: string[] = [];
      const seen = new Set<string>();
      let requests = 0;
      let form = new URLSearchParams({ q: query, kl: search.region ?? 'wt-wt', kp: SAFE_SEARCH[search.safeSearch ?? 'moderate'] });
      const maxRequests = Math.ceil(search.maxResults / RESULTS_PER_PAGE) + 2;
      for (let pageIndex = 0; hits.length < search.maxResults && pageIndex < maxRequests; pageIndex += 1) {
        const answer = await resultsPage(form, pageIndex === 0, search.signal);
        requests += answer.requests;
        if (answer.kind === 'refused') {
          const message = `${answer.refusal.message} (${attempts} ${attempts === 1 ? 'try' : 'tries'})`;
          if (hits.length === 0) {
            const retryAfter = answer.refusal.retryAfterMs === undefined ? undefined : Math.ceil(answer.refusal.retryAfterMs / 1000);
            throw new SearchBlockedError(`The web search failed: ${message}. Wait a few minutes and try again, or set web.searchUrl to another DuckDuckGo-compatible endpoint.`, retryAfter);
          }
          warnings.push(`The web search stopped after ${hits.length} results: ${message}.`);
          break;
        }
        const { page } = answer;
        if (page.kind !== 'results') break;
        const before = hits.length;
        for (const hit of page.hits) {
          if (seen.has(hit.url) || hits.length >= search.maxResults) continue;
          seen.add(hit.url);
          hits.push({ ...hit, rank: hits.length + 1 });
        }
        if (page.next === undefined || hits.length === before) break;
        form = new URLSearchParams({ ...page.next, kp: form.get('kp') ?? SAFE_SEARCH.moderate });
      }
      return { hits, warnings, requests };
    },
  };
}

function withQuery(base: string, form: URLSearchParams): string {
  const url = new URL(base);
  for (const [name, value] of form) url.searchParams.set(name, value);
  return url.href;
}
