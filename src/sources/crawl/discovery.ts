import { type FetchPageOptions, fetchPage } from './fetch-page.js';
import type { RobotsPolicy } from './robots.js';
import { parseLlmsFullTxt, parseLlmsTxt, readSitemaps } from './sitemaps.js';
import type { CrawlScope } from './url-scope.js';

export interface Discovery {
  urls: string[];
  problems: { url: string; message: string }[];
}

/**
 * Pages a site lists besides its links: sitemaps named in robots.txt and at the default
 * locations (sitemap indexes followed), and llms.txt (or llms-full.txt when a site offers only
 * that). Only in-scope URLs are kept.
 */
export async function discoverListedPages(scope: CrawlScope, robots: RobotsPolicy, options: FetchPageOptions & { maxUrls: number }): Promise<Discovery> {
  const defaults = [new URL('/sitemap.xml', scope.origin).href, `${scope.prefix}sitemap.xml`];
  // Sitemaps are read on the crawled origin only: robots.txt must not send citedocs to other hosts.
  const sitemaps = await readSitemaps([...robots.sitemaps, ...defaults], { ...options, origin: scope.origin });
  const urls = new Set(sitemaps.urls);
  for (const folder of new Set([scope.prefix, new URL('/', scope.origin).href])) {
    const llmsUrl = `${folder}llms.txt`;
    const fetched = await fetchPage(llmsUrl, options);
    if (fetched.kind === 'document' && fetched.format !== 'html') {
      for (const url of parseLlmsTxt(fetched.body, llmsUrl)) urls.add(url);
      continue;
    }
    // A site that offers only the full file (every page's text in one) still names its pages in it.
    const fullUrl = `${folder}llms-full.txt`;
    const full = await fetchPage(fullUrl, options);
    if (full.kind === 'document' && full.format !== 'html') for (const url of parseLlmsFullTxt(full.body, fullUrl)) urls.add(url);
  }
  return { urls: [...urls].filter((url) => scope.contains(url) && robots.isAllowed(url)), problems: [...(robots.problems ?? []), ...sitemaps.problems] };
}
