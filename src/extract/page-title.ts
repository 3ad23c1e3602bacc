import type { CheerioAPI } from 'cheerio';
import { selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { cleanHeadingText } from './chrome.js';

/** Separators between a page's name and its site's in `<title>`: "Fixtures — pytest documentation". */
const TITLE_SEPARATORS = [' — ', ' – ', ' | ', ' · ', ' :: ', ' » ', ' - '];

export interface TitleParts {
  /** The page's own part of `<title>`, without the site. */
  page: string;
  /** The site's part, when `<title>` has one (or `og:site_name` says it). */
  site?: string;
  /** The site's part is the one `og:site_name` names (not only a guess at which part is the site). */
  named?: true;
}

/** Words that name a site or a book rather than a page: "pytest documentation", "Postfix manual", "hiro 1.1.1". */
const SITE_WORDS = /\b(?:documentation|docs|manual|handbook|guide|user guide|reference manual|wiki|sdk|help center)\b|\bv?\d+\.\d+(?:\.\d+)*\b/i;

/**
 * Generators whose every `<title>` is the page's name, " | " and the site's, in that order:
 * Docusaurus, VitePress and Starlight ("Routes | Fastify"), TypeDoc ("addDays | date-fns - v3.6.0"). Their
 * site part is the site, whatever its words.
 */
const SITE_LAST_GENERATORS = new Set(['docusaurus', 'vitepress', 'typedoc', 'starlight']);

/** A node's name, then its manual's title in parentheses (which may hold parentheses of its own). */
const TEXINFO_TITLE = /^(\S.*?)\s+\((.*\p{L}.*)\)$/u;

/** A version, a colon, and the page's name: "4.0: Migrating from GTK 3.x to GTK 4". */
const VERSION_THEN_PAGE = /^(v?\d+(?:\.\d+)*):\s+(\S.*)$/;

/** A name in title case that ends the way a book's does: "GLib Reference Manual", "GTK+ 3 Reference Manual", "Foo Documentation"; not "how to use this guide". */
const BOOK_NAME = /^(?:[\p{Lu}\p{N}][\p{L}\p{N}+#.'-]*\s+)+(?:Manual|Documentation|Docs|Handbook|Guide|Reference)$/u;

/**
 * `<title>` split into the page's name and the site's: the site part is the one `og:site_name`
 * names, else the one that reads like a site ("— pytest documentation", "Postfix manual -"),
 * else the last ("Configuration - MkDocs"). `generator` is the profile `detectGenerator` found:
 * a Texinfo node's title names its manual in parentheses.
 */
export function splitDocumentTitle($: CheerioAPI, generator?: string): TitleParts {
  const document = $.root().get(0)?.children ?? [];
  const title = selectOne<AnyNode, Element>('title', document);
  // JSDoc's default template titles every page "JSDoc: Class: Foo", YARD's "Class: Foo — Documentation
  // by YARD 0.9.28" unless the project gives its own title: the generator, not the site.
  const written = cleanHeadingText(title === null ? '' : $(title).text());
  const full = generator === 'jsdoc' ? written.replace(/^JSDoc:\s*/, '') : generator === 'yard' ? written.replace(/\s+[—–-]\s+Documentation by YARD\s+v?[\d.]+$/, '') : written;
  const siteName = cleanHeadingText(selectOne<AnyNode, Element>('meta[property="og:site_name"]', document)?.attribs['content'] ?? '');
  // makeinfo titles a node "Basic Vectorization (GNU Octave (version 7.3.0))": the manual in parentheses.
  const manual = generator === 'texinfo' ? TEXINFO_TITLE.exec(full) : null;
  if (manual?.[1] !== undefined && manual[2] !== undefined) return { page: manual[1].trim(), site: manual[2].trim(), named: true };
  // Their site is what follows the last " | " (the page's own name may hold one, or a dash). A
  // VitePress home page whose `titleTemplate` puts a tagline there is titled site first.
  const last = full.lastIndexOf(' | ');
  if (last > 0 && siteName === '' && generator !== undefined && SITE_LAST_GENERATORS.has(generator) && !(generator === 'vitepress' && selectOne('.VPHome', document) !== null)) {
    return { page: full.slice(0, last).trim(), site: full.slice(last + 3).trim(), named: true };
  }
  for (const separator of TITLE_SEPARATORS) {
    const index = full.lastIndexOf(separator);
    if (index <= 0) continue;
    const before = full.slice(0, index).trim();
    const after = full.slice(index + separator.length).trim();
    // gi-docgen's "Gtk – 4.0: Running and debugging GTK Applications": the site and its version,
    // then the page after a colon.
    const versioned = siteName === '' ? VERSION_THEN_PAGE.exec(after) : null;
    if (versioned?.[1] !== undefined && versioned[2] !== undefined) return { page: versioned[2].trim(), site: `${before} ${versioned[1]}` };
    // Its start page, "Gtk – 4.0": the site is the name with its version.
    if (siteName === '' && /^v?\d+(?:\.\d+)+$/.test(after)) return { page: before, site: `${before} ${after}` };
    const beforeIsSite = siteName !== '' ? same(before, siteName) : SITE_WORDS.test(before) && !SITE_WORDS.test(after);
    const named = siteName !== '' && same(beforeIsSite ? before : after, siteName) ? { named: true as const } : {};
    return beforeIsSite ? { page: after, site: before, ...named } : { page: before, site: after, ...named };
  }
  // A colon separates a page from its site only where what follows it plainly names a book:
  // gtk-doc's "Hash Tables: GLib Reference Manual". "libssh: The SSH library", "Tutorial: First
  // steps" or "Changes in 3.2: overview" are one name.
  const colon = full.lastIndexOf(': ');
  if (colon > 0) {
    const before = full.slice(0, colon).trim();
    const after = full.slice(colon + 2).trim();
    if (siteName !== '' ? same(after, siteName) : BOOK_NAME.test(after) && !SITE_WORDS.test(before)) return { page: before, site: after, ...(siteName === '' ? {} : { named: true as const }) };
  }
  return siteName !== '' && !same(full, siteName) ? { page: full, site: siteName, named: true } : { page: full };
}

/** h1s that name a part of every page, not the page: man-page sections (`NAME`), Haddock's "Documentation". */
const GENERIC_HEADING = /^(?:name|synopsis|description|documentation|contents|table of contents|index|home|welcome|untitled|api documentation)$/i;

/**
 * The title a person would give the page: the generator's own title element when it has one
 * (Doxygen's `.headertitle`, Asciidoctor's `#header h1`), else the content's first h1 unless it
 * only names the site (a theme's banner) or a part of every page (`NAME`), or `<title>` names
 * the same thing more fully (`petsc4py.PETSc.KSP.Type` for "Class Type"), or the page has
 * several h1s (they are its sections: SQLite's "1. Overview", "2. Syntax" under `<title>`
 * "SQLite FTS5 Extension"); else `<title>` without the site's name.
 */
export function pageTitle(candidates: { generatorTitle?: string; firstH1?: string; h1Count?: number; parts: TitleParts; url: string }): string {
  const { generatorTitle, firstH1, parts } = candidates;
  if (generatorTitle !== undefined && generatorTitle !== '') return generatorTitle;
  if (firstH1 !== undefined && firstH1 !== '' && !isSiteName(firstH1, parts)) {
    if (parts.page !== '' && (isGeneric(firstH1) || qualifies(parts.page, firstH1) || ((candidates.h1Count ?? 1) > 1 && namesOnePage(parts.page)))) return parts.page;
    return firstH1;
  }
  return parts.page || candidates.url;
}

/** The parts of `<title>` the other way round: the one read as the site is the page's. */
export function pageFirst(parts: TitleParts): TitleParts {
  return parts.site === undefined ? parts : { page: parts.site, site: parts.page };
}

/** A `<title>` that names a page, not the whole site ("Foo Manual" on every page) nor nothing ("Documentation"). */
function namesOnePage(title: string): boolean {
  return !isGeneric(title) && !SITE_WORDS.test(title);
}

function isGeneric(heading: string): boolean {
  return GENERIC_HEADING.test(heading);
}

/**
 * Whether `title` is a qualified name ending in the heading's last word: `pkg.mod.Type` for
 * "Class Type", GObject's `Gtk.Window:hide-on-close` (a property) and `Gtk.Entry::activate` (a
 * signal) for "Gtk Window:hide-on-close".
 */
function qualifies(title: string, heading: string): boolean {
  const last = heading.split(/\s+/).at(-1) ?? '';
  return /^[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::?)[\p{L}_][\p{L}\p{N}_-]*)+$/u.test(title) && last !== '' && title.endsWith(last) && title !== heading;
}

/**
 * The site's part of `<title>` when it surely names the site: `og:site_name` says so, or it reads
 * like a site ("CMake 3.25.1 Documentation"); not a last part that is only a guess ("a tiny
 * library for foo" in "libfoo - a tiny library for foo").
 */
export function surelySite(parts: TitleParts): string | undefined {
  return parts.site !== undefined && (parts.named === true || SITE_WORDS.test(parts.site)) ? parts.site : undefined;
}

/** Whether a heading only names the site: "pytest 7.2 documentation" on every page of it. */
export function isSiteName(text: string, parts: TitleParts): boolean {
  return parts.site !== undefined && same(text, parts.site) && !same(text, parts.page);
}

function same(a: string, b: string): boolean {
  const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return normalise(a) === normalise(b);
}
