import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import type { Cheerio, CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import type { Heading } from '../core/types.js';
import { safeDecode } from '../core/url-text.js';
import { cleanHeadingText, removeInnerChrome } from './chrome.js';
import { domToHast } from './dom-to-hast.js';
import { markSections, textWithBreaks } from './entries.js';
import { applyGeneratorTransforms } from './generator-transforms.js';
import { hoistHeadingsFromOrphanItems } from './orphan-items.js';
import { sectionPreformattedTargets } from './preformatted-sections.js';
import { detectGenerator } from './generators.js';
import { isSourceListing } from './source-listing.js';
import { collectPageAnchors, findSectionAnchor, markPermalinks } from './heading-anchors.js';
import { applyLimits, MAX_NESTING, MAX_WORD_CHARS } from './limits.js';
import { selectMainContent } from './main-content.js';
import { createMarkdownConverter, type MarkdownConverter } from './markdown-converter.js';
import { parseHtml } from './parse-html.js';
import { robotsMeta } from './robots-meta.js';
import { isSiteName, pageFirst, pageTitle, splitDocumentTitle } from './page-title.js';
import { projectName, siteName } from './site-name.js';
import { siteVersion, titleNamingVersion } from './site-version.js';

export interface ExtractedHtml {
  title: string;
  /** The version the page says its documentation is of (`siteVersion`), if it says one. */
  siteVersion?: string;
  /** The name the page gives its site (`siteName`), if it gives one. */
  siteName?: string;
  markdown: string;
  headings: Heading[];
  /** Every id and a[name] of the page as served: the only anchors a link to it may use. */
  anchors: string[];
  /** Absolute URLs of every link on the page a crawler may follow (navigation included, `rel="nofollow"` not), without fragments. */
  links: string[];
  /** The page's `<link rel="canonical">`, absolute, when it has one. */
  canonical?: string;
  /** The documentation generator recognised (`sphinx`, `doxygen`, …), if any. */
  generator?: string;
  /** `<meta name="robots">` asks not to index the page (`noindex`, `none`). */
  noindex?: true;
  /** The page is a generator's listing of the source code (`isSourceListing`): not to be stored. */
  sourceListing?: true;
  /** A page whose body is only scripts and an empty root element: its content is built by JavaScript. */
  emptyShell: boolean;
  /** What was cut to keep the page safe to process (deep nesting, giant words). */
  warnings: Diagnostic[];
}

let convert: MarkdownConverter | undefined;

/** Extracts the main content of an HTML page as Markdown, with its headings and real anchors. */
export function extractHtml(html: string, pageUrl: string): ExtractedHtml {
  const { $, tagsDropped } = parseHtml(html, MAX_NESTING);
  const limits = applyLimits($.root().get(0) as unknown as Document);
  const warnings: Diagnostic[] = [];
  if (tagsDropped > 0 || limits.flattened > 0) warnings.push(diagnostic('extract.nesting-flattened', `${pageUrl}: markup nested deeper than ${MAX_NESTING} levels was kept as plain text.`));
  if (limits.wordsCut > 0) warnings.push(diagnostic('extract.word-cut', `${pageUrl}: ${limits.wordsCut === 1 ? 'a word' : `${limits.wordsCut} words`} longer than ${MAX_WORD_CHARS} characters ${limits.wordsCut === 1 ? 'was' : 'were'} cut.`));

  const baseUrl = resolveBase($('base[href]').attr('href'), pageUrl);
  const anchors = collectPageAnchors($);
  const served = new Set(anchors);
  markPermalinks($, served);
  const robots = robotsMeta($);
  // A page that asks robots not to follow its links (`nofollow`, `none`) has none to follow.
  const links = robots.nofollow ? [] : collectLinks($, baseUrl);
  const hashRoutes = countHashRoutes($, served);
  const profile = detectGenerator($);
  let titleParts = splitDocumentTitle($, profile?.name);
  // Not stored (its doc comments are the pages indexed): its links are all that is read of it.
  if (isSourceListing($)) return { title: titleParts.page || pageUrl, markdown: '', headings: [], anchors, links, ...(profile === undefined ? {} : { generator: profile.name }), sourceListing: true, emptyShell: false, warnings };
  // Read before chrome goes: generators print it in their header (Doxygen's project number).
  const version = siteVersion($, titleParts);
  const project = projectName($);
  const canonical = resolveUrl($('link[rel~="canonical"][href]').first().attr('href') ?? '', baseUrl);
  const emptyShell = isEmptyShell($);

  const main = selectMainContent($, profile);
  const generatorTitle = firstText($, profile?.title ?? []);
  applyGeneratorTransforms($, main.element, profile?.name);
  removeInnerChrome($, main.element);
  const mainRoot = main.element.get(0);
  if (mainRoot !== undefined) {
    hoistHeadingsFromOrphanItems(mainRoot);
    sectionPreformattedTargets($, mainRoot);
  }
  // A theme's banner h1 that only names the site is not the page's heading. One that is a section
  // of the page (it has an anchor) names the page: the part of `<title>` it repeats is the page's
  // ("Writing Your Docs - MkDocs" read site-first because "Docs" is a site word).
  const firstH1 = within($, main.element, 'h1').first();
  const firstH1Element = firstH1.get(0);
  if (firstH1Element !== undefined && isSiteName(cleanHeadingText(firstH1.text()), titleParts)) {
    if (findSectionAnchor(firstH1Element, served, main.element.get(0)) === undefined) firstH1.remove();
    else titleParts = pageFirst(titleParts);
  }
  const headings = markSections($, main.element, served);

  // Link tooltips repeat nearby text in every passage and cost tokens: links keep their text only.
  within($, main.element, 'a[title]').removeAttr('title');
  within($, main.element, 'a[href]').each((_, element) => {
    const link = $(element);
    const absolute = resolveUrl(link.attr('href') ?? '', baseUrl);
    if (absolute !== undefined) link.attr('href', absolute);
  });

  convert ??= createMarkdownConverter();
  // The content's own tree when it converts as its HTML would: no second parse of the page.
  const mainElement = main.element.get(0);
  const markdown = convert((mainElement === undefined ? undefined : domToHast(mainElement)) ?? $.html(main.element));
  const site = siteName(project, titleParts);
  const title = pageTitle({ ...(generatorTitle === undefined ? {} : { generatorTitle }), ...firstHeading(headings), parts: titleParts, url: pageUrl });
  // What `<title>` and the generator say, else a release in the page's own title that names the whole ("JUnit 4.13.2 API").
  const documented = version ?? titleNamingVersion(title);
  return {
    title,
    ...(documented === undefined ? {} : { siteVersion: documented }),
    ...(site === undefined ? {} : { siteName: site }),
    markdown,
    headings,
    anchors,
    links,
    ...(canonical === undefined ? {} : { canonical }),
    ...(profile === undefined ? {} : { generator: profile.name }),
    ...(robots.noindex ? { noindex: true } : {}),
    ...(hashRoutes > 0 ? { hashRoutes } : {}),
    emptyShell,
    warnings,
  };
}

function firstHeading(headings: readonly Heading[]): { firstH1?: string; h1Count: number } {
  const h1s = headings.filter((heading) => heading.level === 1);
  const h1 = h1s[0]?.text;
  return h1 === undefined ? { h1Count: 0 } : { firstH1: h1, h1Count: h1s.length };
}

function firstText($: CheerioAPI, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    // A line break in a title parts words ("Uses of Class<br>org.widget.Pair").
    const element = $(selector).first().get(0);
    const text = element?.type === 'tag' ? cleanHeadingText(textWithBreaks($, element)) : '';
    if (text !== '') return text;
  }
  return undefined;
}

