/** Extensions that are never documentation pages: not worth a request. */
const BINARY_EXTENSIONS = /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|pdf|zip|gz|tgz|bz2|xz|7z|tar|rar|exe|dmg|msi|deb|rpm|jar|whl|mp3|mp4|webm|ogg|wav|mov|avi|woff2?|ttf|otf|eot|css|js|mjs|map|json|xml|rss|atom|epub|mobi|ps|tex|dvi)$/i;

/**
 * Which URLs a crawl may follow: same origin as the start page, under its folder
 * (`/docs/guide.html` → `/docs/`), and not an obvious binary.
 */
export interface CrawlScope {
  readonly origin: string;
  readonly pathPrefix: string;
  contains(url: string): boolean;
}

export function createScope(startUrl: string): CrawlScope {
  const start = new URL(startUrl);
  const pathPrefix = start.pathname.endsWith('/') ? start.pathname : start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
  return {
    origin: start.origin,
    pathPrefix,
    contains(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      return (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        parsed.origin === start.origin &&
        parsed.pathname.startsWith(pathPrefix) &&
        !BINARY_EXTENSIONS.test(parsed.pathname)
      );
    },
  };
}

/** The URL a page is fetched and stored under: no fragment. */
export function pageUrlOf(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

const INDEX_FILE = /\/index\.html?$/i;

/**
 * `guide/index.html` and `guide/` are one page: the folder URL is the one kept, whichever
 * link is found first, so repeated crawls store the same URL. Undefined when not an index file.
 */
export function folderUrlOf(url: string): string | undefined {
  const parsed = new URL(url);
  if (!INDEX_FILE.test(parsed.pathname) || parsed.search !== '') return undefined;
  parsed.pathname = parsed.pathname.replace(INDEX_FILE, '/');
  parsed.hash = '';
  return parsed.href;
}
