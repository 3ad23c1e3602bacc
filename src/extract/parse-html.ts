import * as cheerio from 'cheerio';

/** Nesting past which HTML parsers turn quadratic (parse5 takes minutes at 100,000 levels, htmlparser2 seconds). */
const DEEP_NESTING = 1_000;
/** Elements a parser closes by itself (`<p>`, `<li>` left open by old generators) or that hold nothing: they do not nest. */
const SELF_CLOSING = /^(?:p|li|dt|dd|tr|td|th|option|area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)$/i;
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g;

export interface ParsedHtml {
  $: cheerio.CheerioAPI;
  /** Tags dropped because they nested deeper than the limit (their text is kept). */
  tagsDropped: number;
}

/**
 * Parses a page with parse5, the HTML standard's parser, as browsers do. A page nested deeper
 * than DEEP_NESTING (a trap or a broken generator) first loses the tags below `maxDepth`, their
 * text kept, in one linear pass over the markup: no parser is linear on such input.
 */
export function parseHtml(html: string, maxDepth: number): ParsedHtml {
  if (nestingDepth(html) <= DEEP_NESTING) return { $: cheerio.load(html), tagsDropped: 0 };
  const flattened = flattenMarkup(html, maxDepth);
  return { $: cheerio.load(flattened.html), tagsDropped: flattened.dropped };
}

/** A linear estimate of the deepest element nesting: opening tags minus closing ones. */
function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(TAG)) {
    if (SELF_CLOSING.test(match[2] ?? '') || match[3] === '/') continue;
    depth += match[1] === '/' ? -1 : 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/** The markup without the tags (opening and their closing ones) that would nest deeper than `maxDepth`. */
function flattenMarkup(html: string, maxDepth: number): { html: string; dropped: number } {
  const kept: boolean[] = [];
  let depth = 0;
  let dropped = 0;
  let result = '';
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    const index = match.index;
    if (SELF_CLOSING.test(match[2] ?? '') || match[3] === '/') continue;
    let keep: boolean;
    if (match[1] === '/') {
      keep = kept.pop() ?? true;
      if (keep) depth = Math.max(0, depth - 1);
    } else {
      keep = depth < maxDepth;
      kept.push(keep);
      if (keep) depth += 1;
    }
    if (!keep) {
      result += `${html.slice(last, index)} `;
      last = index + match[0].length;
      dropped += 1;
    }
  }
  return { html: result + html.slice(last), dropped };
}
