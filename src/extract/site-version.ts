import type { CheerioAPI } from 'cheerio';
import { cleanHeadingText } from './chrome.js';
import type { TitleParts } from './page-title.js';

/** A release number: 7.2, 3.11.2, 0.10.6, 2.0.0-rc1. A lone number (a year, "Python 3"), a protocol's (HTTP/1.1) or an address is not one. */
const RELEASE = /(?<![\p{L}\p{N}./])v?(\d+\.\d+(?:\.\d+)?(?:-?(?:rc|a|b|alpha|beta|dev|post)\.?\d*)?)(?![\p{L}\p{N}]|\.\d)/iu;
/** A date written with dots (12.03.2024) is no release. */
const DOTTED_DATE = /^\d{1,2}\.\d{1,2}\.\d{4}$/;
/** Words that say a title names documentation as a whole, not one of its pages. */
const DOCUMENTATION_WORDS = /\b(?:documentation|docs|manual|handbook|reference|user guide|api|standard library)\b/i;
/** Where generators print the version they document: Doxygen's PROJECT_NUMBER, rustdoc's crate version. */
const VERSION_ELEMENTS = ['#projectnumber', '.sidebar-crate .version', 'nav.sidebar .version'];
/** Where they print a sentence that holds it: DocBook's and gtk-doc's `releaseinfo` ("for GLib 2.74.6"). */
const RELEASE_SENTENCES = ['.releaseinfo'];

/**
 * The version the page says its documentation is of, when it says so: the generator's own
 * version element, or the first release number in its release line (gtk-doc's "for GLib
 * 2.74.6"), else a release number in the site's part of `<title>` ("Fixtures — pytest 7.2
 * documentation"), or in a `<title>` that names documentation as a whole ("PostgreSQL 15.20
 * Documentation"). A page's own subject ("What's New In Python 3.12") is not the site's version.
 */
export function siteVersion($: CheerioAPI, parts: TitleParts): string | undefined {
  return generatorVersion($) ?? titleVersion(parts.site ?? parts.page, parts.site !== undefined);
}

/**
 * The release number in the page's title as the page names itself (its h1, a generator's title
 * element) when that title names the documentation as a whole (a Javadoc overview's "JUnit 4.13.2
 * API"): read when neither the generator nor `<title>` says one.
 */
export function titleNamingVersion(title: string): string | undefined {
  return notADate(NAME_RELEASE_DOCS.exec(title.trim())?.[1]);
}

/**
 * A title that is a name, a release and a word for documentation as a whole, nothing else:
 * "JUnit 4.13.2 API", "Widgetlib v2.1 Manual"; not "Migrating to the 2.0 API" or
 * "py.test 2.0.0: … docs++".
 */
const NAME_RELEASE_DOCS = /^[\p{Lu}\p{N}][\p{L}\p{N}+#._-]*(?:\s+[\p{Lu}\p{N}][\p{L}\p{N}+#._-]*)?\s+v?(\d+\.\d+(?:\.\d+)?)\s+(?:documentation|docs|manual|handbook|reference|user guide|api)$/iu;

function generatorVersion($: CheerioAPI): string | undefined {
  for (const selector of VERSION_ELEMENTS) {
    const text = cleanHeadingText($(selector).first().text()).replace(/^version\s*/i, '');
    const found = RELEASE.exec(text);
    if (found !== null && found[0].length === text.length) return found[1];
  }
  // gi-docgen's sidebar: "API Version: 4.0" (the namespace's), then "Library Version: 4.8.3".
  for (const element of $('.namespace p').toArray()) {
    const text = cleanHeadingText($(element).text());
    const found = /^library version:?\s*/i.test(text) ? RELEASE.exec(text) : null;
    if (found?.[1] !== undefined) return found[1];
  }
  for (const selector of RELEASE_SENTENCES) {
    const found = notADate(RELEASE.exec(cleanHeadingText($(selector).first().text()))?.[1]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A release number in a title: any in the site's part, in a page's only when it names documentation as a whole. */
function titleVersion(title: string, isSite: boolean): string | undefined {
  return isSite || DOCUMENTATION_WORDS.test(title) ? notADate(RELEASE.exec(title)?.[1]) : undefined;
}

/** A release number found, unless it is a date written with dots. */
function notADate(release: string | undefined): string | undefined {
  return release === undefined || DOTTED_DATE.test(release) ? undefined : release;
}
