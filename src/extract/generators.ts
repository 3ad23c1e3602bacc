import type { CheerioAPI } from 'cheerio';
import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

/**
 * What we know of each documentation generator: how to recognise its pages, where its main
 * content sits, and the chrome it puts around (and inside) it. Selectors come first; the
 * generic fallback (and Readability, last) only serve pages of no known generator.
 */
export interface GeneratorProfile {
  name: string;
  /** Whether a page is this generator's: its `<meta name="generator">`, else its markup. */
  matches: (generator: string, $: CheerioAPI) => boolean;
  /** Main-content candidates, best first. `body` means the page body once chrome is gone. */
  main: readonly string[];
  /** Chrome to remove before choosing the main content. */
  chrome: readonly string[];
  /** Where the page's own title is, when it is not the content's first h1. */
  title?: readonly string[];
}

/** Whether the page has an element matching the selector (stops at the first one). */
const has = (selector: string) => ($: CheerioAPI) => selectOne(selector, $.root().get(0)?.children ?? []) !== null;

export const GENERATORS: readonly GeneratorProfile[] = [
  {
    name: 'mkdocs',
    matches: (generator, $) => /mkdocs/i.test(generator) || has('.md-content__inner, .md-container')($),
    main: ['article.md-content__inner', '.md-content', 'div[role=main]', '.rst-content', 'main'],
    chrome: ['.md-header', '.md-sidebar', '.md-footer', '.md-content__button', '.md-source-file', '.md-feedback', '.md-skip', '.md-tabs', 'div.navbar', '.bs-sidebar', '.wy-nav-side', 'div.modal'],
  },
  {
    name: 'sphinx',
    matches: (generator, $) => /^(?:sphinx|docutils)/i.test(generator) || has('div.sphinxsidebar, a.headerlink, .wy-nav-content, .bd-article, #furo-main-content, .sphinxsidebarwrapper')($),
    main: ['article.bd-article', 'article#furo-main-content', '#furo-main-content', 'div[itemprop=articleBody]', 'div.body[role=main]', 'div.body', '[role=main]', ':has(> div.section > h1)', ':has(> section > h1)', 'div.document', 'main'],
    chrome: [
      '.sphinxsidebar', '.related', 'div.footer', '.wy-nav-side', '.wy-breadcrumbs', '.rst-footer-buttons', '.rst-versions',
      '.sidebar-drawer', '.toc-drawer', '.related-pages', '.mobile-header', '.bd-header', '.bd-footer', '.bd-sidebar', '.bd-sidebar-primary',
      '.bd-sidebar-secondary', '.prev-next-area', '.header-article', '.bd-header-article', '.footer-article', '#searchbox', '.searchformwrapper',
      'div.header', 'div.topnav', 'div.bottomnav', '#rtd-footer-container', '.headerlink',
    ],
  },
  {
    name: 'docusaurus',
    matches: (generator, $) => /docusaurus/i.test(generator) || has('.theme-doc-markdown, #__docusaurus')($),
    main: ['.theme-doc-markdown', 'article', 'main'],
    chrome: ['.theme-doc-toc-desktop', '.theme-doc-toc-mobile', '.theme-doc-breadcrumbs', '.theme-doc-footer', '.theme-edit-this-page', '.pagination-nav', '.theme-doc-sidebar-container', '.navbar', '.theme-doc-version-badge'],
  },
  {
    name: 'vitepress',
    matches: (generator, $) => /vitepress/i.test(generator) || has('.vp-doc, .VPDoc')($),
    main: ['.vp-doc', 'main'],
    // A code block's language is also written above it (`<span class="lang">js</span>`, shown on hover): a line "js" before every example.
    chrome: ['.VPNav', '.VPSidebar', '.VPDocAside', '.VPDocFooter', '.VPLocalNav', '.VPFooter', 'div[class*="language-"] > span.lang'],
  },
  {
    // Astro Starlight: its <meta name="generator"> comes after Astro's; a page's content is
    // .sl-markdown-content in <main>, under the page's h1#_top. Each heading is followed by its
    // permalink, whose text for screen readers repeats it ("Section titled “Class: MockAgent”").
    name: 'starlight',
    matches: (generator, $) => /starlight/i.test(generator) || has('.sl-markdown-content')($),
    main: ['main'],
    chrome: ['a.sl-anchor-link', 'starlight-toc', 'mobile-starlight-toc', '.pagination-links', 'starlight-theme-select', 'starlight-menu-button'],
  },
  {
    name: 'nextra',
    matches: (_generator, $) => has('.nextra-content, .nextra-nav-container')($),
    main: ['.nextra-content', 'article', 'main'],
    chrome: ['.nextra-toc', '.nextra-sidebar-container', '.nextra-breadcrumb', '.nextra-nav-container'],
  },
  {
    name: 'mdbook',
    matches: (_generator, $) => has('#menu-bar .menu-title, #mdbook-help-container, .sidebar-scrollbox')($),
    main: ['#content main', 'main'],
    chrome: ['#sidebar', '#menu-bar', '#search-wrapper', '.nav-wrapper', '.nav-wide-wrapper', '#theme-list', '.sidebar-scrollbox'],
  },
  {
    name: 'rdoc',
    matches: (generator, $) => /rdoc/i.test(generator) || has('#documentation .method-detail, #metadata #navigation')($),
    main: ['main#documentation', '#documentation', 'main'],
    chrome: ['#metadata', 'nav', '#search-section', '.method-click-advice', '.method-source-code', '#validator-badges'],
  },
  {
    // YARD (Ruby's API docs): no generator tag; its footer says "Generated by yard". A class's page
    // is #content: the class's box, its overview, summaries of its constants, attributes and
    // methods, then each one's details. A method summary repeats each method's signature and
    // first sentence above its details, and the "Methods included from Helpers" lists are links to
    // other pages; neither is text. Nor is each method's "View source" listing (hidden until asked
    // for), the class box's hidden full ancestry, or the "collapse" toggles.
    name: 'yard',
    matches: (generator, $) => /yard/i.test(generator) || has('#main #content .summary_toggle, #search_frame, #footer a[href*="yardoc.org"]')($),
    main: ['#content', '#main'],
    chrome: [
      '#header', '#menu', '#search', '#footer', '.summary_toggle', '.constants_summary_toggle', '#toc', '.showSource',
      'table.source_code', 'ul.fullTree', 'a.inheritanceTree', 'h2:has(a.summary_toggle)', 'ul.summary', '.inherited',
    ],
  },
  {
    name: 'epydoc',
    matches: (generator) => /epydoc/i.test(generator),
    main: ['body'],
    chrome: ['table.navbar', 'table.summary-table ~ br', 'span.options', 'a[target="_top"]'],
  },
  {
    name: 'asciidoctor',
    matches: (generator) => /asciidoctor/i.test(generator),
    main: ['#content'],
    chrome: ['#toc', '#footer', '#header .details', 'a.anchor'],
    title: ['#header > h1', 'h1'],
  },
  {
    name: 'asciidoc',
    matches: (generator) => /^asciidoc/i.test(generator),
    main: ['#content'],
    chrome: ['#toc', '#footer', '#toctitle'],
    title: ['#header > h1', 'h1'],
  },
  {
    name: 'doxygen',
    matches: (generator, $) => /doxygen/i.test(generator) || has('#MSearchBox, div.headertitle')($),
    main: ['div.contents', 'body'],
    chrome: ['#top', '#main-nav', '#MSearchBox', '#MSearchSelectWindow', '#MSearchResultsWindow', '#nav-path', '.navpath', 'hr.footer', 'address.footer', 'div.dynheader', 'div.dyncontent', 'map', 'tr[class^="separator:"]', 'div.summary', 'div.ingroups'],
    title: ['div.headertitle .title', 'div.title'],
  },
  {
    name: 'rustdoc',
    matches: (generator, $) => /rustdoc/i.test(generator) || has('rustdoc-search, #rustdoc-vars')($),
    main: ['section#main-content', '#main-content', 'main'],
    // Also the playground's "Run" button (a link of the whole example, percent-encoded), the
    // "Notable traits" tooltip inside signatures, and blanket implementations (`impl<T> Any for
    // T`: the same on every type's page, as auto traits are).
    chrome: [
      'rustdoc-search', '.out-of-band', '.rightside', 'summary.hideme', 'nav.sidebar', '.sidebar', '#copy-path', '.search-form', 'rustdoc-toolbar',
      'a.test-arrow', '.notable-traits', '.notable-traits-tooltip', '#blanket-implementations', '#blanket-implementations-list', '#synthetic-implementations', '#synthetic-implementations-list',
    ],
  },
  {
    name: 'javadoc',
    matches: (generator, $) => /javadoc/i.test(generator) || has('.topNav, .top-nav, .contentContainer, .flex-content')($),
    main: ['main[role=main]', 'main', 'body'],
    // Also a source page's line numbers (`<span class="source-line-no">041</span>public …`).
    chrome: ['.top-nav', '.sub-nav', '.bottom-nav', '.topNav', '.subNav', '.bottomNav', '.legalCopy', '.skipNav', '.nav-padding', '#navbar-top', '.flex-header', 'footer', '.source-line-no', '.sourceLineNo'],
    title: ['.header > .title', 'h1.title', 'h2.title'],
  },
  {
    // DocBook made by gtk-doc (GLib, GTK): its own navigation table and "Generated by" footer.
    // Its first generator tag names the DocBook stylesheets, so it is told by its second.
    name: 'gtk-doc',
    matches: (_generator, $) => has('meta[name="generator" i][content^="GTK-Doc" i]')($),
    main: ['body'],
    chrome: ['.navheader', '.navfooter', 'table.navigation', 'body > div.footer'],
  },
  {
    name: 'docbook',
    matches: (generator) => /docbook/i.test(generator),
    main: ['body'],
    chrome: ['.navheader', '.navfooter'],
  },
  {
    // Haddock (Hackage): no generator tag; every page has #package-header and #content, and a
    // module's its #interface, the contents' its #module-list, an index's its #index.
    name: 'haddock',
    matches: (generator, $) => generator === '' && has('#package-header')($) && has('#content')($) && has('#interface, #module-list, #index')($),
    main: ['#content', 'body'],
    // The synopsis repeats every signature (hidden until opened), the table of contents every
    // heading; each declaration's "Source" link and "#" self-link are not text.
    chrome: ['#package-header', '#synopsis', '#table-of-contents', '#footer', 'a.selflink', '.src a.link', '#module-header table.info'],
    title: ['#module-header p.caption'],
  },
  {
    // Nim's `nim doc`: no generator tag; every page loads dochack.js. The page's title is an
    // h1.title above #content; each entry's "Source" and "Edit" links (to the repository, about
    // 60 tokens in each of 9,304 entries) are not text, nor is the "..." that folds a pragma.
    name: 'nim',
    matches: (_generator, $) => has('script[src$="dochack.js"]')($),
    main: ['#content', 'body'],
    chrome: ['a.link-seesrc', 'span.pragmadots', '#global-links', '#searchInput'],
    title: ['h1.title'],
  },
  {
    // Racket's Scribble: no generator tag; every page loads scribble-common.js and puts its
    // text in div.maincolumn > div.main, between two bars of previous / up / next links.
    name: 'scribble',
    matches: (_generator, $) => has('script[src$="scribble-common.js"]')($) && has('div.maincolumn > div.main')($),
    main: ['div.maincolumn > div.main', 'body'],
    chrome: ['div.navsettop', 'div.navsetbottom', 'div.tocset', 'div.versionbox'],
  },
  {
    // Scaladoc 2 (Scala 2's API docs): no generator tag; a type's page is a #definition (the
    // type's name and comment) and a #template (its members). The member filter (#mbrsel: "Ordering
    // Alphabetic By Inheritance … Hide All Show All"), the companion toggle, the package path and
    // "Related Docs" are controls; the supertypes are a hidden list of every trait (its known
    // subclasses stay: Option's are None and Some); each permalink points into the frameset; the
    // empty "Inherited from …" groups are scaffolding the "By Inheritance" ordering fills.
    name: 'scaladoc',
    // (2.10 and 2.11 put #definition in <body>, 2.12 and 2.13 in #content.)
    matches: (_generator, $) => has('#definition')($) && has('#template')($) && has('script[src$="template.js"]')($),
    main: ['body'],
    chrome: ['#mbrsel', '#definition > a', '#owner', '#definition > h3:has(.morelinks)', 'span.permalink', '.toggleContainer:has(> .superTypes)', '#inheritedMembers', '#groupedMembers'],
  },
  {
    // TypeDoc (TypeScript's API docs): no generator tag; every page puts its content in
    // .col-content under a .tsd-page-title, beside a sidebar (.col-sidebar: the settings and the
    // page's outline, 0.23 on; .col-menu before). Each member's "Defined in file.d.ts:21" (an aside,
    // as any page's are, with its "Inherited from") and the index of the page's members (a link to
    // each, all on the page below) are not text. Before 0.23 the page's h1 sits in a header above the content.
    name: 'typedoc',
    matches: (_generator, $) => has('.tsd-page-title')($) && has('.col-content')($),
    main: ['.col-content', 'body'],
    chrome: ['.tsd-breadcrumb', '.tsd-page-toolbar', '.col-sidebar', '.col-menu', '.tsd-sources', '.tsd-index-panel', '.tsd-index-group', '.tsd-anchor-icon'],
    title: ['.tsd-page-title h1'],
  },
  {
    // JSDoc's default template: no generator tag; the content is #main (its h1.page-title, then
    // a section per class or module), the menu a <nav> after it, and its footer says "Documentation
    // generated by JSDoc". Each entry's "Source: lodash.js, line 8769" points into the source listing.
    name: 'jsdoc',
    matches: (_generator, $) => has('#main > h1.page-title')($) && has('script[src$="linenumber.js"]')($),
    main: ['#main', 'body'],
    chrome: ['.tag-source', 'br.clear'],
  },
  {
    // Qt's qdoc: no generator tag; its header (#qtdocheader) holds the breadcrumb and version.
    name: 'qdoc',
    matches: (_generator, $) => has('#qtdocheader')($),
    main: ['div.mainContent', 'body'],
    // Its header is never closed (the whole page sits inside it): only its breadcrumb goes.
    chrome: ['.navigationbar', 'div.sidebar', 'div.footer', 'p.naviNextPrevious'],
  },
  {
    name: 'latex2html',
    matches: (generator) => /latex2html/i.test(generator),
    main: ['body'],
    chrome: ['div.navigation', 'img[src$="crossref.png"]', 'address'],
  },
  {
    name: 'texinfo',
    matches: (generator) => /makeinfo|texi2any|texi2html/i.test(generator),
    main: ['body'],
    chrome: ['div.nav-panel', 'div.header', 'table.menu'],
    title: ['h1', 'h2.chapter', 'h2.unnumbered', 'h2.appendix', 'h2', 'h3'],
  },
  {
    name: 'godoc',
    matches: (_generator, $) => has('.go-Main, .Documentation, #pkg-overview, .UnitDoc')($),
    main: ['.UnitDoc', '.Documentation', '#page .container', 'main', '#page'],
    chrome: ['.go-Header', '.go-Footer', '.go-Main-nav', '.UnitDetails-outline', '.go-Main-headerDetails', '.UnitMeta', '.Documentation-sinceVersion', '#topbar', '#footer', '.go-Breadcrumb'],
    title: ['h1.UnitHeader-titleHeading', 'h1'],
  },
  {
    name: 'gitbook',
    matches: (generator, $) => /gitbook/i.test(generator) || has('.book-summary, .markdown-section')($),
    main: ['.markdown-section', '.page-inner', 'main'],
    chrome: ['.book-summary', '.book-header', '.navigation', '.page-footer'],
  },
  {
    name: 'hugo',
    matches: (generator) => /hugo/i.test(generator),
    main: ['.td-content', 'article.markdown', '.book-page article', 'article', 'main', '#content', '.content'],
    // Docsy marks what is not documentation as unprintable (`d-print-none`): sidebars, page meta, the feedback widget.
    chrome: ['.td-sidebar', '.td-sidebar-toc', '.td-page-meta', '.td-page-meta__lastmod', '.td-navbar', '.book-menu', '.book-toc', '.book-footer', '.td-footer', '.td-content .d-print-none', '.feedback--title', '.feedback--question'],
  },
  {
    name: 'jekyll',
    matches: (generator) => /jekyll/i.test(generator),
    main: ['#main-content', 'main', 'article', '.page-content', '.page__content', '.post-content', '#content'],
    chrome: ['.side-bar', '.search', '.site-header', '.site-footer', '.page__meta', '.page__share', '.sidebar', '.breadcrumb-nav', '.site-nav'],
  },
];

