import type { CheerioAPI } from 'cheerio';
import { robotsDirectives, type RobotsDirectives } from '../core/robots-directives.js';

/**
 * Reads the page's robots directives (`<meta name="robots" content="noindex, follow">`). A page
 * that asks not to be indexed is usually another copy of what the site says elsewhere (mdBook's
 * print.html holds every chapter again) or no documentation at all (a search page): its
 * citations would compete with the pages a reader should be sent to.
 */
export function robotsMeta($: CheerioAPI): RobotsDirectives {
  const directives: string[] = [];
  $('meta[name][content]').each((_, element) => {
    if (($(element).attr('name') ?? '').trim().toLowerCase() !== 'robots') return;
    directives.push(...($(element).attr('content') ?? '').toLowerCase().split(/[\s,]+/));
  });
  return robotsDirectives(directives);
}
