import { Element as DomElement, Text, type AnyNode, type Element } from 'domhandler';
import { append } from 'domutils';
import type { Heading } from '../core/types.js';
import { isAnchorMarker, isBlankText } from './heading-anchors.js';

/** A heading of the page and the element it was read from, in document order. */
export interface PlacedHeading {
  element: Element;
  heading: Heading;
  /** An entry (a `<dt>`, an anchored row or list item, a pseudo-heading), not an `<h1>`–`<h6>`. */
  isEntry: boolean;
}

/**
 * An entry ends with its list. A `<dl>` of API entries is followed, before the next heading, by
 * prose of the section around it ("The following constants are options for the flags
 * parameter…", a second table of functions): as Markdown, that text would fall under the last
 * entry and be cited at its anchor. Where such text follows, the section it belongs to resumes:
 * a heading repeating the enclosing one (the section's, or the class entry's around a method) is
 * inserted after the list, and listed with `continues: true` and the enclosing anchor, so the
 * text is a passage of that section again. The same holds for a heading inside a quoted note
 * (`<blockquote>`, `<aside>`): the section around the note resumes after it. Returns the
 * headings with those resumptions in document order.
 */
export function resumeSectionsAfterEntries(placed: readonly PlacedHeading[], root: Element): Heading[] {
  const entryOfTerm = new Map<Element, PlacedHeading>();
  for (const item of placed) if (item.isEntry && item.element.name === 'dt') entryOfTerm.set(item.element, item);
  const seen = new Set<Element>();
  const resumes = new Map<number, { heading: Heading; after: Element; depth: number }[]>();
  // The section resumes after the container, past the last heading inside it.
  const resumeAfter = (container: Element, index: number, heading: Heading) => {
    let last = index;
    while (last + 1 < placed.length && isInside((placed[last + 1] as PlacedHeading).element, container)) last += 1;
    const found = resumes.get(last) ?? [];
    found.push({ heading: { ...heading, continues: true }, after: container, depth: depthOf(container) });
    resumes.set(last, found);
  };
  placed.forEach((item, index) => {
    if (!entryOfTerm.has(item.element)) return;
    const list = listOf(item.element);
    if (list === undefined || seen.has(list)) return;
    seen.add(list);
    const enclosing = enclosingEntry(list, root, entryOfTerm);
    const next = contentAfter(list, enclosing?.scope ?? root);
    if (next === undefined || startsSection(next, entryOfTerm) || !hasBody(list)) return;
    const heading = enclosing?.entry.heading ?? lastHeadingBefore(placed, index, root);
    if (heading !== undefined) resumeAfter(list, index, heading);
  });
  // A heading inside a quoted note (mdBook's `<blockquote><h3>…</h3>…</blockquote>`) heads the
  // note only: the text after the note is the section's around it again.
  placed.forEach((item, index) => {
    if (item.isEntry) return;
    const box = outermostCallout(item.element, root);
    if (box === undefined || seen.has(box)) return;
    seen.add(box);
    const next = contentAfter(box, root);
    if (next === undefined || startsSection(next, entryOfTerm)) return;
    const heading = lastHeadingBefore(placed, index, root);
    if (heading !== undefined) resumeAfter(box, index, heading);
  });
  const headings: Heading[] = [];
  placed.forEach((item, index) => {
    headings.push(item.heading);
    // The innermost list ends first: a method list inside a class entry, then the class's list.
    for (const { heading, after } of (resumes.get(index) ?? []).sort((a, b) => b.depth - a.depth)) {
      headings.push(heading);
      append(after, new DomElement(`h${heading.level}`, {}, [new Text(heading.text)]));
    }
  });
  return headings;
}

/** Marks a quoted note that held a heading, once it is a plain block (so its heading starts a section). */
export const NOTE_ATTRIBUTE = 'data-citedocs-note';

/** The outermost note (a `<blockquote>` that held a heading, an `<aside>`) around a heading, below the content's root; none when it stands in the open. */
function outermostCallout(element: Element, root: Element): Element | undefined {
  let found: Element | undefined;
  for (let node = element.parent; node !== null && node !== root; node = node.parent) {
    if (node.type === 'tag' && (node.name === 'aside' || node.attribs[NOTE_ATTRIBUTE] !== undefined)) found = node;
  }
  return found;
}

