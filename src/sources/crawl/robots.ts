import robotsParserModule from 'robots-parser';
import { type FetchPageOptions, fetchPage } from './fetch-page.js';

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
  sitemaps: string[];
  /** Why the whole origin is off limits: robots.txt answered 5xx or the host is unreachable. */
  blocked?: string;
}

/**
 * Reads `origin/robots.txt` (RFC 9309): a 4xx means no restrictions; a 5xx or an unreachable
 * host means the whole origin is disallowed for now. Rules apply to our product token, the
 * user agent up to its first `/` (`citedocs/0.1 (…)` → `citedocs`), falling back to `*`.
 */
export async function loadRobots(origin: string, options: FetchPageOptions): Promise<RobotsPolicy> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  const fetched = await fetchPage(robotsUrl, { ...options, maxRedirects: Math.min(options.maxRedirects, 5) });
  if (fetched.kind === 'failed') {
    if (fetched.status !== undefined && fetched.status >= 400 && fetched.status < 500) return { isAllowed: () => true, sitemaps: [] };
    const blocked = fetched.status === undefined
      ? `${fetched.message}. Check the URL and that the site is up (for a folder of files, pass its path instead)`
      : `${fetched.message}; until robots.txt can be read the site counts as disallowed (RFC 9309), so try again later`;
    return { isAllowed: () => false, sitemaps: [], blocked };
  }
  if (fetched.kind !== 'document') return { isAllowed: () => true, sitemaps: [] };
  const robots = robotsParser(robotsUrl, fetched.body);
  const agent = options.userAgent;
  const delaySeconds = robots.getCrawlDelay(agent);
  return {
    // A URL of another origin is not governed by this file (the parser answers undefined).
    isAllowed: (url) => robots.isAllowed(url, agent) !== false,
    ...(delaySeconds === undefined ? {} : { crawlDelayMs: delaySeconds * 1000 }),
    sitemaps: robots.getSitemaps(),
  };
}
