import type { CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import { type AnyNode, type ChildNode, Element, Text } from 'domhandler';
import { appendChild, compareDocumentPosition } from 'domutils';
import { isAnchorMarker } from './heading-anchors.js';

/** Fewer targets than this in one `<pre>`: a code block that happens to hold one, not a document. */
const MIN_TARGETS = 2;
/** More of the lines than this share hold a target: line numbers of a source listing, not sections. */
const MAX_TARGET_LINE_SHARE = 0.5;

/**
 * A document written as one preformatted text with anchor targets in it (Vim's help as HTML,
 * an RFC, man2html's output): everything in one `<pre>` would be one section cited at the top
 * of the page, however many targets the page links to. Each line that holds a target starts a
 * section instead: the line is its heading (anchored at the line's first target), and the lines
 * up to the next such line stay preformatted under it. A `<pre>` whose targets are most of its
 * lines (a source listing's line numbers) is left as it is.
 *
 * A line often names one command twice, abbreviated and in full (Vim's `*:vim* *:vimgrep*`,
 * `*:s* *:su* *:substitute*`): the section is anchored at the full name, the one a reader looks
 * for (and the one Vim's own pages link to in 387 of the 408 such lines that any link reaches).
 */
export function sectionPreformattedTargets($: CheerioAPI, root: Element): void {
  const documents = selectAll('pre', root).flatMap((pre) => {
    if (pre.children.filter(isLineTarget).length < MIN_TARGETS) return [];
    const lines = linesOf(pre);
    const sectionLines = lines.filter((line) => line.some(isLineTarget)).length;
    // Any id on a line counts here, empty or not: Javadoc wraps every line of a listing in `<a id="line.N">`.
    const written = lines.filter((line) => line.some(isTarget) || !isBlankLine(line));
    if (sectionLines < MIN_TARGETS || written.filter((line) => line.some(isTarget)).length > written.length * MAX_TARGET_LINE_SHARE) return [];
    return [{ pre, lines }];
  });
  // Levels first, from the page's own headings: a heading made here must not nest the next `<pre>`'s under it.
  const levels = documents.map(({ pre }) => Math.min(6, headingLevelBefore(root, pre) + 1));
  documents.forEach(({ pre, lines }, index) => {
    const replacement: AnyNode[] = [];
    let body: AnyNode[][] = [];
    const flushBody = () => {
      while (body.length > 0 && isBlankLine(body[0] as AnyNode[])) body.shift();
      while (body.length > 0 && isBlankLine(body.at(-1) as AnyNode[])) body.pop();
      if (body.length > 0) replacement.push(elementHolding('pre', joinLines(body)));
      body = [];
    };
    for (const line of lines) {
      if (!line.some(isLineTarget)) {
        body.push(line);
        continue;
      }
      flushBody();
      const heading = elementHolding(`h${levels[index] ?? 2}`, trimmed(line));
      const fullName = fullNameOfFirstTarget(line);
      // Its own id is what a section is anchored at first; the id is one the page serves.
      if (fullName !== undefined) heading.attribs['id'] = fullName;
      replacement.push(heading);
    }
    flushBody();
    $(pre).replaceWith(replacement);
  });
}

/**
 * The full name the line gives its first target, when that is an abbreviation: a later target
 * that spells it out with more letters (`:vim` → `:vimgrep`; the longest when several do). A
 * plural (`Job`, `Jobs`) is not a fuller name.
 */
function fullNameOfFirstTarget(line: readonly AnyNode[]): string | undefined {
  const [first, ...others] = line.filter(isLineTarget).map((target) => (target as Element).attribs['name'] ?? (target as Element).attribs['id'] ?? '');
  if (first === undefined || first === '') return undefined;
  const fuller = others.filter((name) => name.startsWith(first) && /^[a-z]+$/.test(name.slice(first.length)) && name.slice(first.length) !== 's');
  return fuller.sort((a, b) => b.length - a.length)[0];
}

/** The `<pre>`'s children as lines: text split at its line breaks, an element kept whole on the line it starts on. */
function linesOf(pre: Element): AnyNode[][] {
  const lines: AnyNode[][] = [[]];
  for (const child of pre.children) {
    if (child.type !== 'text') {
      (lines.at(-1) as AnyNode[]).push(child);
      continue;
    }
    const parts = (child as Text).data.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') (lines.at(-1) as AnyNode[]).push(new Text(part));
    });
  }
  return lines;
}

/**
 * An empty `<a name|id>` target: what starts a section in a preformatted document. An empty
 * `<span id>` in a listing is a callout's mark (DocBook's "-- (1)"), not a section.
 */
function isLineTarget(node: AnyNode): boolean {
  return isAnchorMarker(node) && node.name === 'a';
}

/** An element that is a link target: an `<a>` or `<span>` with an id or a name, whatever it holds. */
function isTarget(node: AnyNode): boolean {
  return node.type === 'tag' && /^(a|span)$/.test((node as Element).name) && ((node as Element).attribs['id'] !== undefined || (node as Element).attribs['name'] !== undefined);
}

/** A new element holding these nodes, each moved into it (its parent and siblings set). */
function elementHolding(name: string, nodes: readonly AnyNode[]): Element {
  const element = new Element(name, {});
  for (const node of nodes) appendChild(element, node as ChildNode);
  return element;
}

function isBlankLine(line: readonly AnyNode[]): boolean {
  return line.every((node) => node.type === 'text' && (node as Text).data.trim() === '');
}

function joinLines(lines: readonly AnyNode[][]): AnyNode[] {
  return lines.flatMap((line, index) => (index === 0 ? line : [new Text('\n'), ...line]));
}

/** A heading line without the indentation and padding the preformatted layout gave it. */
function trimmed(line: readonly AnyNode[]): AnyNode[] {
  return line.map((node) => (node.type === 'text' ? new Text((node as Text).data.replace(/[\t ]+/g, ' ')) : node));
}

/** domutils' `DocumentPosition.FOLLOWING`: `compareDocumentPosition(a, b)` has it when `a` comes after `b` (domutils' order, the reverse of the DOM's). */
const FOLLOWING = 4;

/** The level of the last heading before the element in document order (1 when there is none). */
function headingLevelBefore(root: Element, element: Element): number {
  let level = 1;
  for (const heading of selectAll('h1, h2, h3, h4, h5, h6', root)) {
    if (compareDocumentPosition(element, heading) & FOLLOWING) level = Number(heading.name.slice(1));
  }
  return level;
}
