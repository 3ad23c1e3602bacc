import { XMLParser } from 'fast-xml-parser';
import { type FetchPageOptions, fetchPage } from './fetch-page.js';

const parser = new XMLParser({ ignoreAttributes: true, isArray: (name) => name === 'url' || name === 'sitemap' });

export interface SitemapDiscovery {
  urls: string[];
  /** Sitemaps that could not be read: reported, never fatal. */
  problems: { url: string; message: string }[];
}

/**
 * Page URLs listed in sitemaps, following sitemap indexes (at most `maxSitemaps` files and
 * `maxUrls` URLs, so a hostile index cannot make the crawl unbounded).
 */
export async function readSitemaps(
  sitemapUrls: readonly string[],
  options: FetchPageOptions & { maxUrls: number; maxSitemaps?: number; /** Sitemaps of other origins are skipped. */ origin?: string },
): Promise<SitemapDiscovery> {
  const queue = [...new Set(sitemapUrls)];
  const visited = new Set<string>();
  const urls = new Set<string>();
  const problems: { url: string; message: string }[] = [];
  const maxSitemaps = options.maxSitemaps ?? 50;
  while (queue.length > 0 && visited.size < maxSitemaps && urls.size < options.maxUrls) {
    const sitemapUrl = queue.shift() as string;
    if (visited.has(sitemapUrl)) continue;
    visited.add(sitemapUrl);
    if (!URL.canParse(sitemapUrl)) {
      problems.push({ url: sitemapUrl, message: `Sitemap "${sitemapUrl.slice(0, 200)}" is not a URL; skipped` });
      continue;
    }
    if (options.origin !== undefined && new URL(sitemapUrl).origin !== options.origin) {
      problems.push({ url: sitemapUrl, message: `${sitemapUrl} is on another host than the crawl (${options.origin}); not read` });
      continue;
    }
    const fetched = await fetchPage(sitemapUrl, { ...options, acceptXml: true });
    if (fetched.kind !== 'document') {
      // A missing default sitemap.xml is normal, not a problem worth reporting.
      if (fetched.kind === 'failed' && fetched.status !== 404 && fetched.interrupted !== true) problems.push({ url: sitemapUrl, message: fetched.message });
      continue;
    }
    let document: { urlset?: { url?: { loc?: unknown }[] }; sitemapindex?: { sitemap?: { loc?: unknown }[] } };
    try {
      document = parser.parse(fetched.body) as typeof document;
    } catch (error) {
      problems.push({ url: sitemapUrl, message: `${sitemapUrl} is not valid XML (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    for (const entry of document.sitemapindex?.sitemap ?? []) {
      const location = absolute(entry.loc, sitemapUrl);
      if (location !== undefined) queue.push(location);
    }
    for (const entry of document.urlset?.url ?? []) {
      const location = absolute(entry.loc, sitemapUrl);
      if (location !== undefined && urls.size < options.maxUrls) urls.add(location);
    }
  }
  return { urls: [...urls], problems };
}

/** Links of an llms.txt file (Markdown links); `page.html.md` stands for `page.html`. */
export function parseLlmsTxt(text: string, baseUrl: string): string[] {
  const urls = new Set<string>();
  for (const match of text.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const location = absolute(match[1], baseUrl);
    if (location === undefined) continue;
    const url = new URL(location);
    url.pathname = url.pathname.replace(/(\.html?)\.md$/i, '$1');
    url.hash = '';
    urls.add(url.href);
  }
  return [...urls];
}

/**
 * Pages an llms-full.txt names: its Markdown links and its `Source:` / `URL:` lines (the
 * documents it concatenates are headed so by the generators that write one). Its text is
 * never a page: the pages themselves are read, with the anchors they really have.
 */
export function parseLlmsFullTxt(text: string, baseUrl: string): string[] {
  const urls = new Set(parseLlmsTxt(text, baseUrl));
  for (const match of text.matchAll(/^(?:source|url):\s*<?(\S+?)>?\s*$/gim)) {
    const location = absolute(match[1], baseUrl);
    if (location === undefined || !/^https?:/i.test(location)) continue;
    const url = new URL(location);
    url.hash = '';
    urls.add(url.href);
  }
  return [...urls];
}

function absolute(value: unknown, base: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return undefined;
  }
}
