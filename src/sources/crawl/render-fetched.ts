import { type PageRenderer, RenderError, type ResourceAnswer } from '../render/page-renderer.js';
import { type FetchLike, readLimited } from '../../core/http/send.js';
import type { FetchedPage } from './fetch-page.js';

export interface RenderStep {
  renderer: PageRenderer;
  /** The crawl's guarded fetch: the address guard applies to what a page's scripts ask for too. */
  fetch: FetchLike;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** Why a page's sub-request may not be made (another host, a trap, robots.txt), or undefined. */
  allowResource: (url: string) => string | undefined;
  signal?: AbortSignal;
}

/** Headers of a sub-request's answer the browser needs: what it is, and where a redirect goes (that hop is checked again). */
const PASSED_HEADERS = ['content-type', 'location'];

/**
 * An HTML page the crawl fetched, with its body replaced by the document its scripts build.
 * Other documents, 304s and failures pass through untouched. A page that cannot be rendered
 * fails like a fetch does; a renderer that cannot start at all throws (the ingest stops).
 */
export async function renderFetched(fetched: FetchedPage, step: RenderStep): Promise<FetchedPage> {
  if (fetched.kind !== 'document' || fetched.format !== 'html') return fetched;
  try {
    const rendered = await step.renderer.render(fetched.url, {
      html: fetched.body,
      fetchResource: (url, abortSignal) => fetchResource(url, abortSignal, step),
      ...(step.signal === undefined ? {} : { abortSignal: step.signal }),
    });
    return { ...fetched, body: rendered.html };
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    return { kind: 'failed', url: fetched.url, message: error.message, ...(error.interrupted ? { interrupted: true as const } : {}) };
  }
}

async function fetchResource(url: string, abortSignal: AbortSignal, step: RenderStep): Promise<ResourceAnswer> {
  const refusal = step.allowResource(url);
  if (refusal !== undefined) return { kind: 'refused', reason: refusal };
  const signal = AbortSignal.any([abortSignal, AbortSignal.timeout(step.timeoutMs)]);
  const response = await step.fetch(url, { headers: { 'user-agent': step.userAgent }, redirect: 'manual', signal });
  const body = await readLimited(response, step.maxBytes);
  if (body === undefined) return { kind: 'refused', reason: `it is over the ${step.maxBytes}-byte limit` };
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { kind: 'response', status: response.status, headers, body: Buffer.from(body) };
}
