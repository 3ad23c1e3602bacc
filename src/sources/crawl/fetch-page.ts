import { parseRetryAfter } from '../../core/http/retry.js';
import { type AttemptResult, retryLoop } from '../../core/http/retry-loop.js';
import { declaredOver, type FetchLike, type HttpAttempt, readLimited, startAttempt } from '../../core/http/send.js';
import { binaryContentReason, decodeDocument } from '../decode.js';
import { PrivateHostError } from '../web/host-guard.js';
import { robotsHeader } from './robots-header.js';


export type DocumentFormat = 'html' | 'markdown' | 'text' | 'xml';

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface FetchPageOptions {
  fetch: FetchLike;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed at most (a loop is detected before that). */
  maxRedirects: number;
  /** Retries after a network error, a 429 or a 5xx, with exponential backoff. */
  retries: number;
  retryBaseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the fetch fails instead. */
  maxRetryAfterMs: number;
  /** Sent as If-None-Match / If-Modified-Since: a 304 answer means the stored page is current. */
  validators?: Validators;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Accept XML (sitemaps); pages are HTML, Markdown or text only. */
  acceptXml?: boolean;
  /** Read the body as text whatever its media type (robots.txt). */
  anyType?: boolean;
  /**
   * Checked before every request, the first and each redirect hop: why this URL may not be
   * requested (another host, out of scope, a trap), or undefined to go ahead. A refused hop
   * is never sent.
   */
  allowHop?: (url: string) => string | undefined;
}

export type FetchedPage =
  | {
      kind: 'document';
      url: string;
      format: DocumentFormat;
      body: string;
      etag?: string;
      lastModified?: string;
      redirects: string[];
      /** `X-Robots-Tag` asks this crawler not to index the page, or not to follow its links. */
      noindex?: true;
      nofollow?: true;
    }
  | { kind: 'not-modified'; url: string }
  | {
      kind: 'failed';
      url: string;
      status?: number;
      message: string;
      /** The URL `allowHop` refused (the first one, or where a redirect led): it was not requested. */
      refusedHop?: string;
      /** The address guard refused the host (a private address the crawl may not reach): nothing was sent. */
      privateAddress?: true;
      /** The caller's signal aborted the request: not the page's fault, so it is tried again next run. */
      interrupted?: true;
    };

const FORMATS: [RegExp, DocumentFormat][] = [
  [/^(text\/html|application\/xhtml\+xml)\b/i, 'html'],
  [/^text\/(x-)?markdown\b/i, 'markdown'],
  [/^text\/plain\b/i, 'text'],
];

/**
 * GETs one document: every hop (the URL, each redirect) checked by `allowHop` before it is
 * sent; bounded time, size and redirects; retried with backoff on network errors, 429 and
 * 5xx (honouring Retry-After); HTML, Markdown or plain text only, refused when its bytes are
 * binary, decoded with its declared (or else detected) charset; conditional when validators
 * are given.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const outcome = await retryLoop((): Promise<Attempt> => fetchOnce(url, options), {
    retries: options.retries,
    baseDelayMs: options.retryBaseDelayMs,
    maxWaitMs: options.maxRetryAfterMs,
    longWait: 'give-up',
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });
  switch (outcome.kind) {
    case 'done':
      return outcome.value;
    case 'aborted':
      return interrupted(url);
    case 'exhausted':
      return failed(url, outcome.failure, outcome.failure.message);
    case 'wait-too-long':
      return failed(url, outcome.failure, `${outcome.failure.message}; the server asks to retry after ${Math.round(outcome.waitMs / 1000)} s, longer than the ${Math.round(options.maxRetryAfterMs / 1000)} s citedocs waits`);
  }
}

interface Retryable {
  status?: number;
  message: string;
}

type Attempt = AttemptResult<FetchedPage, Retryable>;

function failed(url: string, failure: Retryable, message: string): FetchedPage {
  return { kind: 'failed', url, ...(failure.status === undefined ? {} : { status: failure.status }), message };
}

function interrupted(url: string): FetchedPage {
  return { kind: 'failed', url, message: `GET ${url} was interrupted`, interrupted: true };
}

async function fetchOnce(startUrl: string, options: FetchPageOptions): Promise<Attempt> {
  const refusal = options.allowHop?.(startUrl);
  if (refusal !== undefined) return done({ kind: 'failed', url: startUrl, message: `${startUrl} was not requested: ${refusal}`, refusedHop: startUrl });
  const attempt = startAttempt(options);
  try {
    const reached = await followRedirects(startUrl, options, attempt);
    return reached.kind === 'response' ? await readDocument(reached.url, reached.redirects, reached.response, options, attempt) : reached.attempt;
  } finally {
    attempt.clear();
  }
}

type Reached = { kind: 'response'; url: string; redirects: string[]; response: Response } | { kind: 'ended'; attempt: Attempt };

/** Sends the request and follows its redirects, each hop checked by `allowHop`, loops and overlong chains refused. */
async function followRedirects(startUrl: string, options: FetchPageOptions, attempt: HttpAttempt): Promise<Reached> {
  const ended = (result: Attempt): Reached => ({ kind: 'ended', attempt: result });
  const redirects: string[] = [];
  let url = startUrl;
  for (;;) {
    const sent = await attempt.send(url, { headers: requestHeaders(options, url === startUrl), redirect: 'manual' });
    if (sent.kind === 'failed') {
      if (sent.aborted) return ended(done(interrupted(url)));
      // The address guard refused the host: asking again cannot change that.
      if (sent.error instanceof PrivateHostError) return ended(done({ kind: 'failed', url, message: `GET ${url} failed: ${sent.error.message}`, privateAddress: true }));
      return ended({ kind: 'retry', failure: { message: `GET ${url} failed: ${sent.reason}` } });
    }
    const { response } = sent;
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || location === null) return { kind: 'response', url, redirects, response };
    await response.body?.cancel();
    const next = safeResolve(location, url);
    if (next === undefined) return ended(done({ kind: 'failed', url, message: `GET ${url} redirects to an invalid location "${location}"` }));
    if (next === startUrl || redirects.includes(next)) return ended(done({ kind: 'failed', url: startUrl, message: `GET ${startUrl} is a redirect loop (${[startUrl, ...redirects, next].join(' → ')})` }));
    if (redirects.length >= options.maxRedirects) return ended(done({ kind: 'failed', url: startUrl, message: `GET ${startUrl} redirects more than ${options.maxRedirects} times` }));
    const hopRefusal = options.allowHop?.(next);
    if (hopRefusal !== undefined) return ended(done({ kind: 'failed', url: startUrl, message: `GET ${url} redirects to ${next}, which was not followed: ${hopRefusal}`, refusedHop: next }));
    redirects.push(next);
    url = next;
  }
}

