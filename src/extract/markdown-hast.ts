import type { Element, Nodes, Root } from 'hast';
import type { Nodes as MdastNodes } from 'mdast';

/**
 * Helpers on the hast tree the Markdown converter walks. hast-util-to-mdast clones the tree
 * before its handlers run, so what a handler needs from ancestors is written onto the element
 * first, as a property the clone keeps.
 */

/** The property on a `pre` that holds its code's language ('' when none is known). */
export const LANGUAGE_PROPERTY = 'citedocsLanguage';

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight|sourceCode)-([\w+#.-]+)/;

/** Marks every `pre` with its language: from `language-x`/`lang-x` on pre or its code, or Sphinx's `highlight-x` wrapper. */
export function markCodeLanguages(tree: Root): void {
  const visit = (node: Nodes, ancestors: Element[]): void => {
    if (node.type !== 'element' && node.type !== 'root') return;
    if (node.type === 'element' && node.tagName === 'pre') {
      node.properties[LANGUAGE_PROPERTY] = codeLanguage([node, firstDescendant(node, 'code'), ancestors.at(-1), ancestors.at(-2)]);
      return;
    }
    const below = node.type === 'element' ? [...ancestors, node] : ancestors;
    for (const child of node.children) visit(child, below);
  };
  visit(tree, []);
}

function codeLanguage(candidates: readonly (Element | undefined)[]): string {
  for (const element of candidates) {
    if (element === undefined) continue;
    const className = element.properties.className;
    const match = LANGUAGE_CLASS.exec(Array.isArray(className) ? className.join(' ') : String(className ?? ''));
    const language = match?.[1];
    if (language && language !== 'default') return language.replace(/^python3$/, 'python');
    const dataLanguage = element.properties.dataLanguage;
    if (typeof dataLanguage === 'string' && dataLanguage !== '') return dataLanguage;
  }
  return '';
}

/** The first element named `tagName` below `node`, in document order. */
export function firstDescendant(node: Element, tagName: string): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === tagName) return child;
    const found = firstDescendant(child, tagName);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The DOM's textContent: every text below `node`, as written (whitespace kept). */
export function textContent(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' && node.type !== 'root') return '';
  let text = '';
  for (const child of node.children) text += textContent(child);
  return text;
}

/**
 * The text a `<pre>` shows: its textContent with each `<br>` a line break. Highlighters that
 * colour code line by line (TypeDoc's, among others) end each line with a `<br/>` and no newline:
 * read as text only, a whole example ran into one line. A `<br>` the source already follows with
 * a newline (hand-written pages: Apache's, SQLite's) ends that one line, not two. A block inside
 * a `<pre>` is a line of its own, as a browser shows it: Expressive Code (Astro Starlight's
 * highlighter) writes each line as a `<div class="ec-line">` with no newline between them.
 */
export function preformattedText(node: Nodes): string {
  const state = { text: '', afterBreak: false };
  appendPreformatted(node, state);
  return state.text;
}

function appendPreformatted(node: Nodes, state: { text: string; afterBreak: boolean }): void {
  if (node.type === 'text') {
    state.text += state.afterBreak && node.value.startsWith('\n') ? node.value.slice(1) : node.value;
    state.afterBreak = state.afterBreak && node.value === '';
  } else if (node.type === 'element' && node.tagName === 'br') {
    state.text += '\n';
    state.afterBreak = true;
  } else if (node.type === 'element' && LINE_BLOCKS.has(node.tagName)) {
    if (state.text !== '' && !state.text.endsWith('\n')) state.text += '\n';
    // Its own line: a newline it holds is an empty line (`<div class="code">\n</div>`), not the end of the one before.
    state.afterBreak = false;
    for (const child of node.children) appendPreformatted(child, state);
    if (!state.text.endsWith('\n')) {
      state.text += '\n';
      state.afterBreak = true;
    }
  } else if (node.type === 'element' || node.type === 'root') {
    for (const child of node.children) appendPreformatted(child, state);
  }
}

/** Elements a browser shows as blocks, each on lines of its own, inside a `<pre>` too. */
const LINE_BLOCKS = new Set(['div', 'p']);

/**
 * Moves the spaces at the edges of emphasis outside it (`*foo *` → `*foo* `): Markdown cannot
 * open or close emphasis next to a space, so mdast-util-to-markdown would write `&#x20;` instead.
 */
export function moveSpacesOutOfEmphasis(node: MdastNodes): void {
  if (!('children' in node)) return;
  const children: MdastNodes[] = [];
  for (const child of node.children) {
    moveSpacesOutOfEmphasis(child);
    if (child.type !== 'emphasis' && child.type !== 'strong') {
      children.push(child);
      continue;
    }
    const first = child.children[0];
    const leading = first?.type === 'text' ? /^\s+/.exec(first.value)?.[0] : undefined;
    if (first?.type === 'text' && leading !== undefined) first.value = first.value.slice(leading.length);
    const last = child.children.at(-1);
    const trailing = last?.type === 'text' ? /\s+$/.exec(last.value)?.[0] : undefined;
    if (last?.type === 'text' && trailing !== undefined) last.value = last.value.slice(0, -trailing.length);
    child.children = child.children.filter((phrasing) => phrasing.type !== 'text' || phrasing.value !== '');
    if (leading !== undefined) children.push({ type: 'text', value: ' ' });
    if (child.children.length > 0) children.push(child);
    if (trailing !== undefined) children.push({ type: 'text', value: ' ' });
  }
  (node as { children: MdastNodes[] }).children = children;
}
