import { type FetchPageOptions, fetchPage } from './fetch-page.js';
import type { RobotsPolicy } from './robots.js';
import { parseLlmsTxt, readSitemaps } from './sitemaps.js';
import type { CrawlScope } from './url-scope.js';

export interface Discovery {
  urls: string[];
  problems: { url: string; message: string }[];
}

/**
 * Pages a site lists besides its links: sitemaps named in robots.txt and at the default
 * locations (sitemap indexes followed), and llms.txt. Only in-scope URLs are kept.
 */
export async function discoverListedPages(scope: CrawlScope, robots: RobotsPolicy, options: FetchPageOptions & { maxUrls: number }): Promise<Discovery> {
  const defaults = [new URL('/sitemap.xml', scope.origin).href, `${scope.prefix}sitemap.xml`];
  // Sitemaps are read on the crawled origin only: robots.txt must not send citedocs to other hosts.
  const sitemaps = await readSitemaps([...robots.sitemaps, ...defaults], { ...options, origin: scope.origin });
  const urls = new Set(sitemaps.urls);
  for (const llmsUrl of new Set([`${scope.prefix}llms.txt`, new URL('/llms.txt', scope.origin).href])) {
    const fetched = await fetchPage(llmsUrl, options);
    if (fetched.kind === 'document' && fetched.format !== 'html') for (const url of parseLlmsTxt(fetched.body, llmsUrl)) urls.add(url);
  }
  return { urls: [...urls].filter((url) => scope.contains(url) && robots.isAllowed(url)), problems: [...(robots.problems ?? []), ...sitemaps.problems] };
}
