import { load } from 'cheerio';

/** A result as the page lists it: the target URL (DuckDuckGo's redirect decoded), its title and snippet. */
export interface ParsedHit {
  url: string;
  title: string;
  snippet: string;
}

export type ParsedResultsPage =
  | { kind: 'results'; hits: ParsedHit[]; /** The hidden fields of the "Next" form, absent on the last page. */ next?: Record<string, string> }
  /** DuckDuckGo's "No more results." / "No results." page, or a page with nothing listed. */
  | { kind: 'empty' }
  /** The bot challenge ("anomaly") page DuckDuckGo serves to clients it rate limits. */
  | { kind: 'blocked'; reason: string };

/**
 * Reads a page of DuckDuckGo's HTML endpoint (html.duckduckgo.com/html/): the organic results
 * (ads and the "no results" block skipped), each link's real target, and the "Next" form.
 */
export function parseDuckDuckGoHtml(html: string, pageUrl: string): ParsedResultsPage {
  const $ = load(html);
  if ($('#challenge-form, .anomaly-modal__modal, form[action*="anomaly.js"]').length > 0) {
    const title = $('.anomaly-modal__title').first().text().replace(/\s+/g, ' ').trim();
    return { kind: 'blocked', reason: `DuckDuckGo answered with its bot challenge ("${title || 'anomaly'}")` };
  }
  const hits: ParsedHit[] = [];
  const seen = new Set<string>();
  $('.result').each((_, element) => {
    const result = $(element);
    if (result.is('.result--ad, .result--no-result')) return;
    const link = result.find('a.result__a').first();
    const url = resultTarget(link.attr('href'), pageUrl);
    if (url === undefined || seen.has(url)) return;
    seen.add(url);
    hits.push({ url, title: textOf(link.text()), snippet: textOf(result.find('.result__snippet').first().text()) });
  });
  if (hits.length === 0) return { kind: 'empty' };
  const next = nextForm($);
  return next === undefined ? { kind: 'results', hits } : { kind: 'results', hits, next };
}

/** The result's target: `//duckduckgo.com/l/?uddg=<encoded>` decodes to it; ads (`/y.js`) and non-web links are none. */
export function resultTarget(href: string | undefined, pageUrl: string): string | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  let link: URL;
  try {
    link = new URL(href.trim(), pageUrl);
  } catch {
    return undefined;
  }
  if (isDuckDuckGo(link.hostname)) {
    const target = link.searchParams.get('uddg');
    if (link.pathname !== '/l/' || target === null) return undefined;
    try {
      link = new URL(target);
    } catch {
      return undefined;
    }
    // An ad is a redirect to DuckDuckGo's own click tracker.
    if (isDuckDuckGo(link.hostname)) return undefined;
  }
  if (link.protocol !== 'http:' && link.protocol !== 'https:') return undefined;
  // A page is fetched once whatever section a result links to; its anchors come from the page.
  link.hash = '';
  return link.href;
}

function nextForm($: ReturnType<typeof load>): Record<string, string> | undefined {
  const forms = $('.nav-link form').filter((_, form) => $(form).find('input[type="submit"]').attr('value')?.trim().toLowerCase().startsWith('next') === true);
  if (forms.length === 0) return undefined;
  const fields: Record<string, string> = {};
  forms.first().find('input[type="hidden"], input:not([type])').each((_, input) => {
    const name = $(input).attr('name');
    if (name !== undefined && name !== '') fields[name] = $(input).attr('value') ?? '';
  });
  return Object.keys(fields).length === 0 ? undefined : fields;
}

function isDuckDuckGo(hostname: string): boolean {
  return hostname === 'duckduckgo.com' || hostname.endsWith('.duckduckgo.com');
}

function textOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
