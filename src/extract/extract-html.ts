import * as cheerio from 'cheerio';
import type { Cheerio } from 'cheerio';
import { selectAll } from 'css-select';
import type { Element } from 'domhandler';
import type { Heading } from '../core/types.js';
import { collectPageAnchors, findHeadingAnchor } from './heading-anchors.js';
import { selectMainContent } from './main-content.js';
import { createMarkdownConverter } from './markdown-converter.js';

export interface ExtractedHtml {
  title: string;
  markdown: string;
  headings: Heading[];
  anchors: string[];
  /** Absolute URLs of every link on the page (navigation included), without fragments. */
  links: string[];
  /** The page's `<link rel="canonical">`, absolute, when it has one. */
  canonical?: string;
}

/** Header-link glyphs generators append to headings (Sphinx ¶, Docusaurus #, GitHub 🔗). */
const GLYPH_ONLY = /^[\s\u200b¶#§🔗]*$/u;

let convert: ((html: string) => string) | undefined;

/** Extracts the main content of an HTML page as Markdown, with its headings and real anchors. */
export function extractHtml(html: string, pageUrl: string): ExtractedHtml {
  const $ = cheerio.load(html);
  const baseUrl = resolveBase($('base[href]').attr('href'), pageUrl);
  const anchors = collectPageAnchors($);
  const links = collectLinks($, baseUrl);
  const documentTitle = clean($('title').first().text());
  const canonical = resolveUrl($('link[rel~="canonical"][href]').first().attr('href') ?? '', baseUrl);

  const main = selectMainContent($);
  promoteApiEntries($, main);
  const headings: Heading[] = [];
  within($, main, 'h1, h2, h3, h4, h5, h6').each((_, element) => {
    const heading = $(element);
    const anchor = findHeadingAnchor($, heading);
    heading.find('a').each((_, link) => {
      const glyph = $(link);
      if ((glyph.attr('href') ?? '').startsWith('#') && GLYPH_ONLY.test(glyph.text())) glyph.remove();
    });
    const text = clean(heading.text());
    if (text === '') return;
    headings.push({ level: Number(element.tagName.slice(1)), text, ...(anchor === undefined ? {} : { anchor }) });
  });

  // Permalink glyphs outside headings too (rustdoc's §, Docusaurus' zero-width links): their ids are already recorded.
  within($, main, 'a[href^="#"]').each((_, element) => {
    const link = $(element);
    if (GLYPH_ONLY.test(link.text()) && link.find('img').length === 0) link.remove();
  });
  // Link tooltips repeat nearby text in every passage and cost tokens: links keep their text only.
  within($, main, 'a[title]').removeAttr('title');
  within($, main, 'a[href]').each((_, element) => {
    const link = $(element);
    const absolute = resolveUrl(link.attr('href') ?? '', baseUrl);
    if (absolute !== undefined) link.attr('href', absolute);
  });

  convert ??= createMarkdownConverter();
  const markdown = convert($.html(main));
  const firstH1 = headings.find((heading) => heading.level === 1)?.text;
  return { title: firstH1 ?? (documentTitle || pageUrl), markdown, headings, anchors, links, ...(canonical === undefined ? {} : { canonical }) };
}

/**
 * The elements under `root` matching a selector, in document order. css-select on the one
 * root element: cheerio's .find() deduplicates against every child, quadratic on flat pages.
 */
function within($: cheerio.CheerioAPI, root: Cheerio<Element>, selector: string): Cheerio<Element> {
  const node = root.get(0);
  return $(node === undefined ? [] : selectAll(selector, node));
}

function collectLinks($: cheerio.CheerioAPI, baseUrl: string): string[] {
  const links = new Set<string>();
  $('a[href]').each((_, element) => {
    const absolute = resolveUrl($(element).attr('href') ?? '', baseUrl);
    if (absolute === undefined) return;
    const url = new URL(absolute);
    url.hash = '';
    links.add(url.href);
  });
  return [...links];
}

function resolveBase(baseHref: string | undefined, pageUrl: string): string {
  return (baseHref === undefined ? undefined : resolveUrl(baseHref, pageUrl)) ?? pageUrl;
}

function resolveUrl(href: string, baseUrl: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === '' || /^(javascript|mailto|tel|data):/i.test(trimmed)) return undefined;
  try {
    return new URL(trimmed, baseUrl).href;
  } catch {
    return undefined;
  }
}

function clean(text: string): string {
  return text.replace(/[\s\u200b]+/g, ' ').replace(/[\s¶§🔗]+$/u, '').trim();
}

/**
 * API entries (`<dt id="json.dumps">` in Sphinx, glossary terms) become headings one level
 * below the section they sit in (deeper for nested classes' methods), so each entry is a
 * section of its own: chunked with its description, searchable by its signature, and
 * cited at its own anchor.
 */
function promoteApiEntries($: cheerio.CheerioAPI, main: ReturnType<typeof selectMainContent>): void {
  let sectionLevel = 1;
  const entries: { element: Element; level: number }[] = [];
  within($, main, 'h1, h2, h3, h4, h5, h6, dt[id]').each((_, element) => {
    if (element.tagName !== 'dt') {
      sectionLevel = Number(element.tagName.slice(1));
      return;
    }
    const entry = $(element);
    if (entry.text().trim() === '') return;
    // Each enclosing definition (a class around its methods) adds a level.
    const nesting = entry.parentsUntil(main, 'dd').length;
    entries.push({ element, level: Math.min(6, sectionLevel + 1 + nesting) });
  });
  for (const { element, level } of entries) {
    const entry = $(element);
    // The signature as plain text: `json.dumps(obj, *, skipkeys=False)`, not a heading full of emphasis.
    const signature = clean(entry.text());
    entry.replaceWith($(`<h${level}></h${level}>`).attr('id', entry.attr('id') ?? '').text(signature));
  }
}
