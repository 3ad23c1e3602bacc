import type { CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { textContent } from 'domutils';
import { findSectionAnchor, isAnchorMarker, isBlankText } from './heading-anchors.js';

/** Class names of blocks that head an entry: Haddock's `src`, pydoctor's `functionHeader`, RDoc's `method-heading`, `signature`, `decl`. */
const PSEUDO_HEADING_CLASS = /heading|header|signature|decl|\b(?:src|sig|term|memname|name|caption|title)\b/i;
const NAME_ELEMENTS = new Set(['b', 'strong', 'code', 'tt', 'kbd', 'samp', 'var', 'dfn']);
/** What may stand between names in a syntax line: `<b>PRAGMA x;<br>PRAGMA x = </b><i>value</i><b>;</b>`. */
const SYNTAX_LINE_ELEMENTS = new Set([...NAME_ELEMENTS, 'i', 'em', 'br']);

/** A block's visible children are a name, or a syntax line of names and placeholders, with no loose text. */
function isNameLine(visible: readonly AnyNode[]): boolean {
  if (visible.length === 1) return visible[0]?.type === 'tag' && NAME_ELEMENTS.has(visible[0].name);
  return visible.length > 1 && visible.every((node) => node.type === 'tag' && SYNTAX_LINE_ELEMENTS.has(node.name)) && visible.some((node) => node.type === 'tag' && NAME_ELEMENTS.has(node.name));
}

/**
 * Right after an `<a name>` target, a synopsis of several forms, written by hand: its names
 * come first and hold most of its text, and loose text between them is punctuation, a keyword
 * or a placeholder a stray tag left unmarked (SQLite's `<b>PRAGMA </b><i>schema.</i><b>x;</b>
 * <br>PRAGMA </b>…`, `= </b><i>boolean</i>|<b>FAST</b>`). "<b>Note:</b> a sentence…" is not one:
 * its loose text is most of it.
 */
function isHandwrittenSynopsis(visible: readonly AnyNode[]): boolean {
  const first = visible[0];
  if (visible.length < 2 || first?.type !== 'tag' || !NAME_ELEMENTS.has(first.name)) return false;
  let names = 0;
  let loose = 0;
  for (const node of visible) {
    if (node.type === 'text') loose += node.data.trim().length;
    else if (node.type !== 'tag' || !SYNTAX_LINE_ELEMENTS.has(node.name)) return false;
    else if (NAME_ELEMENTS.has(node.name)) names += textContent(node).trim().length;
  }
  return names >= 2 * loose;
}

/** The longest text a pseudo-heading may have: a name or a signature line. */
const MAX_PSEUDO_HEADING = 160;
/**
 * A bold line right after an `<a name>` target may be longer: an FAQ's question (SQLite's
 * "(24) My WHERE clause expression … does not work. It causes every row …") is a sentence or
 * two; a synopsis there lists several forms, one per line. A long bold warning inside an
 * anchored wrapper, or holding a footnote's target, is not.
 */
const MAX_BOLD_HEADING = 320;

const isBoldLine = (visible: readonly AnyNode[]): boolean => visible.length === 1 && visible[0]?.type === 'tag' && /^(b|strong)$/.test(visible[0].name);

/**
 * Short blocks that act as an entry's heading without being one: Haddock's `p.src`, RDoc's
 * `div.method-heading`, a `<p><b>name</b></p>` after an `<a name>` target. They become entries
 * when they are anchored; an unanchored one stays text.
 */
export function markPseudoHeadings($: CheerioAPI, root: Element, served: ReadonlySet<string>): void {
  for (const element of selectAll('p, div', root)) {
    // Cheap tests first: most paragraphs are neither a lone name nor of a heading class.
    const visible = element.children.filter((child) => !(child.type === 'text' && isBlankText(child.data)) && !isAnchorMarker(child));
    const nameLine = isNameLine(visible);
    const synopsis = !nameLine && isHandwrittenSynopsis(visible) && followsAnchorMarker(element);
    const onlyName = nameLine || synopsis;
    if (!onlyName && !PSEUDO_HEADING_CLASS.test(element.attribs['class'] ?? '')) continue;
    if (element.children.some((child) => child.type === 'tag' && /^(p|div|ul|ol|dl|table|pre|h[1-6]|section|blockquote)$/.test(child.name))) continue;
    const text = textContent(element).replace(/[\s\u00a0]+/g, ' ').trim();
    const anchoredLong = synopsis || (nameLine && (isBoldLine(visible) || visible.some((node) => node.type === 'tag' && node.name === 'br')) && followsAnchorMarker(element));
    if (text === '' || text.length > (anchoredLong ? MAX_BOLD_HEADING : MAX_PSEUDO_HEADING)) continue;
    // Only something follows it makes it a heading: a lone bold line is emphasis.
    if (!hasFollowingContent(element)) continue;
    // Marked first: a wrapper's id (RDoc's `div.method-detail#method-i-x`) goes to its first entry.
    element.attribs['data-citedocs-entry'] = '';
    if (findSectionAnchor(element, served, root, { spanTargets: false }) === undefined) delete element.attribs['data-citedocs-entry'];
  }
}

/** Sphinx's wrapper of a highlighted code block (`div.highlight-cmake`). */
const CODE_BLOCK_WRAPPER = /(?:^|\s)highlight-[\w-]+(?:\s|$)/;
/** Sphinx's target of an index entry (`index-12`): it marks a place for the index, it names nothing. */
const INDEX_TARGET = /^index-\d+$/;

/** Where `markCodeSignatures` notes the id a signature block is cited at. */
export const SIGNATURE_ANCHOR_ATTRIBUTE = 'data-citedocs-signature-anchor';

/**
 * A code block that carries an id of its own and is followed by its description: a signature
 * that heads an entry. CMake's `signature` directive writes one per subcommand
 * (`<div class="highlight-cmake" id="append">` for `list(APPEND <list> …)`), so `list()`'s page is
 * twenty entries, not three sections of twenty signatures. An index target is no such id.
 * A block of two forms holds the first one's id in an empty `<span>` it starts with
 * (`<div id="glob-recurse"><span id="glob">` above `file(GLOB …)` and `file(GLOB_RECURSE …)`):
 * the entry is cited there, at the name its heading starts with. A signature's id is made of its
 * words (`append` of `list(APPEND …)`); an example's label is not (SymPy's
 * `custom-functions-versin-eval-example` on a doctest), and the example stays code.
 */
export function markCodeSignatures(root: Element, served: ReadonlySet<string>): void {
  for (const element of selectAll('div[id]', root)) {
    const id = element.attribs['id'] as string;
    if (!CODE_BLOCK_WRAPPER.test(element.attribs['class'] ?? '') || INDEX_TARGET.test(id) || !served.has(id)) continue;
    const text = textContent(element).replace(/[\s\u00a0]+/g, ' ').trim();
    if (text === '' || text.length > MAX_BOLD_HEADING || !hasFollowingContent(element)) continue;
    const first = element.children.find((child) => !(child.type === 'text' && isBlankText(child.data)) && child.type !== 'comment');
    const firstForm = first !== undefined && first.type === 'tag' && first.name === 'span' && isAnchorMarker(first) ? first.attribs['id'] : undefined;
    const anchor = firstForm !== undefined && served.has(firstForm) ? firstForm : id;
    if (!namesCode(anchor, textContent(element))) continue;
    element.attribs['data-citedocs-entry'] = '';
    element.attribs[SIGNATURE_ANCHOR_ATTRIBUTE] = anchor;
  }
}

/** Whether every word of an id is a word of the code (`regex-match` of `string(REGEX MATCH …)`, `get-message-log-level` of `GET_MESSAGE_LOG_LEVEL`). */
function namesCode(id: string, code: string): boolean {
  const words = new Set(code.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return id.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).every((part) => words.has(part));
}

/** Whether the block comes right after an empty anchor target (`<a name="q24"></a>`), blank text, comments and rules (`<hr>`) aside. */
function followsAnchorMarker(element: Element): boolean {
  for (let node = element.prev; node !== null; node = node.prev) {
    if (node.type === 'text' && isBlankText(node.data)) continue;
    if (node.type === 'comment' || (node.type === 'tag' && node.name === 'hr')) continue;
    return isAnchorMarker(node);
  }
  return false;
}

function hasFollowingContent(element: Element): boolean {
  for (let node = element.next; node !== null; node = node.next) {
    if (node.type === 'text' && isBlankText(node.data)) continue;
    if (node.type === 'comment' || isAnchorMarker(node)) continue;
    return true;
  }
  return false;
}
