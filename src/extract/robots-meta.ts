import type { CheerioAPI } from 'cheerio';

/** What a page's `<meta name="robots">` asks of robots: not to index it, not to follow its links. */
export interface RobotsMeta {
  noindex: boolean;
  nofollow: boolean;
}

/**
 * Reads the page's robots directives (`<meta name="robots" content="noindex, follow">`; `none`
 * is both). A page that asks not to be indexed is usually another copy of what the site says
 * elsewhere (mdBook's print.html holds every chapter again) or no documentation at all (a search
 * page): its citations would compete with the pages a reader should be sent to.
 */
export function robotsMeta($: CheerioAPI): RobotsMeta {
  const directives = new Set<string>();
  $('meta[name][content]').each((_, element) => {
    if (($(element).attr('name') ?? '').trim().toLowerCase() !== 'robots') return;
    for (const directive of ($(element).attr('content') ?? '').toLowerCase().split(/[\s,]+/)) if (directive !== '') directives.add(directive);
  });
  const none = directives.has('none');
  return { noindex: none || directives.has('noindex'), nofollow: none || directives.has('nofollow') };
}
