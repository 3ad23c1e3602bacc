import type { Cheerio, CheerioAPI } from 'cheerio';
import { selectAll, selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { textContent } from 'domutils';
import { outermost } from './outermost.js';
import { detectGenerator, GENERIC_CHROME, GENERIC_MAIN, type GeneratorProfile } from './generators.js';

export interface MainContent {
  element: Cheerio<Element>;
  /** The generator recognised, if any. */
  generator?: GeneratorProfile;
  /** How the content was found: a selector, the body without chrome, or (a page of no known generator) the element around its headings. */
  via: 'selector' | 'body' | 'headings';
}

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

/**
 * Removes chrome in place and returns the element that holds the documentation body:
 * selectors first (the generator's, then generic ones), then, for a page of no known
 * generator, the smallest element that holds every heading. No step may drop a heading: a
 * heading is a section a reader must be able to find and cite (this is why Mozilla
 * Readability, which drops headings it scores as noise, hidden ones and the page's h1, is not used).
 */
export function selectMainContent($: CheerioAPI, generator: GeneratorProfile | undefined = detectGenerator($)): MainContent {
  $([...GENERIC_CHROME, ...(generator?.chrome ?? [])].join(',')).remove();
  // A page header holds the title only when it wraps the h1; otherwise it is a site banner. A
  // section's own header holds its heading (RDoc's `<section><header><h3>Public Class Methods`).
  $('header').each((_, element) => {
    if ($(element).find('h1').length > 0) return;
    if ($(element).parent('section, article').length > 0 && $(element).find('h2, h3, h4, h5, h6').length > 0) return;
    $(element).remove();
  });
  const body = $('body').first() as Cheerio<Element>;
  const bodyTextLength = textLength($, body);
  const minimum = Math.min(200, bodyTextLength * 0.3);
  const withGenerator = generator === undefined ? {} : { generator };
  for (const selector of [...(generator?.main ?? []), ...GENERIC_MAIN]) {
    if (selector === 'body') return { element: body, via: 'body', ...withGenerator };
    const found = selectOne(selector, body.get(0)?.children ?? []);
    if (found === null) continue;
    const candidate = $(commonAncestorOfMatches(selector, found as Element, body.get(0))) as Cheerio<Element>;
    // A "main" that holds a sliver of the page is a widget, not the content.
    if (textLength($, candidate) >= minimum) return { element: candidate, via: 'selector', ...withGenerator };
  }
  if (generator !== undefined) return { element: body, via: 'body', generator };
  pruneLinkLists($, body);
  const root = headingsRoot($, body);
  if (root === undefined || textLength($, root) < bodyTextLength * 0.5) return { element: body, via: 'body' };
  return { element: root, via: 'headings' };
}

/** The share of the matches' text one match must hold to be the content itself (a post among its small "related" cards). */
const MAIN_SHARE = 0.75;

/**
 * The first match of a selector, or, when the page has several matches none of which holds
 * another and none of which holds three quarters of their text (Erlang's docs: one `<article>` per
 * function, 76 on lists.html, under no `<main>`), the lowest element that holds them all: the
 * first alone is one entry of the content. One match that holds that much is the content
 * and the others are around it (a post's "related" cards); the whole body is never taken so.
 */
function commonAncestorOfMatches(selector: string, first: Element, body: Element | undefined): Element {
  if (body === undefined) return first;
  const matches = outermost(selectAll<AnyNode, Element>(selector, body.children));
  if (matches.length < 2) return first;
  const lengths = matches.map((match) => textContent(match).replace(/\s+/g, ' ').trim().length);
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (lengths.some((length) => length >= total * MAIN_SHARE)) return first;
  let common = ancestry(first);
  for (const match of matches) {
    const chain = new Set(ancestry(match));
    common = common.filter((element) => chain.has(element));
  }
  const holder = common[0];
  return holder === undefined || holder === body ? first : holder;
}

/** The lowest element that contains every heading with text, if the page has headings. */
function headingsRoot($: CheerioAPI, body: Cheerio<Element>): Cheerio<Element> | undefined {
  const node = body.get(0);
  if (node === undefined) return undefined;
  const headings = selectAll(HEADINGS, node).filter((heading) => $(heading).text().trim() !== '');
  const first = headings[0];
  if (first === undefined) return undefined;
  let common = ancestry(first.parent);
  for (const heading of headings.slice(1)) {
    const chain = new Set(ancestry(heading.parent));
    common = common.filter((element) => chain.has(element));
  }
  const deepest = common[0];
  return deepest === undefined ? undefined : ($(deepest) as Cheerio<Element>);
}

/** The element and its ancestors, nearest first, up to the body. */
function ancestry(start: AnyNode | null): Element[] {
  const chain: Element[] = [];
  for (let current = start; current !== null && current.type === 'tag'; current = current.parent) {
    chain.push(current);
    if (current.name === 'body') break;
  }
  return chain;
}

function textLength($: CheerioAPI, element: Cheerio<AnyNode>): number {
  return $(element).text().replace(/\s+/g, ' ').trim().length;
}

function letters(text: string): number {
  return text.replace(/[^\p{L}\p{N}]+/gu, '').length;
}

/**
 * Without a recognisable main element, drop blocks that are mostly links (menus, link
 * farms) unless they hold a heading, which makes them part of the content.
 */
function pruneLinkLists($: CheerioAPI, root: Cheerio<Element>): void {
  root.find('ul, ol, div, table').each((_, element) => {
    const block = $(element);
    if (block.find(HEADINGS).length > 0) return;
    const links = block.find('a');
    if (links.length < 8) return;
    // Letters only: the separators between menu links ("Home | Docs | Blog") are not content.
    const total = letters(block.text());
    const linked = letters(links.text());
    if (total > 0 && linked / total > 0.7) block.remove();
  });
}