/** The entry whose `<dd>` holds the list (a class around its methods), and that `<dd>`; none: the list is at section level. */
function enclosingEntry(list: Element, root: Element, entryOfTerm: ReadonlyMap<Element, PlacedHeading>): { entry: PlacedHeading; scope: Element } | undefined {
  for (let node = list.parent; node !== null && node !== root; node = node.parent) {
    if (node.type !== 'tag' || node.name !== 'dd') continue;
    for (let sibling = node.prev; sibling !== null; sibling = sibling.prev) {
      if (sibling.type !== 'tag') continue;
      if (sibling.name !== 'dt') continue;
      const entry = entryOfTerm.get(sibling);
      if (entry !== undefined) return { entry, scope: node };
      break;
    }
  }
  return undefined;
}

/** The first node with text after `node`, within `scope`; climbs out of wrappers that end with it. */
function contentAfter(node: Element, scope: Element): AnyNode | undefined {
  for (let current: AnyNode = node; current !== scope && current.parent !== null; current = current.parent) {
    for (let sibling = current.next; sibling !== null; sibling = sibling.next) {
      if (hasText(sibling)) return sibling;
    }
    if (current.parent === scope) return undefined;
  }
  return undefined;
}

/** Text that is not blank, or an element holding some (an empty target holds none); stops at the first, not reading a whole section's text. */
function hasText(node: AnyNode): boolean {
  if (node.type === 'text') return !isBlankText(node.data);
  if (node.type !== 'tag') return false;
  const { children } = node;
  return !isAnchorMarker(node) && children.some(hasText);
}

/** Whether the content starts with a heading or another entry (then nothing resumes). */
function startsSection(node: AnyNode, entryOfTerm: ReadonlyMap<Element, PlacedHeading>): boolean {
  for (let current: AnyNode | undefined = node; current !== undefined; ) {
    if (current.type !== 'tag') return false;
    if (/^h[1-6]$/.test(current.name) || current.attribs['data-citedocs-entry'] !== undefined) return true;
    if (current.name === 'dt') return entryOfTerm.has(current);
    current = current.children.find(hasText);
  }
  return false;
}

/** The `<dl>` a term belongs to, also through an HTML5 group (`<dl><div><dt>`). */
function listOf(term: Element): Element | undefined {
  const parent = term.parent;
  if (parent?.type === 'tag' && parent.name === 'dl') return parent;
  const grandparent = parent?.parent;
  return parent?.type === 'tag' && parent.name === 'div' && grandparent?.type === 'tag' && grandparent.name === 'dl' ? grandparent : undefined;
}

/**
 * Whether the list's last entry has a body: an empty `<dd>` (pytest's environment variables,
 * whose descriptions stand after the list) leaves the text that follows to that entry.
 */
function hasBody(list: Element): boolean {
  const lastOf = (element: Element) => [...element.children].reverse().find((child): child is Element => child.type === 'tag');
  let last = lastOf(list);
  if (last?.name === 'div') last = lastOf(last);
  return last !== undefined && last.name === 'dd' && hasText(last);
}

/** The section heading before an entry: never a heading inside an earlier entry's body (an "Example" under a function). */
function lastHeadingBefore(placed: readonly PlacedHeading[], index: number, root: Element): Heading | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    const item = placed[at] as PlacedHeading;
    if (!item.isEntry && !insideEntryBody(item.element, root)) return item.heading;
  }
  return undefined;
}

function insideEntryBody(element: Element, root: Element): boolean {
  for (let node = element.parent; node !== null && node !== root; node = node.parent) if (node.type === 'tag' && node.name === 'dd') return true;
  return false;
}

/** Whether `ancestor` holds `node`. */
export function isInside(node: Element, ancestor: Element): boolean {
  for (let current = node.parent; current !== null; current = current.parent) if (current === ancestor) return true;
  return false;
}

function depthOf(node: Element): number {
  let depth = 0;
  for (let current = node.parent; current !== null; current = current.parent) depth += 1;
  return depth;
}
