import robotsParserModule from 'robots-parser';
import { type FetchedPage, type FetchPageOptions, fetchPage } from './fetch-page.js';

interface RobotsFile {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getCrawlDelay(userAgent?: string): number | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS: its module.exports is the factory, which its typings call `default`.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => RobotsFile;

/** What robots.txt lets citedocs do on one origin. */
export interface RobotsPolicy {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our user agent, in milliseconds. */
  crawlDelayMs?: number;
  /** Absolute URLs of the `Sitemap:` lines (relative ones resolved against robots.txt). */
  sitemaps: string[];
  /** `Sitemap:` lines that are not URLs: skipped, and reported as warnings. */
  problems?: { url: string; message: string }[];
  /** Why the whole origin is off limits: robots.txt answered 5xx or the host is unreachable. */
  blocked?: string;
}

/**
 * Reads `origin/robots.txt` (RFC 9309): a 4xx means no restrictions; a 5xx or an unreachable
 * host means the whole origin is disallowed for now. Rules apply to our product token, the
 * user agent up to its first `/` (`citedocs/0.1 (…)` → `citedocs`), falling back to `*`.
 */
export async function loadRobots(origin: string, options: FetchPageOptions): Promise<RobotsPolicy> {
  const fetched = await fetchPage(robotsUrlOf(origin), robotsFetchOptions(options));
  return robotsPolicyOf(origin, fetched, options.userAgent);
}

/** Where an origin's robots.txt is. */
export function robotsUrlOf(origin: string): string {
  return new URL('/robots.txt', origin).href;
}

/** How robots.txt is fetched: as text whatever its media type, at most 500 KiB (RFC 9309 §2.5), at most 5 redirects. */
export function robotsFetchOptions(options: FetchPageOptions): FetchPageOptions {
  return { ...options, maxRedirects: Math.min(options.maxRedirects, 5), maxBytes: MAX_ROBOTS_BYTES, anyType: true };
}

/** The policy a fetched robots.txt (or the failure to fetch it) sets for `userAgent` on its origin. */
export function robotsPolicyOf(origin: string, fetched: FetchedPage, userAgent: string): RobotsPolicy {
  const robotsUrl = robotsUrlOf(origin);
  if (fetched.kind === 'failed') {
    // Unavailable (4xx, too many redirects, too large): no restrictions. Unreachable (5xx, network): none allowed.
    const unreachable = fetched.status === undefined ? !/redirect|over the .*limit/.test(fetched.message) : fetched.status >= 500;
    if (!unreachable) return { isAllowed: () => true, sitemaps: [] };
    const blocked = fetched.privateAddress === true
      ? fetched.message
      : fetched.status === undefined
      ? `${fetched.message}. Check the URL and that the site is up (for a folder of files, pass its path instead)`
      : `${fetched.message}; until robots.txt can be read the site counts as disallowed (RFC 9309), so try again later`;
    return { isAllowed: () => false, sitemaps: [], blocked };
  }
  if (fetched.kind !== 'document') return { isAllowed: () => true, sitemaps: [] };
  const robots = robotsParser(robotsUrl, fetched.body);
  const agent = userAgent;
  const delaySeconds = robots.getCrawlDelay(agent);
  const ownOrigin = new URL(origin).origin;
  const decisions = new Map<string, boolean>();
  return {
    // This file governs its own origin only: a URL of another origin is not allowed by it.
    isAllowed: (url) => {
      let decision = decisions.get(url);
      if (decision === undefined) {
        decision = sameOrigin(url, ownOrigin) && robots.isAllowed(url, agent) !== false;
        decisions.set(url, decision);
      }
      return decision;
    },
    ...(delaySeconds === undefined ? {} : { crawlDelayMs: delaySeconds * 1000 }),
    ...sitemapsOf(robots.getSitemaps(), robotsUrl),
  };
}

/** `Sitemap: /sitemap.xml` is common although RFC 9309 asks for absolute URLs: resolved against robots.txt; a line that is no URL at all is reported. */
function sitemapsOf(lines: readonly string[], robotsUrl: string): Pick<RobotsPolicy, 'sitemaps' | 'problems'> {
  const sitemaps: string[] = [];
  const problems: { url: string; message: string }[] = [];
  for (const line of lines) {
    const resolved = URL.canParse(line.trim(), robotsUrl) ? new URL(line.trim(), robotsUrl) : undefined;
    if (resolved !== undefined && (resolved.protocol === 'http:' || resolved.protocol === 'https:')) sitemaps.push(resolved.href);
    else problems.push({ url: robotsUrl, message: `${robotsUrl} names a sitemap "${line.slice(0, 200)}" that is not an http(s) URL; skipped` });
  }
  return problems.length === 0 ? { sitemaps } : { sitemaps, problems };
}

const MAX_ROBOTS_BYTES = 500 * 1024;

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
