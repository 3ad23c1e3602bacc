import type { AnyNode, Element } from 'domhandler';
import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

/**
 * The hast tree of a cheerio element, the same tree the Markdown converter gets from its
 * outer HTML (`$.html(element)` re-parsed with parse5's `parseFragment`), without writing
 * and parsing the page a second time. The nodes are handed to hast-util-from-parse5 in the
 * shape of parse5's own tree, so attributes become properties exactly as before.
 *
 * Re-parsing is not always the identity: the parser merges adjacent texts, drops the newline
 * that opens a `<pre>`, turns CR into LF, and repairs nesting a full parse never makes but
 * cheerio's edits (or a quirks-mode page: `<p><table>`) can (blocks in a `<p>`, a link in a
 * link, cells outside rows). The first three are done here; for the last, `undefined` is
 * returned and the caller re-parses as before. A test compares both ways on every fixture page.
 */
export function domToHast(element: Element): Root | undefined {
  const rootChildren = UNWRAPPED.has(element.name) && namespaceOf(element) === HTML ? element.children : [element];
  if (REPARSE_ONLY.has(element.name) || TABLE_PARTS.has(element.name)) return undefined;
  const context: Context = { paragraphs: 0, links: 0, headings: 0, listItems: 0, definitions: 0, forms: 0, buttons: 0 };
  const childNodes = shapeChildren(rootChildren, context, undefined);
  if (childNodes === undefined) return undefined;
  const fragment: ShapedNode = { nodeName: '#document-fragment', childNodes };
  return fromParse5(fragment as unknown as DefaultTreeAdapterMap['documentFragment']) as Root;
}

/** The fields of parse5's default tree that hast-util-from-parse5 reads. */
interface ShapedNode {
  nodeName: string;
  tagName?: string;
  namespaceURI?: string;
  attrs?: { name: string; value: string; prefix?: string }[];
  childNodes?: ShapedNode[];
  value?: string;
  data?: string;
}

/** How many open elements of each kind the parser would look back at. */
interface Context {
  paragraphs: number;
  links: number;
  headings: number;
  listItems: number;
  definitions: number;
  forms: number;
  buttons: number;
}

const HTML = 'http://www.w3.org/1999/xhtml';
/** Start tags ignored by parseFragment (its context is a template): the element's children stand alone. */
const UNWRAPPED = new Set(['body']);
/** Elements whose parsing depends on more than their ancestors: left to the parser. */
const REPARSE_ONLY = new Set(['html', 'head', 'frameset', 'frame', 'template', 'select', 'plaintext', 'image', 'isindex', 'nobr', 'ruby', 'rb', 'rp', 'rt', 'rtc', 'option', 'optgroup', 'datalist']);
/** Elements whose start tag closes an open `<p>` (in no-quirks mode; in quirks mode, all but `table`). */
const CLOSES_PARAGRAPH = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figcaption', 'figure',
  'footer', 'header', 'hgroup', 'main', 'menu', 'nav', 'ol', 'p', 'search', 'section', 'summary', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'pre', 'listing', 'form', 'li', 'dd', 'dt', 'table', 'hr', 'xmp', 'plaintext',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Elements whose text is written raw, so their own end tag inside it would end them early on re-parsing. */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