/** A body with scripts and next to no text: the page is built in the browser (`ingest --render`). */
function isEmptyShell($: CheerioAPI): boolean {
  const body = $('body').get(0);
  if (body === undefined || $('script').length === 0) return false;
  // A walk that stops at the 20th visible character: an ordinary page costs next to nothing.
  let seen = 0;
  const stack: AnyNode[] = [...body.children];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type === 'text') {
      seen += node.data.replace(/\s+/g, '').length;
      if (seen >= 20) return false;
    } else if (node.type === 'tag' && !/^(?:script|style|noscript|template)$/.test(node.name)) {
      for (const child of node.children) stack.push(child);
    }
  }
  return true;
}

/**
 * The elements under `root` matching a selector, in document order. css-select on the one
 * root element: cheerio's .find() deduplicates against every child, quadratic on flat pages.
 */
function within($: CheerioAPI, root: Cheerio<Element>, selector: string): Cheerio<Element> {
  const node = root.get(0);
  return $(node === undefined ? [] : selectAll(selector, node));
}

/**
 * The links a crawler may follow. A link marked `rel="nofollow"` is one the site asks robots
 * not to follow: Sphinx's "Show Source" (`_sources/*.rst.txt`, the page again as plain
 * reStructuredText, without its anchors), login and edit links.
 */
function collectLinks($: CheerioAPI, baseUrl: string): string[] {
  const links = new Set<string>();
  $('a[href]').each((_, element) => {
    if (/(?:^|\s)nofollow(?:\s|$)/i.test($(element).attr('rel') ?? '')) return;
    const absolute = resolveUrl($(element).attr('href') ?? '', baseUrl);
    if (absolute === undefined) return;
    const url = new URL(absolute);
    url.hash = '';
    links.add(url.href);
  });
  return [...links];
}

/**
 * The routes other than the home one (`#/`) that links name in a fragment (`#/api?id=x`, `#!/guide`):
 * a single-page app's pages. A fragment that is an id of the page is a place on it (Nim's `#/,Uri,string`).
 * A route starts with a letter or a digit after its slash.
 */
function countHashRoutes($: CheerioAPI, served: ReadonlySet<string>): number {
  const routes = new Set<string>();
  $('a[href^="#/"], a[href^="#!/"]').each((_, element) => {
    const fragment = ($(element).attr('href') ?? '').slice(1);
    if (served.has(fragment) || served.has(safeDecode(fragment))) return;
    const route = fragment.replace(/^!/, '').split('?')[0] ?? '';
    // A route names a page: `/api`, `/guide/intro`; not a lone or doubled slash (Vim's broken `#//`).
    if (/^\/[\p{L}\p{N}_]/u.test(route)) routes.add(route);
  });
  return routes.size;
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