/** Chrome of any page, whatever its generator. */
export const GENERIC_CHROME = [
  'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'form', 'button', 'dialog',
  'nav', 'aside', 'footer', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=search]', '[role=complementary]',
  '[aria-label=breadcrumb]', '.breadcrumb', '.breadcrumbs', '.skip-link', '.skip-to-content', '.edit-this-page', '.prev-next', '.table-of-contents',
  '#column2', '#toc-picker', '#gtoc', // Node.js API docs (#column2 is the nav, #column1 the content)
  'span.annottext', // the hidden type tooltips of Haddock's hyperlinked source (no profile: those pages are bare <pre>s)
  'div.footer', // a page's copyright and build line where the generator writes no <footer> (Erlang's docs, Sphinx's classic theme)
];

/** Main-content candidates for a page of no known generator, best first. */
export const GENERIC_MAIN = ['main', '[role=main]', 'article', '#apicontent', 'div.body', '.markdown-body', '.rst-content', '#main-content', '#content', '.content', '.document'];

/** The profile of the generator that made this page, if we know it. */
export function detectGenerator($: CheerioAPI): GeneratorProfile | undefined {
  const meta = selectOne<AnyNode, Element>('meta[name="generator" i]', $.root().get(0)?.children ?? []);
  const generator = meta?.attribs['content'] ?? '';
  return GENERATORS.find((profile) => profile.matches(generator, $));
}
