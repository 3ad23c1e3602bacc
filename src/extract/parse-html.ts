import * as cheerio from 'cheerio';
import { parseDocument } from 'htmlparser2';

/** Nesting past which parse5's tree construction turns quadratic (seconds at 10,000 levels, minutes at 100,000). */
const DEEP_NESTING = 1_000;
/** Elements a parser closes by itself (`<p>`, `<li>` left open by old generators): they do not nest. */
const SELF_CLOSING = /^(?:p|li|dt|dd|tr|td|th|option|area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)$/i;

/**
 * Parses a page: with parse5, the HTML standard's parser, as browsers do; a page nested
 * deeper than DEEP_NESTING (a trap or a broken generator) with htmlparser2, which is linear in
 * its size, since parse5 takes minutes on it.
 */
export function parseHtml(html: string): cheerio.CheerioAPI {
  return nestingDepth(html) > DEEP_NESTING ? cheerio.load(parseDocument(html)) : cheerio.load(html);
}

/** A linear estimate of the deepest element nesting: opening tags minus closing ones. */
function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g)) {
    const name = match[2] ?? '';
    if (SELF_CLOSING.test(name) || match[3] === '/') continue;
    depth += match[1] === '/' ? -1 : 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}
