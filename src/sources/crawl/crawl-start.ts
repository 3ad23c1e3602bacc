import { SourceError } from '../../core/errors.js';
import type { FetchedPage, FetchPageOptions } from './fetch-page.js';
import type { HostPolicy } from './host-policy.js';
import { loadRobots, type RobotsPolicy } from './robots.js';
import { type CrawlScope, createScope, type ScopeRules, urlTrapReason } from './url-scope.js';

export interface CrawlStartOptions {
  /** The start URL as the user gave it (named in errors), and its fragment-free form. */
  givenUrl: string;
  startUrl: string;
  policy: HostPolicy;
  rules: ScopeRules;
  respectRobots: boolean;
  userAgent: string;
  fetchOptions: FetchPageOptions;
  /** GETs a page (conditionally when it is stored), checking each hop with `allowHop`. */
  fetchPage: (url: string, allowHop: (url: string) => string | undefined) => Promise<FetchedPage>;
  /** The links of a fetched page (its extraction's), read when the start URL only gained a trailing slash. */
  linksOf: (page: Extract<FetchedPage, { kind: 'document' }>) => Promise<readonly string[]>;
  signal?: AbortSignal;
}

export interface CrawlStart {
  scope: CrawlScope;
  robots: RobotsPolicy;
  /** The start page, fetched (a document or a 304). */
  first: Exclude<FetchedPage, { kind: 'failed' }>;
  /** Every hop of robots.txt, sitemaps and llms.txt: on the hosts the policy allows, within the trap limits. */
  siteHop: (url: string) => string | undefined;
}

/**
 * The folder the start page is in. `/docs` redirected to `/docs/` is the folder `/docs/`; but a
 * site that serves its pages as folders (Docusaurus, Hugo and MkDocs builds on GitHub Pages, or any
 * static server) sends `/docs/intro` to `/docs/intro/` too (and http to https), and that folder
 * holds the one page: the crawl stopped after it. When the start URL only gained a trailing slash,
 * and the page links to nothing inside its own folder but to pages in the folder of the URL as
 * given, that folder is the scope; never the whole site (a landing page at `/docs/` that links
 * only elsewhere keeps `/docs/`), and always one that holds the start page (`--include`).
 */
async function scopeOfStartPage(page: Extract<FetchedPage, { kind: 'document' }>, startUrl: string, rules: ScopeRules, linksOf: CrawlStartOptions['linksOf']): Promise<CrawlScope> {
  const scope = createScope(page.url, rules);
  const given = new URL(startUrl);
  const final = new URL(page.url);
  const upgraded = final.protocol === given.protocol || (given.protocol === 'http:' && final.protocol === 'https:');
  if (final.host !== given.host || !upgraded || given.pathname.endsWith('/') || final.pathname !== `${given.pathname}/`) return scope;
  const wider = createScope(`${final.origin}${given.pathname}`, rules);
  if (wider.pathPrefix === '/' || !wider.contains(page.url)) return scope;
  // The page itself, however it links to itself (`./`, `index.html`, a query), is no sign.
  const itself = (link: string) => {
    const url = new URL(link);
    return url.host === final.host && url.pathname.replace(/index\.html?$/, '') === scope.pathPrefix;
  };
  const others = (await linksOf(page)).filter((link) => !itself(link));
  return others.some((link) => scope.contains(link)) || !others.some((link) => wider.contains(link)) ? scope : wider;
}

/**
 * Reads robots.txt and the start page, and fixes the scope where the start page really is.
 * The start URL may redirect within its own host (`/docs` → `/docs/`, http → https, apex →
 * www) or to a host the user allowed; anywhere else is refused before it is requested, and
 * the crawl fails saying where it was sent. Undefined when the signal aborted first.
 */
export async function startCrawl(options: CrawlStartOptions): Promise<CrawlStart | undefined> {
  const { givenUrl, startUrl, policy, rules } = options;
  const aborted = () => options.signal?.aborted === true;
  const trap = urlTrapReason(startUrl, rules);
  if (trap !== undefined) throw new SourceError(`Could not crawl ${givenUrl.length > 200 ? `${givenUrl.slice(0, 200)}…` : givenUrl}: ${trap}.`, givenUrl);
  const siteHop = (url: string) => policy.hostRefusal(url) ?? urlTrapReason(url, rules);
  const robotsOf = async (origin: string): Promise<RobotsPolicy> => {
    if (!options.respectRobots) return { isAllowed: () => true, sitemaps: [] };
    const robots = await loadRobots(origin, { ...options.fetchOptions, allowHop: siteHop });
    if (robots.blocked !== undefined && !aborted()) throw new SourceError(`Could not crawl ${givenUrl}: ${robots.blocked}.`, givenUrl);
    return robots;
  };

  let robots = await robotsOf(startUrl);
  if (aborted()) return undefined;
  if (!robots.isAllowed(startUrl)) {
    throw new SourceError(`Could not crawl ${givenUrl}: the site's robots.txt disallows it for the user agent "${options.userAgent}".`, givenUrl);
  }
  const first = await options.fetchPage(startUrl, siteHop);
  if (first.kind === 'failed') {
    if (first.interrupted === true) return undefined;
    const hint = first.refusedHop !== undefined || first.privateAddress === true ? '' : '. Check the URL and that the site is up (for a folder of files, pass its path instead)';
    throw new SourceError(`Could not crawl ${givenUrl}: ${first.message}${hint}.`, givenUrl);
  }
  // Scope comes from where the start page really is, after redirects (`/docs` → `/docs/`).
  const scope = first.kind === 'document' ? await scopeOfStartPage(first, startUrl, rules, options.linksOf) : createScope(startUrl, rules);
  // A start page that redirected to another origin (http → https, apex → www) is governed by that origin's robots.txt.
  if (scope.origin !== new URL(startUrl).origin) {
    robots = await robotsOf(scope.origin);
    if (aborted()) return undefined;
  }
  return { scope, robots, first, siteHop };
}
