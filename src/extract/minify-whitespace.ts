import type { Element, Nodes, Parents, RootContent, Text } from 'hast';

/**
 * HTML whitespace collapsed as a browser renders it: the same result as
 * hast-util-minify-whitespace 1.0.1 (the pass hast-util-to-mdast runs on every tree), in place.
 * That library tests element names against arrays and rebuilds the test on every call, which
 * took a third of the Markdown conversion; here the names are sets built once. The algorithm,
 * its odd corners included, is kept step for step: the converter's output must not move.
 * minify-whitespace.test.ts compares the two on every fixture page.
 *
 * Derived from hast-util-minify-whitespace, Copyright (c) Titus Wormer, MIT License
 * (https://github.com/syntax-tree/hast-util-minify-whitespace).
 */

type Whitespace = 'normal' | 'nowrap' | 'pre' | 'pre-wrap';

interface MinifyState {
  whitespace: Whitespace;
  /** Whether there is a break before (whitespace at the start of the next text can go). */
  before: boolean;
  /** Whether there is a break after (whitespace at the end of the last text can go). */
  after: boolean;
}

interface MinifyResult {
  remove: boolean;
  ignore: boolean;
  stripAtStart: boolean;
}

/** Elements that break the line, so whitespace beside them shows nothing (hast-util-minify-whitespace's `blocks`). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'col', 'colgroup', 'dd', 'dialog', 'dir',
  'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup',
  'hr', 'html', 'legend', 'li', 'listing', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre',
  'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'wbr', 'xmp',
]);
/** Elements that show something themselves, so whitespace beside them counts: form controls and hast-util-embedded's list. */
const CONTENT = new Set(['button', 'input', 'select', 'textarea', 'audio', 'canvas', 'embed', 'iframe', 'img', 'math', 'object', 'picture', 'svg', 'video']);
/** Elements whose content is never rendered. */
const SKIPPABLE = new Set([
  'area', 'base', 'basefont', 'dialog', 'datalist', 'head', 'link', 'meta', 'noembed', 'noframes', 'param', 'rp', 'script',
  'source', 'style', 'template', 'track', 'title',
]);

const WHITESPACE_RUN = /[\t\n\v\f\r ]+/g;
/** hast-util-whitespace's test: HTML's ASCII whitespace only (no vertical tab). */
const HTML_WHITESPACE_ONLY = /^[ \t\n\f\r]*$/;

/** Collapses whitespace in `tree` in place, as hast-util-minify-whitespace does with `newlines: false`. */
export function minifyWhitespace(tree: Nodes): void {
  minify(tree, { whitespace: 'normal', before: false, after: false });
}

function minify(node: Nodes, state: MinifyState): MinifyResult {
  if ('children' in node) {
    const breaks = node.type === 'root' || isBlock(node);
    return all(node, {
      whitespace: inferWhitespace(node, state),
      before: breaks ? true : state.before,
      after: breaks ? true : state.after,
    });
  }
  if (node.type === 'text') {
    if (state.whitespace === 'normal') return minifyText(node, state);
    // Collapsed but not trimmed; `pre` and `pre-wrap` keep their whitespace as it is.
    if (state.whitespace === 'nowrap') node.value = collapse(node.value);
  }
  return { ignore: isIgnorable(node), stripAtStart: false, remove: false };
}

function minifyText(node: Text, state: MinifyState): MinifyResult {
  const value = collapse(node.value);
  const result = { ignore: false, stripAtStart: false, remove: false };
  let start = 0;
  let end = value.length;
  if (state.before && value.charAt(0) === ' ') start += 1;
  if (start !== end && value.charAt(end - 1) === ' ') {
    if (state.after) end -= 1;
    else result.stripAtStart = true;
  }
  if (start === end) result.remove = true;
  else node.value = value.slice(start, end);
  return result;
}

function all(parent: Parents, state: MinifyState): MinifyResult {
  let before = state.before;
  const after = state.after;
  const children: RootContent[] = parent.children;
  let length = children.length;
  for (let index = 0; index < length; index += 1) {
    const child = children[index] as RootContent;
    const result = minify(child, { whitespace: state.whitespace, after: collapsableAfter(children, index, after), before });
    if (result.remove) {
      children.splice(index, 1);
      index -= 1;
      length -= 1;
    } else if (!result.ignore) {
      before = result.stripAtStart;
    }
    // An element that shows something (an `<img>`, a `<select>`) allows whitespace again.
    // After a removal this looks at the child before, as the library does.
    const current = children[index];
    if (current !== undefined && isContent(current)) before = false;
  }
  return { ignore: false, stripAtStart: before || after, remove: false };
}

/** Whether there is a break after the node at `index`: the first sibling (or descendant) that decides it. */
function collapsableAfter(nodes: readonly RootContent[], index: number, after: boolean): boolean;
function collapsableAfter(nodes: readonly RootContent[], index: number, after: undefined): boolean | undefined;
function collapsableAfter(nodes: readonly RootContent[], index: number, after: boolean | undefined): boolean | undefined {
  for (let next = index + 1; next < nodes.length; next += 1) {
    const node = nodes[next] as RootContent;
    let result = inferBoundary(node);
    if (result === undefined && 'children' in node && !isSkippable(node)) result = collapsableAfter(node.children, -1, undefined);
    if (result !== undefined) return result;
  }
  return after;
}

/** `true`: whitespace around the node shows nothing; `false`: it shows; `undefined`: unknown. */
function inferBoundary(node: RootContent): boolean | undefined {
  if (node.type === 'element') {
    if (isContent(node)) return false;
    if (BLOCKS.has(node.tagName)) return true;
    return undefined;
  }
  if (node.type === 'text') return HTML_WHITESPACE_ONLY.test(node.value) ? undefined : false;
  return isIgnorable(node) ? undefined : false;
}

function inferWhitespace(node: Parents, state: MinifyState): Whitespace {
  if (node.type !== 'element') return state.whitespace;
  switch (node.tagName) {
    // Whitespace in scripts and styles may mean something to JavaScript or CSS.
    case 'listing':
    case 'plaintext':
    case 'script':
    case 'style':
    case 'xmp':
      return 'pre';
    case 'nobr':
      return 'nowrap';
    case 'pre':
      return node.properties.wrap ? 'pre-wrap' : 'pre';
    case 'td':
    case 'th':
      return node.properties.noWrap ? 'nowrap' : state.whitespace;
    case 'textarea':
      return 'pre-wrap';
    default:
      return state.whitespace;
  }
}

function isBlock(node: Parents): boolean {
  return node.type === 'element' && BLOCKS.has(node.tagName);
}

function isContent(node: Nodes): boolean {
  return node.type === 'element' && CONTENT.has(node.tagName);
}

function isSkippable(node: Element | Parents): boolean {
  return node.type === 'element' && (Boolean(node.properties.hidden) || SKIPPABLE.has(node.tagName));
}

function isIgnorable(node: Nodes): boolean {
  return node.type === 'comment' || node.type === 'doctype';
}

function collapse(value: string): string {
  return value.replace(WHITESPACE_RUN, ' ');
}
