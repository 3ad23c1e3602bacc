import { Readability } from '@mozilla/readability';
import type { Cheerio, CheerioAPI } from 'cheerio';
import { parseHTML } from 'linkedom';
import type { AnyNode, Element } from 'domhandler';

/** Chrome that is never documentation: navigation, banners, footers, sidebars, scripts. */
const CHROME_SELECTORS = [
  'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'form', 'button',
  'nav', 'aside', 'footer', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=search]',
  '[aria-label=breadcrumb]', '.breadcrumb', '.breadcrumbs', '.skip-link', '.skip-to-content',
  '.edit-this-page', '.prev-next', '.table-of-contents',
  '.navheader', '.navfooter', // DocBook (PostgreSQL)
  '.sphinxsidebar', '.related', '.footer', // Sphinx classic (Python)
  '.wy-nav-side', '.wy-breadcrumbs', '.rst-footer-buttons', // Sphinx, Read the Docs theme
  '.sidebar-drawer', '.toc-drawer', '.related-pages', // Sphinx, Furo
  '.bd-sidebar', '.bd-sidebar-primary', '.bd-sidebar-secondary', '.prev-next-area', // Sphinx, PyData theme
  '#column2', '#toc-picker', '#gtoc', // Node.js API docs (#column2 is the nav, #column1 the content)
  '.theme-doc-toc-desktop', '.theme-doc-toc-mobile', '.theme-doc-breadcrumbs', '.theme-doc-footer', '.theme-edit-this-page', '.pagination-nav', // Docusaurus
  '.md-header', '.md-sidebar', '.md-footer', '.md-content__button', '.md-source-file', '.md-feedback', '.md-skip', // MkDocs Material
  '.VPNav', '.VPSidebar', '.VPDocAside', '.VPDocFooter', '.VPLocalNav', // VitePress
  '.nextra-toc', '.nextra-sidebar-container', '.nextra-breadcrumb', // Nextra
  'rustdoc-search', '.out-of-band', '.rightside', 'summary.hideme', // rustdoc
  '.top-nav', '.sub-nav', '.bottom-nav', // Javadoc
];

/** Candidates for the main content: generator-specific containers first, then generic ones. */
const MAIN_SELECTORS = [
  '.theme-doc-markdown', // Docusaurus
  'article.md-content__inner', // MkDocs Material
  '.vp-doc', // VitePress
  '.nextra-content', // Nextra
  'section#main-content', // rustdoc
  'main', '[role=main]', 'article', '#apicontent', 'div.body', '.markdown-body', '.rst-content',
  '#main-content', '#content', '.content', '.document',
];

/** Removes chrome in place and returns the element that holds the documentation body. */
export function selectMainContent($: CheerioAPI): Cheerio<Element> {
  $(CHROME_SELECTORS.join(',')).remove();
  // A page header holds the title only when it wraps the h1; otherwise it is a site banner.
  $('header').each((_, element) => {
    if ($(element).find('h1').length === 0) $(element).remove();
  });
  const body = $('body').first() as Cheerio<Element>;
  const bodyTextLength = textLength($, body);
  for (const selector of MAIN_SELECTORS) {
    const candidate = $(selector).first();
    if (candidate.length === 0) continue;
    // A "main" that holds a sliver of the page is a widget, not the content.
    if (textLength($, candidate) >= Math.min(200, bodyTextLength * 0.3)) return candidate as Cheerio<Element>;
  }
  // DocBook (PostgreSQL) puts its content straight in <body>, between the navigation tables removed above.
  const generator = $('meta[name="generator"]').attr('content') ?? '';
  if (!/docbook/i.test(generator)) {
    const article = readableContent($.html());
    if (article !== undefined) {
      // Readability takes the <h1> out as the article's title: put it back, with its id.
      const h1 = $('body h1').first();
      const title = h1.length > 0 ? $.html(h1) : '';
      body.empty().append(title).append(article);
      return body;
    }
  }
  pruneLinkLists($, body);
  return body;
}

/**
 * Mozilla Readability (over linkedom) for pages of no known generator: the article it finds,
 * as HTML, when it finds one of some length. It keeps the elements' ids, so anchors survive.
 */
function readableContent(html: string): string | undefined {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document, { keepClasses: true, charThreshold: 200 }).parse();
    if (article?.content == null || (article.textContent ?? '').trim().length < 200) return undefined;
    return article.content;
  } catch {
    return undefined; // a page Readability cannot read falls back to the link-density pruning
  }
}

function textLength($: CheerioAPI, element: Cheerio<AnyNode>): number {
  return $(element).text().replace(/\s+/g, ' ').trim().length;
}

/**
 * Without a recognisable main element, drop blocks that are mostly links (menus, link
 * farms) unless they hold a heading, which makes them part of the content.
 */
function pruneLinkLists($: CheerioAPI, root: Cheerio<Element>): void {
  root.find('ul, ol, div, table').each((_, element) => {
    const block = $(element);
    if (block.find('h1, h2, h3, h4, h5, h6').length > 0) return;
    const links = block.find('a');
    if (links.length < 8) return;
    const total = textLength($, block);
    const linked = links.text().replace(/\s+/g, ' ').trim().length;
    if (total > 0 && linked / total > 0.7) block.remove();
  });
}