/** The final response: not modified, retryable (429, 5xx), refused (status, type, size, binary) or the decoded document. */
async function readDocument(url: string, redirects: string[], response: Response, options: FetchPageOptions, attempt: HttpAttempt): Promise<Attempt> {
  if (response.status === 304) {
    await response.body?.cancel();
    return done({ kind: 'not-modified', url });
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return { kind: 'retry', failure: { status: response.status, message: `GET ${url} returned HTTP ${response.status}` }, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return done({ kind: 'failed', url, status: response.status, message: `GET ${url} returned HTTP ${response.status}` });
  }
  const contentType = response.headers.get('content-type') ?? '';
  const format = options.anyType === true ? 'text' : formatOf(contentType, url, options.acceptXml === true);
  if (format === undefined) {
    await response.body?.cancel();
    return done({ kind: 'failed', url, message: `GET ${url} is ${contentType || 'of no declared type'}, not HTML, Markdown or text; skipped` });
  }
  const declared = declaredOver(response, options.maxBytes);
  if (declared !== undefined) {
    await response.body?.cancel();
    return done({ kind: 'failed', url, message: `GET ${url} is ${declared} bytes, over the ${options.maxBytes}-byte limit; skipped` });
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await attempt.bounded(readLimited(response, options.maxBytes));
  } catch (error) {
    const failure = attempt.failure(error);
    if (failure.aborted) return done(interrupted(url));
    return { kind: 'retry', failure: { message: `GET ${url} failed while reading: ${failure.reason}` } };
  }
  if (bytes === undefined) return done({ kind: 'failed', url, message: `GET ${url} is over the ${options.maxBytes}-byte limit; skipped` });
  const binary = options.anyType === true ? undefined : binaryContentReason(bytes);
  if (binary !== undefined) return done({ kind: 'failed', url, message: `GET ${url} is served as ${contentType || 'text'} but ${binary}; skipped` });
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  const robots = robotsHeader(response.headers.get('x-robots-tag'), options.userAgent);
  return done({
    kind: 'document',
    url,
    format,
    body: decodeDocument(bytes, { contentType, html: format === 'html' }),
    redirects,
    ...(etag === null ? {} : { etag }),
    ...(lastModified === null ? {} : { lastModified }),
    ...(robots.noindex ? { noindex: true } : {}),
    ...(robots.nofollow ? { nofollow: true } : {}),
  });
}

function done(page: FetchedPage): Attempt {
  return { kind: 'done', value: page };
}

function requestHeaders(options: FetchPageOptions, conditional: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent,
    accept: 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.8,text/plain;q=0.5,*/*;q=0.1',
  };
  if (conditional && options.validators?.etag !== undefined) headers['if-none-match'] = options.validators.etag;
  if (conditional && options.validators?.lastModified !== undefined) headers['if-modified-since'] = options.validators.lastModified;
  return headers;
}

function formatOf(contentType: string, url: string, acceptXml: boolean): DocumentFormat | undefined {
  if (acceptXml && (/^(application|text)\/xml\b/i.test(contentType) || /\.xml$/i.test(new URL(url).pathname))) return 'xml';
  const format = FORMATS.find(([pattern]) => pattern.test(contentType))?.[1];
  // Markdown files are often served as text/plain.
  if (format === 'text' && /\.(md|markdown|mdx)$/i.test(new URL(url).pathname)) return 'markdown';
  return format;
}

function safeResolve(location: string, base: string): string | undefined {
  try {
    const resolved = new URL(location, base);
    resolved.hash = '';
    return resolved.href;
  } catch {
    return undefined;
  }
}
