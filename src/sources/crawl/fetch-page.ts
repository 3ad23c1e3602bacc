import { describeCause } from '../../core/errors.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface FetchPageOptions {
  fetch: FetchLike;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export type FetchedPage =
  | { kind: 'html'; url: string; html: string; etag?: string; lastModified?: string }
  | { kind: 'failed'; url: string; status?: number; message: string };

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** GETs one page: bounded time and size, HTML only, decoded with its declared charset. */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let response: Response;
  try {
    response = await options.fetch(url, {
      headers: { 'user-agent': options.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
      redirect: 'follow',
      signal,
    });
  } catch (error) {
    const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describeCause(error);
    return { kind: 'failed', url, message: `GET ${url} failed: ${reason}` };
  }
  const finalUrl = response.url || url;
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: 'failed', url: finalUrl, status: response.status, message: `GET ${finalUrl} returned HTTP ${response.status}` };
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!HTML_TYPES.test(contentType)) {
    await response.body?.cancel();
    return { kind: 'failed', url: finalUrl, message: `GET ${finalUrl} is ${contentType || 'of no declared type'}, not HTML; skipped` };
  }
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > options.maxBytes) {
    await response.body?.cancel();
    return { kind: 'failed', url: finalUrl, message: `GET ${finalUrl} is ${declared} bytes, over the ${options.maxBytes}-byte limit; skipped` };
  }
  let bytes: Uint8Array;
  try {
    const body = await readLimited(response, options.maxBytes);
    if (body === undefined) return { kind: 'failed', url: finalUrl, message: `GET ${finalUrl} is over the ${options.maxBytes}-byte limit; skipped` };
    bytes = body;
  } catch (error) {
    return { kind: 'failed', url: finalUrl, message: `GET ${finalUrl} failed while reading: ${timeout.aborted ? `timed out after ${options.timeoutMs} ms` : describeCause(error)}` };
  }
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  return {
    kind: 'html',
    url: finalUrl,
    html: decode(bytes, contentType),
    ...(etag === null ? {} : { etag }),
    ...(lastModified === null ? {} : { lastModified }),
  };
}

async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(value);
  }
}

/** Charset from the Content-Type header, else from a `<meta charset>` in the first bytes, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  const head = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  const fromMeta = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  for (const label of [fromHeader, fromMeta, 'utf-8']) {
    if (label === undefined) continue;
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // unknown label: try the next source of truth
    }
  }
  return new TextDecoder().decode(bytes);
}