/** Elements whose first newline the parser drops. */
const LEADING_NEWLINE = new Set(['pre', 'listing', 'textarea']);
/** Which parent each table part must have, and which children a table element may hold, for the parser to keep them in place. */
const TABLE_PARTS = new Set(['caption', 'colgroup', 'col', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th']);
const TABLE_CHILDREN: Record<string, Set<string>> = {
  table: new Set(['caption', 'colgroup', 'tbody', 'thead', 'tfoot', 'script', 'style']),
  tbody: new Set(['tr', 'script', 'style']),
  thead: new Set(['tr', 'script', 'style']),
  tfoot: new Set(['tr', 'script', 'style']),
  tr: new Set(['td', 'th', 'script', 'style']),
  colgroup: new Set(['col']),
};
const TABLE_PARENTS: Record<string, Set<string>> = {
  caption: new Set(['table']),
  colgroup: new Set(['table']),
  col: new Set(['colgroup']),
  tbody: new Set(['table']),
  thead: new Set(['table']),
  tfoot: new Set(['table']),
  tr: new Set(['tbody', 'thead', 'tfoot']),
  td: new Set(['tr']),
  th: new Set(['tr']),
};

/** The children as parse5 would hold them after re-parsing, or undefined when it might hold them otherwise. */
function shapeChildren(children: readonly AnyNode[], context: Context, parent: Element | undefined): ShapedNode[] | undefined {
  const shaped: ShapedNode[] = [];
  const tableChildren = parent === undefined || namespaceOf(parent) !== HTML ? undefined : TABLE_CHILDREN[parent.name];
  // Adjacent texts become one, as they do when the HTML is parsed again.
  let pendingText = '';
  for (const child of children) {
    if (child.type === 'text') {
      if (child.data.includes('\0')) return undefined;
      if (tableChildren !== undefined && !/^[\t\n\f\r ]*$/.test(child.data)) return undefined;
      pendingText += child.data;
      continue;
    }
    if (pendingText !== '') shaped.push({ nodeName: '#text', value: pendingText });
    pendingText = '';
    if (child.type === 'comment') {
      if (/--!?>|^-?>/.test(child.data)) return undefined;
      shaped.push({ nodeName: '#comment', data: child.data });
    } else if (child.type === 'tag' || child.type === 'script' || child.type === 'style') {
      if (tableChildren !== undefined && !tableChildren.has(child.name)) return undefined;
      const element = shapeElement(child, context, parent);
      if (element === undefined) return undefined;
      shaped.push(element);
    } else {
      // CDATA, processing instructions, documents: nothing a parse of a page's body leaves here.
      return undefined;
    }
  }
  if (pendingText !== '') shaped.push({ nodeName: '#text', value: pendingText });
  // The parser turns CR and CRLF into LF before anything else, then drops a `<pre>`'s first LF.
  for (const node of shaped) {
    if (node.value?.includes('\r')) node.value = normaliseNewlines(node.value);
    if (node.data?.includes('\r')) node.data = normaliseNewlines(node.data);
  }
  if (parent !== undefined && namespaceOf(parent) === HTML && LEADING_NEWLINE.has(parent.name)) dropLeadingNewline(shaped);
  return shaped;
}

function shapeElement(element: Element, context: Context, parent: Element | undefined): ShapedNode | undefined {
  const name = element.name;
  const html = namespaceOf(element) === HTML;
  if (html) {
    if (REPARSE_ONLY.has(name) || UNWRAPPED.has(name)) return undefined;
    if (context.paragraphs > 0 && CLOSES_PARAGRAPH.has(name)) return undefined;
    if (context.links > 0 && name === 'a') return undefined;
    if (context.headings > 0 && HEADINGS.has(name)) return undefined;
    if (context.listItems > 0 && name === 'li') return undefined;
    if (context.definitions > 0 && (name === 'dd' || name === 'dt')) return undefined;
    if ((context.forms > 0 && name === 'form') || (context.buttons > 0 && name === 'button')) return undefined;
    if (VOID.has(name) && element.children.length > 0) return undefined;
    if (TABLE_PARTS.has(name) && (parent === undefined || namespaceOf(parent) !== HTML || !TABLE_PARENTS[name]?.has(parent.name))) return undefined;
    if (RAW_TEXT.has(name) && element.children.some((child) => child.type !== 'text' || child.data.toLowerCase().includes(`</${name}`))) return undefined;
  } else if (parent !== undefined && namespaceOf(parent) === HTML && name !== 'svg' && name !== 'math') {
    return undefined;
  } else if (element.children.some((child) => child.type === 'tag' && namespaceOf(child) === HTML && !INTEGRATION_POINTS.has(name))) {
    return undefined;
  }
  const inner = innerContext(context, html ? name : '');
  const childNodes = shapeChildren(element.children, inner, element);
  if (childNodes === undefined) return undefined;
  // parse5 gives prefixes (`xlink:href`) to attributes of SVG and MathML elements only.
  const prefixes = html ? undefined : element['x-attribsPrefix'];
  const attrs: { name: string; value: string; prefix?: string }[] = [];
  for (const attribute in element.attribs) {
    const value = element.attribs[attribute] ?? '';
    if (value.includes('\0')) return undefined;
    const prefix = prefixes?.[attribute];
    const normalised = value.includes('\r') ? normaliseNewlines(value) : value;
    attrs.push(prefix === undefined ? { name: attribute, value: normalised } : { name: attribute, value: normalised, prefix });
  }
  return { nodeName: name, tagName: name, namespaceURI: namespaceOf(element), attrs, childNodes };
}

/** SVG and MathML elements whose children may be HTML. */
const INTEGRATION_POINTS = new Set(['foreignObject', 'desc', 'title', 'annotation-xml']);

function innerContext(context: Context, name: string): Context {
  switch (name) {
    case 'p':
      return { ...context, paragraphs: context.paragraphs + 1 };
    case 'a':
      return { ...context, links: context.links + 1 };
    case 'li':
      return { ...context, listItems: context.listItems + 1 };
    case 'dd':
    case 'dt':
      return { ...context, definitions: context.definitions + 1 };
    case 'form':
      return { ...context, forms: context.forms + 1 };
    case 'button':
      return { ...context, buttons: context.buttons + 1 };
    // A new list or table scopes what its items may hold.
    case 'ul':
    case 'ol':
    case 'menu':
    case 'dir':
      return { ...context, listItems: 0 };
    case 'dl':
      return { ...context, definitions: 0 };
    case 'table':
    case 'td':
    case 'th':
    case 'caption':
      return { ...context, paragraphs: 0, links: 0, buttons: 0 };
    default:
      return HEADINGS.has(name) ? { ...context, headings: context.headings + 1 } : context;
  }
}

function dropLeadingNewline(nodes: ShapedNode[]): void {
  const first = nodes[0];
  if (first?.nodeName !== '#text' || first.value === undefined || !first.value.startsWith('\n')) return;
  first.value = first.value.slice(1);
  if (first.value === '') nodes.shift();
}

function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** An element's namespace; elements made by our own code (`new Element('h2', …)`) have none and are written, and so re-parsed, as HTML. */
function namespaceOf(element: Element): string {
  return element.namespace ?? HTML;
}
