import type { Cheerio, CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import { Element as DomElement, Text, type AnyNode, type Element } from 'domhandler';
import { replaceElement } from 'domutils';
import type { Heading } from '../core/types.js';
import { cleanHeadingText } from './chrome.js';
import { isInside, NOTE_ATTRIBUTE, resumeSectionsAfterEntries, type PlacedHeading } from './entry-ends.js';
import { markCodeSignatures, markPseudoHeadings, SIGNATURE_ANCHOR_ATTRIBUTE } from './pseudo-headings.js';
import { joinSignatureGroups } from './signature-groups.js';
import { findSectionAnchor, isAnchorMarker, isBlankText } from './heading-anchors.js';

/**
 * Sections from wherever generators put the anchor. Headings keep their level; anchored
 * entries that are no heading (a `<dt>`, a list item or table row that starts an entry, a
 * pseudo-heading such as Haddock's `p.src` or RDoc's `div.method-heading`) become headings one
 * level below their section, so each is a passage of its own, keyed by its anchor and named
 * by the entry. Returns the page's headings in document order, each with the anchor that was
 * served for it, if any; the DOM is rewritten so each heading holds its clean text.
 */
export function markSections($: CheerioAPI, main: Cheerio<Element>, served: ReadonlySet<string>): Heading[] {
  const root = main.get(0);
  if (root === undefined) return [];
  unrollEntryTables($, root, served);
  unwrapPlaceholderEntries($, root, served);
  joinSignatureGroups(root, served);
  unwrapLayoutLists($, root);
  splitEntryLists($, root, served);
  markPseudoHeadings($, root, served);
  markCodeSignatures(root, served);

  const placed: PlacedHeading[] = [];
  const used = new Set<string>();
  const replacements: { element: Element; level: number; text: string; anchor?: string }[] = [];
  let sectionLevel = 1;
  // The wrapper an entry heads (RDoc's `div.method-detail` around `div.method-heading`), and the entry's level.
  let entryBody: { wrapper: Element; level: number } | undefined;
  for (const element of selectAll('h1, h2, h3, h4, h5, h6, dt, [data-citedocs-entry]', root)) {
    const isHeading = /^h[1-6]$/.test(element.name);
    let anchor = element.attribs[SIGNATURE_ANCHOR_ATTRIBUTE] ?? findSectionAnchor(element, served, root, { spanTargets: element.attribs['data-citedocs-entry'] === undefined });
    if (anchor !== undefined && used.has(anchor)) anchor = undefined;
    if (!isHeading && anchor === undefined) continue; // an unanchored term stays text
    const text = cleanHeadingText(textWithBreaks($, element));
    if (text === '') continue;
    if (anchor !== undefined) used.add(anchor);
    // Each enclosing definition (a class around its methods) adds a level. A heading inside an
    // entry's body ("on dup vs clone" in Object#dup's description) is the entry's, one level
    // down: it never heads the entries after it.
    const inEntryBody = isHeading && entryBody !== undefined && isInside(element, entryBody.wrapper);
    const level = inEntryBody ? Math.min(6, (entryBody?.level ?? 0) + 1) : isHeading ? Number(element.name.slice(1)) : Math.min(6, sectionLevel + 1 + ancestorsNamed(element, 'dd', root));
    if (isHeading && !inEntryBody) sectionLevel = level;
    if (element.attribs['data-citedocs-entry'] !== undefined) entryBody = headedWrapper(element, root, level);
    replacements.push({ element, level, text, ...(anchor === undefined ? {} : { anchor }) });
    placed.push({ element, heading: { level, text, ...(anchor === undefined ? {} : { anchor }) }, isEntry: !isHeading });
  }
  const headings = resumeSectionsAfterEntries(placed, root);
  // Read before the terms are replaced: a replaced element has no parent left to look up.
  const inContainer = replacements.some(({ element }) => element.name === 'dt' && hasAncestor(element, root, /^(?:li|blockquote)$/));
  for (const { element, level, text } of replacements) {
    // The heading as plain text: `json.dumps(obj, *, skipkeys=False)`, not a heading full of emphasis and links.
    replaceElement(element, new DomElement(`h${level}`, {}, [new Text(text)]));
  }
  // Entries found inside list items (a list of `<dl>`s) now put headings in a list.
  if (inContainer) unwrapLayoutLists($, root);
  return headings;
}

/** An element's text with a space where a `<br>` separates two terms (`WORK<br>TRANSACTION`). */
export function textWithBreaks($: CheerioAPI, element: Element): string {
  const breaks = selectAll('br', element);
  if (breaks.length === 0) return $(element).text();
  const copy = $(element).clone();
  copy.find('br').replaceWith(' ');
  return copy.text();
}

/** Whether an element between this one and `root` is named by `names`. */
export function hasAncestor(element: Element, root: Element, names: RegExp): boolean {
  for (let node = element.parent; node !== null && node !== root; node = node.parent) if (node.type === 'tag' && names.test(node.name)) return true;
  return false;
}

/** The element a pseudo-heading opens (its parent, when the parent starts with it), with the entry's level; none when the parent holds more than this entry. */
function headedWrapper(entry: Element, root: Element, level: number): { wrapper: Element; level: number } | undefined {
  const parent = entry.parent;
  if (parent === null || parent.type !== 'tag' || parent === root || firstVisibleChild(parent) !== entry) return undefined;
  return { wrapper: parent, level };
}

function ancestorsNamed(element: Element, name: string, root: Element): number {
  let count = 0;
  for (let node = element.parent; node !== null && node !== root; node = node.parent) if (node.type === 'tag' && node.name === name) count += 1;
  return count;
}

/** The first visible node inside an element, skipping blank text and empty targets. */
function firstVisibleChild(element: Element): AnyNode | undefined {
  return element.children.find((child) => !(child.type === 'text' && isBlankText(child.data)) && child.type !== 'comment' && !isAnchorMarker(child));
}

/** Whether the element is a target itself or starts with an empty `<a id|name>` target. */
function startsWithTarget(element: Element, served: ReadonlySet<string>, markers: 'a' | 'any'): boolean {
  const id = element.attribs['id'];
  if (id !== undefined && served.has(id)) return true;
  for (const child of element.children) {
    if (child.type === 'text' && isBlankText(child.data)) continue;
    if (child.type === 'tag' && child.name === 'td') return startsWithTarget(child, served, markers);
    if (!isAnchorMarker(child)) return false;
    if (markers === 'a' && child.name !== 'a') return false;
    return served.has(child.attribs['id'] ?? child.attribs['name'] ?? '');
  }
  return false;
}

/**
 * A table that holds headings or anchored rows is layout (Doxygen's member summaries), not
 * data: its rows become blocks in order, a heading stays a heading, an anchored row becomes an
 * entry named by its text, and the other rows become paragraphs.
 */
function unrollEntryTables($: CheerioAPI, root: Element, served: ReadonlySet<string>): void {
  const tables = selectAll('table', root).filter((table) => {
    const rows = selectAll('tr', table).filter((row) => closestTable(row) === table);
    return rows.some((row) => startsWithTarget(row, served, 'a')) || selectAll('h1, h2, h3, h4, h5, h6', table).length > 0;
  });
  // Innermost first, so an outer table sees its inner ones already unrolled.
  for (const table of tables.reverse()) {
    // Under each heading row: the plain rows first (they belong to that heading's section), then
    // the anchored rows, each an entry of its own (else the plain rows would fall under an entry).
    const blocks: string[] = [];
    let plain: string[] = [];
    let entries: string[] = [];
    const flush = () => {
      blocks.push(...plain, ...entries);
      plain = [];
      entries = [];
    };
    for (const row of selectAll('tr', table).filter((candidate) => closestTable(candidate) === table)) {
      const headings = selectAll('h1, h2, h3, h4, h5, h6', row);
      if (headings.length > 0) {
        flush();
        for (const heading of headings) blocks.push($.html(heading));
        continue;
      }
      const cells = selectAll('td, th', row).filter((cell) => closestTable(cell) === table);
      const text = cells.map((cell) => $(cell).text().replace(/[\s\u00a0]+/g, ' ').trim()).filter(Boolean).join(' ');
      if (startsWithTarget(row, served, 'a')) {
        const marker = targetOf(row, served);
        // Named by the entry's name (`ssh_channel_new_id`, `words("string")`); the row is its passage.
        entries.push(`<dl><dt${marker === undefined ? '' : ` data-citedocs-target="${escapeAttribute(marker)}"`}>${escapeText(rowName($, cells) || text)}</dt><dd><p>${cells.map((cell) => $(cell).html() ?? '').join(' ')}</p></dd></dl>`);
      } else if (text !== '') {
        plain.push(`<p>${cells.map((cell) => $(cell).html() ?? '').join(' ')}</p>`);
      }
    }
    flush();
    $(table).replaceWith(`<div>${blocks.join('\n')}</div>`);
  }
  // The entries made from rows carry their row's target as a marker the anchor finder reads.
  for (const dt of selectAll('dt[data-citedocs-target]', root)) {
    const target = dt.attribs['data-citedocs-target'] ?? '';
    $(dt).removeAttr('data-citedocs-target').prepend($('<a></a>').attr('id', target));
  }
}

/** A row entry's name: its bold or code term (Doxygen's `<b>name</b>`), else the text of the cell its target sits in, else its first cell. */
function rowName($: CheerioAPI, cells: readonly Element[]): string {
  // A linked name names its row, before a type in the cell before it (Javadoc's summaries:
  // `<code>static void</code>` | `<code><a href="#assertTrue(boolean)">assertTrue</a>(boolean condition)</code>`).
  const linked = cells.flatMap((cell) => selectAll('b, strong, code, tt', cell)).find((element) => selectAll('a[href]', element).length > 0);
  const linkedName = linked === undefined ? '' : cleanHeadingText($(linked).text());
  if (linkedName !== '') return linkedName;
  for (const cell of cells) {
    const term = selectAll('b, strong, code, tt', cell).map((element) => cleanHeadingText($(element).text())).find((text) => text !== '');
    if (term !== undefined) return term;
  }
  const marked = cells.find((cell) => selectAll('a[id], a[name]', cell).length > 0) ?? cells[0];
  return marked === undefined ? '' : cleanHeadingText($(marked).text());
}

function targetOf(row: Element, served: ReadonlySet<string>): string | undefined {
  const own = row.attribs['id'];
  if (own !== undefined && served.has(own)) return own;
  const marker = selectAll('a[id], a[name]', row)[0];
  return marker === undefined ? undefined : (marker.attribs['id'] ?? marker.attribs['name']);
}

function closestTable(node: Element): Element | undefined {
  for (let current = node.parent; current !== null; current = current.parent) if (current.type === 'tag' && current.name === 'table') return current;
  return undefined;
}

/**
 * A list whose items hold headings is layout (Javadoc 8's `ul.blockList > li.blockList` around
 * every member), not a list: as Markdown, its headings would be list text that starts no
 * section. Its items' content takes its place.
 */
function unwrapLayoutLists($: CheerioAPI, root: Element): void {
  // From each heading up: the lists and notes that hold one (cheaper than searching every list).
  const quotes = new Set<Element>();
  const lists = new Set<Element>();
  for (const heading of selectAll('h1, h2, h3, h4, h5, h6', root)) {
    for (let node = heading.parent; node !== null && node !== root && node.type === 'tag'; node = node.parent) {
      if (node.name === 'blockquote') quotes.add(node);
      if (node.name === 'li' && node.parent !== null && node.parent.type === 'tag' && /^(?:ul|ol)$/.test(node.parent.name)) lists.add(node.parent);
    }
  }
  // A note (mdBook's `<blockquote>`) that holds a heading: as Markdown, "> ### Title" starts no
  // section. It becomes a plain block that still says where the note ends (see entry-ends.ts).
  for (const quote of quotes) {
    quote.name = 'div';
    quote.attribs[NOTE_ATTRIBUTE] = '';
  }
  for (const list of selectAll('ul, ol', root).reverse()) {
    if (!lists.has(list)) continue;
    const items = list.children.filter((child): child is Element => child.type === 'tag' && child.name === 'li');
    $(list).replaceWith(items.map((item) => $(item).html() ?? '').join('\n'));
  }
}

/**
 * A list whose items carry their own anchors (a reference list of options) becomes entries:
 * each anchored item is a definition named by its lead (`--verbose`, a bold term, or its first
 * words), with the item's text as its body; the other items stay a list.
 */
function splitEntryLists($: CheerioAPI, root: Element, served: ReadonlySet<string>): void {
  for (const list of selectAll('ul, ol', root).reverse()) {
    const items = list.children.filter((child): child is Element => child.type === 'tag' && child.name === 'li');
    if (!items.some((item) => startsWithTarget(item, served, 'a'))) continue;
    const blocks: string[] = [];
    let plain: string[] = [];
    const flush = () => {
      if (plain.length > 0) blocks.push(`<${list.name}>${plain.join('')}</${list.name}>`);
      plain = [];
    };
    for (const item of items) {
      if (!startsWithTarget(item, served, 'a')) {
        plain.push($.html(item));
        continue;
      }
      flush();
      const target = targetOf(item, served);
      const name = leadOf($, item);
      blocks.push(`<dl><dt${target === undefined ? '' : ` id="${escapeAttribute(target)}"`}>${escapeText(name)}</dt><dd>${$(item).html() ?? ''}</dd></dl>`);
    }
    flush();
    $(list).replaceWith(blocks.join('\n'));
  }
}

/** What an entry is called: its leading code or bold term, else its words up to a separator. */
function leadOf($: CheerioAPI, item: Element): string {
  const first = firstVisibleChild(item.children.length === 1 && item.children[0]?.type === 'tag' && item.children[0].name === 'p' ? item.children[0] : item);
  if (first !== undefined && first.type === 'tag' && /^(code|kbd|samp|var|tt|strong|b|dfn|em|a)$/.test(first.name)) {
    const lead = cleanHeadingText($(first).text());
    if (lead !== '') return lead;
  }
  const text = cleanHeadingText($(item).text());
  const cut = /^(.{1,80}?)(?:\s[-–—:]\s|:\s|\.\s|$)/.exec(text)?.[1] ?? text.slice(0, 80);
  return cut.trim();
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

/**
 * An entry with nothing to say, right under a heading, only registers a name for the section
 * the heading starts: Django writes `<h2>The per-view cache</h2><dl><dt id="…cache_page">cache_page()</dt><dd></dd></dl>`
 * and documents `cache_page` in the section's prose (335 sections on 50 pages). As an entry it
 * took the section's whole body under "cache_page()", and the section had no passage of its
 * own. Its name stays a line of the section, when the section has an anchor of its own; a name
 * that is documented (its `<dd>` says something) or that follows other text is an entry.
 */
function unwrapPlaceholderEntries($: CheerioAPI, root: Element, served: ReadonlySet<string>): void {
  for (const list of selectAll<AnyNode, Element>('dl', root)) {
    const items = $(list).children();
    if (items.length !== 2 || items.get(0)?.name !== 'dt' || items.get(1)?.name !== 'dd') continue;
    if (!isBlankText($(items.get(1)).text()) || $(items.get(1)).find('img, pre, table').length > 0) continue;
    const previous = contentBefore(list);
    if (previous === null || previous.type !== 'tag' || !/^h[1-6]$/.test((previous as Element).name)) continue;
    // Only when the section has an anchor of its own to cite instead.
    if (findSectionAnchor(previous as Element, served, root) === undefined) continue;
    $(list).replaceWith($('<p></p>').append($('<code></code>').text(cleanHeadingText($(items.get(0)).text()))));
  }
}

/** The nearest node before this one that a reader sees (blank text, comments and empty targets skipped). */
function contentBefore(node: AnyNode): AnyNode | null {
  const holdsNothing = (candidate: AnyNode): boolean => (candidate.type === 'text' && isBlankText(candidate.data)) || candidate.type === 'comment' || isAnchorMarker(candidate);
  let previous = node.prev;
  while (previous !== null && holdsNothing(previous)) previous = previous.prev;
  return previous;
}
