import type { CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

/**
 * Where generators put the fragment id of a section, read from the real HTML. Anchors are
 * facts: an id is returned only when it is in `served`, the ids of the page as it was served
 * (never one a cleaning step or a library added), so a citation can never point nowhere.
 */

/** Every id (and legacy `a[name]`) on the page as served: the fragments a link to this page may use. */
export function collectPageAnchors($: CheerioAPI): string[] {
  const anchors = new Set<string>();
  for (const element of selectAll<AnyNode, Element>('[id], a[name]', $.root().get(0)?.children ?? [])) {
    const id = element.attribs['id'];
    if (id) anchors.add(id);
    const name = element.name === 'a' ? element.attribs['name'] : undefined;
    if (name) anchors.add(name);
  }
  return [...anchors];
}

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that wrap a section whose first content is its heading (Sphinx, DocBook, pandoc, rustdoc, Javadoc, texinfo; Haddock's `<a id><h1>`). */
const WRAPPERS = new Set(['section', 'div', 'article', 'li', 'details', 'summary', 'header', 'hgroup', 'a']);
/** Elements that may stand between an anchor marker and the heading it marks, holding nothing. */
const SKIPPABLE = new Set(['hr', 'br', 'wbr']);

/** The id or name of an element, if any. */
function idOf(element: Element): string | undefined {
  const id = element.attribs['id'];
  if (id) return id;
  return element.name === 'a' ? element.attribs['name'] || undefined : undefined;
}

/** Text that shows nothing: whitespace, no-break spaces, zero-width spaces. */
export function isBlankText(text: string): boolean {
  return /^[\s\u00a0\u200b\ufeff]*$/.test(text);
}

function textOf(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return '';
  let text = '';
  const stack: AnyNode[] = [...(node as Element).children].reverse();
  while (stack.length > 0 && text.length < 64) {
    const current = stack.pop() as AnyNode;
    if (current.type === 'text') text += current.data;
    else if (current.type === 'tag') for (let index = current.children.length - 1; index >= 0; index -= 1) stack.push(current.children[index] as AnyNode);
  }
  return text;
}

/** An empty `<a id|name>` or `<span id>`: a target generators drop in front of what it marks (Doxygen, LaTeX2HTML, man2html, Javadoc 8). */
export function isAnchorMarker(node: AnyNode): node is Element {
  if (node.type !== 'tag') return false;
  if (node.name !== 'a' && node.name !== 'span') return false;
  if (idOf(node) === undefined) return false;
  if (node.name === 'a' && node.attribs['href'] !== undefined && !isBlankText(textOf(node))) return false;
  return isBlankText(textOf(node)) && !node.children.some((child) => child.type === 'tag' && child.name === 'img');
}

/** A node that holds nothing a reader sees, so what follows it is still "first". */
function isNothing(node: AnyNode): boolean {
  if (node.type === 'comment' || node.type === 'directive') return true;
  if (node.type === 'text') return isBlankText(node.data);
  if (node.type !== 'tag') return true;
  if (SKIPPABLE.has(node.name)) return true;
  // An empty box (DocBook's `<div class="titlepage"></div>` before a reference page's name).
  if (node.children.length === 0 && EMPTY_BOXES.has(node.name)) return true;
  return isAnchorMarker(node);
}

/** Elements that show nothing when they hold nothing (unlike an `img` or an `iframe`). */
const EMPTY_BOXES = new Set(['div', 'span', 'p', 'section']);

/**
 * The anchor of a section start (a heading, or an entry such as a `<dt>`), in the order
 * generators put it: the element's own id; an empty target inside it (`<h2><a id="x"></a>Title</h2>`,
 * `<dt><a name="index-x"></a>…`); the id of each enclosing wrapper it is the first content of
 * (`<section id><h2>`, DocBook's `div.sect1 > div.titlepage > … > h2`); then an empty target
 * just before it or before such a wrapper (`<a id="ga…"></a><h2>`, `<a name="m()"></a><ul><li><h4>`).
 * Returns undefined when the page gives it no id that was served: anchors are never invented.
 */
export function findSectionAnchor(start: Element, served: ReadonlySet<string>, stopAt?: Element, options: { spanTargets?: boolean } = {}): string | undefined {
  const candidates = sectionAnchorCandidates(start, served, stopAt, options.spanTargets ?? true);
  // Of the ids that mark the section, the one its own permalink ("¶") links to is the one the
  // page means and readers copy: Django's theme wraps `<span id="x"><h2>…<a href="#x">¶</a>` in
  // `<div class="section" id="s-x">`.
  const permalink = start.attribs[PERMALINK_ATTRIBUTE];
  if (permalink !== undefined && candidates.includes(permalink)) return permalink;
  return candidates[0];
}

/** Where `markPermalinks` notes the target of a heading's own permalink. */
export const PERMALINK_ATTRIBUTE = 'data-citedocs-permalink';

/** The text of a permalink beside a heading: a pilcrow, a section sign, an arrow back to the top, a link glyph. */
export const PERMALINK_TEXT = /^\s*[¶§⁋↑#🔗]+\s*$/u;

/**
 * Notes on each heading (and term) the served id its own permalink links to (`<a class="headerlink"
 * href="#x">¶</a>`, or an empty link to `#x`), before chrome removal takes the permalinks away.
 */
export function markPermalinks($: CheerioAPI, served: ReadonlySet<string>): void {
  for (const start of selectAll<AnyNode, Element>('h1, h2, h3, h4, h5, h6, dt', $.root().get(0)?.children ?? [])) {
    for (const link of selectAll<AnyNode, Element>('a[href^="#"]', start)) {
      const text = $(link).text();
      // "↑" goes back to the top of the page: no permalink of the heading's own.
      if ((!isBlankText(text) && !PERMALINK_TEXT.test(text)) || text.includes('↑')) continue;
      const target = fragmentOf(link.attribs['href'] as string);
      if (target !== undefined && served.has(target)) start.attribs[PERMALINK_ATTRIBUTE] = target;
      break;
    }
  }
}

function fragmentOf(href: string): string | undefined {
  try {
    return decodeURIComponent(href.slice(1)) || undefined;
  } catch {
    return href.slice(1) || undefined;
  }
}

/** Every served id that marks the section, in the order `findSectionAnchor` prefers them. */
function sectionAnchorCandidates(start: Element, served: ReadonlySet<string>, stopAt: Element | undefined, spanTargets: boolean): string[] {
  // A `<span id>` marks a heading (Sphinx labels) but, before a paragraph, is an index target (`index-12`).
  const candidates: string[] = [];
  const add = (id: string | undefined) => {
    if (id !== undefined && served.has(id) && !candidates.includes(id)) candidates.push(id);
  };
  add(idOf(start));
  add(innerTarget(start, spanTargets));

  const markers: Element[] = [];
  let current: Element = start;
  for (;;) {
    collectPrecedingMarkers(current, markers);
    const parent = current.parent;
    if (parent === null || parent.type !== 'tag' || parent.name === 'body' || parent.name === 'html') break;
    if (!isFirstContent(current)) break;
    // The content's own id (YARD's `div#content`, a theme's `main#content`) names the whole page, not its first section.
    if (parent === stopAt) break;
    if (WRAPPERS.has(parent.name)) {
      const wrapperId = idOf(parent);
      if (wrapperId !== undefined && served.has(wrapperId) && firstSectionStart(parent) === start) {
        add(wrapperId);
        break;
      }
    }
    if (parent === stopAt) break;
    current = parent;
  }
  for (const marker of markers) {
    if (!spanTargets && marker.name === 'span') continue;
    // An index term's target (DocBook's `a.indexterm`) marks a word for the book's index, not a section.
    if (/\bindex/i.test(marker.attribs['class'] ?? '')) continue;
    add(idOf(marker));
  }
  // With nothing else to go by, a heading that is a named link is its own target: a hand-written
  // `<h2><a name="libfoo" href="https://libfoo.org/">libfoo</a></h2>`.
  if (candidates.length === 0) add(innerTarget(start, spanTargets, true));
  return candidates;
}

/**
 * The first `<a id|name>` or `<span id>` inside the element: an empty target (Doxygen), one wrapping
 * the title (LaTeX2HTML) or a permalink (Node.js); a link elsewhere only by its name when `namedLinks`.
 */
function innerTarget(start: Element, spanTargets: boolean, namedLinks = false): string | undefined {
  const stack: AnyNode[] = [...start.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    if ((node.name === 'a' || (spanTargets && node.name === 'span')) && idOf(node) !== undefined && (namedLinks || !onlyNamesItsLink(node))) return idOf(node);
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index] as AnyNode);
  }
  return undefined;
}

/**
 * A link to another page (or to this one's top, `href=""`) that has a `name` and no `id`: the
 * name is the generator's note of what it links to, not a target. Scaladoc's signatures name
 * each type they link (`<a href="../../Boolean.html" name="scala.Boolean">`), LaTeX2HTML's index
 * each entry (`<a name="tex2html663" href="node123.html#…">`). An `id` on such a link stays a
 * target: Apache's module index marks each letter so (`<a id="A" name="A" href="mod_…">`).
 */
function onlyNamesItsLink(element: Element): boolean {
  const href = element.attribs['href'];
  return element.name === 'a' && href !== undefined && !href.trim().startsWith('#') && !element.attribs['id'];
}

/**
 * Empty targets right before `element` (nearest first), skipping what holds nothing; also those
 * ending the paragraph before it, where the parser put them when that `<p>` was never closed
 * (`<p>text <a name="x"></a><hr><p><b>x</b>`: the `<hr>` closes the paragraph around the target).
 */
function collectPrecedingMarkers(element: Element, into: Element[]): void {
  // Nearest first: an author who renames a section puts its new target nearest and keeps the old
  // one before it (SQLite's `<a name="cvs"></a><a name="srctree"></a><h2>`); a target before
  // both may mark the whole list (GLib's index: `<a name="idx"></a><a name="idxA"></a><h3>A`).
  const previous = collectMarkersBackFrom(element.prev, into, () => true);
  // Only the legacy `<a name>` there, the form hand-written pages leave before a heading: a
  // paragraph that ends in `<span id>`s holds index entries for its own words (texinfo's
  // `index-…`), one that ends in `<a id>` a footnote's back-reference.
  if (previous !== null && previous.type === 'tag' && previous.name === 'p') collectMarkersBackFrom(previous.lastChild, into, (marker) => marker.name === 'a' && marker.attribs['name'] !== undefined);
}

/** Collects the targets from `node` backwards while nodes hold nothing; returns the first node that holds something. */
function collectMarkersBackFrom(node: AnyNode | null, into: Element[], accept: (marker: Element) => boolean): AnyNode | null {
  let previous = node;
  while (previous !== null && isNothing(previous)) {
    if (isAnchorMarker(previous) && accept(previous)) into.push(previous);
    previous = previous.prev;
  }
  return previous;
}

/** Whether nothing a reader sees comes before the element inside its parent. */
function isFirstContent(element: Element): boolean {
  let previous = element.prev;
  while (previous !== null) {
    if (!isNothing(previous)) return false;
    previous = previous.prev;
  }
  return true;
}

/** The first heading (or `dt`) inside a wrapper, in document order. */
function firstSectionStart(wrapper: Element): Element | undefined {
  const stack: AnyNode[] = [...wrapper.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    if (HEADING_TAGS.has(node.name) || node.name === 'dt' || node.attribs['data-citedocs-entry'] !== undefined) return node;
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index] as AnyNode);
  }
  return undefined;
}
