import { describeCause } from '../../core/errors.js';
import { binaryContentReason, decodeDocument } from '../decode.js';
import { PrivateHostError } from '../web/host-guard.js';
import { abortableSleep, parseRetryAfter } from '../../core/retry.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

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
  | { kind: 'document'; url: string; format: DocumentFormat; body: string; etag?: string; lastModified?: string; redirects: string[] }
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
  const sleep = options.sleep ?? abortableSleep;
  let attempt = 0;
  for (;;) {
    const result = await fetchOnce(url, options);
    if (result.kind !== 'retry') return result.page;
    if (options.signal?.aborted) return { kind: 'failed', url, message: `GET ${url} was interrupted`, interrupted: true };
    if (attempt >= options.retries) return { kind: 'failed', url, ...(result.status === undefined ? {} : { status: result.status }), message: result.message };
    const backoff = Math.min(options.retryBaseDelayMs * 2 ** attempt, 30_000);
    const wait = result.retryAfterMs ?? backoff;
    if (wait > options.maxRetryAfterMs) {
      return { kind: 'failed', url, ...(result.status === undefined ? {} : { status: result.status }), message: `${result.message}; the server asks to retry after ${Math.round(wait / 1000)} s, longer than the ${Math.round(options.maxRetryAfterMs / 1000)} s citedocs waits` };
    }
    attempt += 1;
    await sleep(wait, options.signal);
  }
}

type Attempt = { kind: 'done'; page: FetchedPage } | { kind: 'retry'; status?: number; message: string; retryAfterMs?: number };

async function fetchOnce(startUrl: string, options: FetchPageOptions): Promise<Attempt> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const redirects: string[] = [];
  let url = startUrl;
  let response: Response;
  const refusal = options.allowHop?.(startUrl);
  if (refusal !== undefined) return done({ kind: 'failed', url: startUrl, message: `${startUrl} was not requested: ${refusal}`, refusedHop: startUrl });
  for (;;) {
    try {
      response = await options.fetch(url, { headers: requestHeaders(options, url === startUrl), redirect: 'manual', signal });
    } catch (error) {
      const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describeCause(error);
      if (options.signal?.aborted) return done({ kind: 'failed', url, message: `GET ${url} was interrupted`, interrupted: true });
      // The address guard refused the host: asking again cannot change that.
      if (error instanceof PrivateHostError) return done({ kind: 'failed', url, message: `GET ${url} failed: ${error.message}`, privateAddress: true });
      return { kind: 'retry', message: `GET ${url} failed: ${reason}` };
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || location === null) break;
    await response.body?.cancel();
    const next = safeResolve(location, url);
    if (next === undefined) return done({ kind: 'failed', url, message: `GET ${url} redirects to an invalid location "${location}"` });
    if (next === startUrl || redirects.includes(next)) return done({ kind: 'failed', url: startUrl, message: `GET ${startUrl} is a redirect loop (${[startUrl, ...redirects, next].join(' → ')})` });
    if (redirects.length >= options.maxRedirects) return done({ kind: 'failed', url: startUrl, message: `GET ${startUrl} redirects more than ${options.maxRedirects} times` });
    const hopRefusal = options.allowHop?.(next);
    if (hopRefusal !== undefined) return done({ kind: 'failed', url: startUrl, message: `GET ${url} redirects to ${next}, which was not followed: ${hopRefusal}`, refusedHop: next });
    redirects.push(next);
    url = next;
  }

  if (response.status === 304) {
    await response.body?.cancel();
    return done({ kind: 'not-modified', url });
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return { kind: 'retry', status: response.status, message: `GET ${url} returned HTTP ${response.status}`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
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
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > options.maxBytes) {
    await response.body?.cancel();
    return done({ kind: 'failed', url, message: `GET ${url} is ${declared} bytes, over the ${options.maxBytes}-byte limit; skipped` });
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readLimited(response, options.maxBytes);
  } catch (error) {
    if (options.signal?.aborted) return done({ kind: 'failed', url, message: `GET ${url} was interrupted`, interrupted: true });
    return { kind: 'retry', message: `GET ${url} failed while reading: ${timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describeCause(error)}` };
  }
  if (bytes === undefined) return done({ kind: 'failed', url, message: `GET ${url} is over the ${options.maxBytes}-byte limit; skipped` });
  const binary = options.anyType === true ? undefined : binaryContentReason(bytes);
  if (binary !== undefined) return done({ kind: 'failed', url, message: `GET ${url} is served as ${contentType || 'text'} but ${binary}; skipped` });
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  return done({
    kind: 'document',
    url,
    format,
    body: decodeDocument(bytes, { contentType, html: format === 'html' }),
    redirects,
    ...(etag === null ? {} : { etag }),
    ...(lastModified === null ? {} : { lastModified }),
  });
}

function done(page: FetchedPage): Attempt {
  return { kind: 'done', page };
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

/** The body's bytes, or undefined once it passes `maxBytes` (the rest is not read). */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done: finished, value } = await reader.read();
    if (finished) return Buffer.concat(parts);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(value);
  }
}
