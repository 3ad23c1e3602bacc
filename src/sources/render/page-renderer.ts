/**
 * What a page's scripts may fetch while it renders: the crawler decides (host, scope traps,
 * robots.txt) and fetches it with its own guarded client. The browser never reaches the
 * network by itself.
 */
export type ResourceAnswer =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer }
  /** Not requested: why (another host, robots.txt, too large…). */
  | { kind: 'refused'; reason: string };

export interface RenderOptions {
  /** The page's HTML as the crawler fetched it: the browser is given this document, it never requests the page again. */
  html: string;
  /** Every request the page makes besides its own document (scripts, styles, data) goes through here. */
  fetchResource: (url: string, abortSignal: AbortSignal) => Promise<ResourceAnswer>;
  abortSignal?: AbortSignal;
}

export interface RenderedPage {
  /** The DOM after the page's scripts ran, serialised: what extraction and link discovery read. */
  html: string;
  /** Sub-requests that were not made, with why, in the order the page asked for them. */
  refused: { url: string; reason: string }[];
}

/** Runs a page's scripts and returns the document they built. One instance per ingest; `close` ends it. */
export interface PageRenderer {
  render(url: string, options: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}

/** One page could not be rendered: reported for that page, the crawl goes on. */
export class RenderError extends Error {
  override readonly name = 'RenderError';
  readonly url: string;
  readonly interrupted: boolean;
  constructor(message: string, url: string, options: { cause?: unknown; interrupted?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.url = url;
    this.interrupted = options.interrupted === true;
  }
}
