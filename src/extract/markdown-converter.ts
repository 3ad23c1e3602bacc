import type { Element, Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { defaultHandlers, type Handle, type State, toMdast } from 'hast-util-to-mdast';
import type { Code, Nodes as MdastNodes, Table, Text } from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { defaultHandlers as markdownHandlers, toMarkdown } from 'mdast-util-to-markdown';
import { parseFragment } from 'parse5';
import { LANGUAGE_PROPERTY, markCodeLanguages, moveSpacesOutOfEmphasis, preformattedText, textContent } from './markdown-hast.js';
import { table } from './markdown-tables.js';
import { root } from './markdown-escape.js';
import { minifyWhitespace } from './minify-whitespace.js';

/**
 * The element toMdast is given in place of the page: its handler converts the page's tree,
 * minified by us. toMdast deep-copies its input and minifies the copy's whitespace, the two
 * costliest steps of the conversion; on this one empty element both cost nothing, while the
 * page's tree, built for this call alone, is minified in place, once, by a faster equivalent.
 */
const PAGE_PLACEHOLDER = 'citedocs-page';

/**
 * Converts HTML, or the hast tree of an HTML fragment, to Markdown. A tree is the converter's
 * to change: it is minified and annotated in place.
 */
export type MarkdownConverter = (input: string | Root) => string;

/**
 * HTML → Markdown through syntax trees: parse5 → hast → mdast → Markdown (the unified
 * utilities, with GFM for tables). ATX headings, fenced code with its language, `-` bullets,
 * `*` emphasis, GFM tables, images as their alt text. Stateless: one converter serves every page.
 * Tables use our own linear-time handler (see markdown-tables.ts). Where chunk sizes and index
 * terms depend on it, the text is laid out as turndown (the converter before) laid it out:
 * chunking and ranking were tuned on that, and the retrieval figures hold only with it.
 */
export function createMarkdownConverter(): MarkdownConverter {
  const handlers: Record<string, Handle> = {
    pre: preformatted,
    img: imageAlt,
    image: imageAlt,
    a: link,
    code: inlineCode,
    table,
    // A definition list is documentation's API layout (Sphinx, Javadoc): its terms and
    // descriptions are blocks, not the bullet list hast-util-to-mdast would make of them.
    dl: flow,
    dt: flow,
    dd: flow,
    // MathML's text is the formula as written, and struck-out text is still text: kept as is.
    math: phrasing,
    sup: superscript,
    del: phrasing,
    s: phrasing,
    strike: phrasing,
    // A place a long name may wrap (Javadoc 17's `abbreviate(<wbr>String`), not a character: as
    // the zero-width space hast-util-to-mdast makes of it, it hid inside names and signatures.
    wbr: () => undefined,
  };
  let page: Root = { type: 'root', children: [] };
  handlers[PAGE_PLACEHOLDER] = (state) => {
    indexElementsById(state, page);
    return state.one(page, undefined);
  };
  // Comments are the page author's notes (Doxygen's `<!--End of Navigation Panel-->`), not content.
  const options = { handlers, nodeHandlers: { comment: () => undefined } };
  const placeholder: Element = { type: 'element', tagName: PAGE_PLACEHOLDER, properties: {}, children: [] };
  return (input) => {
    const tree = typeof input === 'string' ? (fromParse5(parseFragment(input)) as Root) : input;
    markCodeLanguages(tree);
    minifyWhitespace(tree);
    page = tree;
    const mdast = toMdast(placeholder, options);
    moveSpacesOutOfEmphasis(mdast);
    return toMarkdown(mdast, {
      bullet: '-',
      emphasis: '*',
      strong: '*',
      fences: true,
      // Turndown's list and rule layout, which chunk sizes and retrieval were tuned with.
      listItemIndent: 'tab',
      rule: '*',
      ruleSpaces: true,
      handlers: {
        // A line break as two trailing spaces, not a backslash in the passage's text.
        break: (...args) => markdownHandlers.break(...args).replace('\\\n', '  \n'),
        // Every underscore in text escaped, as turndown did (`preexec\_fn`; code keeps its own):
        // written bare, identifiers in prose become compound index terms and cost fewer tokens,
        // which moved BM25 lengths and chunk boundaries enough to lose questions (python, gnuplot).
        text: (...args) => markdownHandlers.text(...args).replace(/(?<!\\)_/g, '\\_'),
        // Escaping with a shortcut for the strings that need none (see markdown-escape.ts).
        root,
      },
      // GFM tables only: the autolink-literal rules would escape every URL and `www.` in text.
      extensions: [tables],
    }).trim();
  };
}

/**
 * GFM tables written as before (rows as they are, not padded to the widest cell or to the
 * column count, which costs tokens in every row of a long table; `| --- |` delimiters), with
 * mdast-util-gfm-table's cell writer, which escapes pipes and keeps each cell on one line.
 */
const gfmTables = gfmTableToMarkdown();
const tables: typeof gfmTables = {
  ...gfmTables,
  handlers: {
    ...gfmTables.handlers,
    table: (node: Table, _parent, state, info) => {
      const writeCell = gfmTables.handlers?.tableCell;
      if (writeCell === undefined) throw new Error('mdast-util-gfm-table has no tableCell writer');
      const exit = state.enter('table');
      const rows = node.children.map((row) => `|${row.children.map((cell) => ` ${writeCell(cell, row, state, info).trim()} |`).join('')}`);
      exit();
      const columns = Math.max(1, ...node.children.map((row) => row.children.length));
      return [rows[0], `|${' --- |'.repeat(columns)}`, ...rows.slice(1)].join('\n');
    },
  },
};

/** What toMdast does before converting: the first element of each id, for handlers that follow references (`<input list>`). */
function indexElementsById(state: State, node: Root | Element): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    const id = String(child.properties.id || '') || undefined;
    if (id !== undefined && !state.elementById.has(id)) state.elementById.set(id, child);
    indexElementsById(state, child);
  }
}

function phrasing(state: State, node: Element): MdastNodes[] {
  return state.all(node);
}

/** A superscript is a power or a mark: `2<sup>7</sup>` reads 2^7 and `x<sup>n+1</sup>` x^(n+1), never 27 or xn+1 (Markdown has no superscript). */
function superscript(state: State, node: Element): MdastNodes[] {
  const children = state.all(node);
  const text = textContent(node).trim();
  if (text === '') return children;
  return /^[\p{L}\p{N}]+$/u.test(text) ? [{ type: 'text', value: '^' }, ...children] : [{ type: 'text', value: '^(' }, ...children, { type: 'text', value: ')' }];
}

function flow(state: State, node: Element): MdastNodes[] {
  return state.toFlow(state.all(node));
}

function preformatted(state: State, node: Element): Code {
  // A no-break space in code (Javadoc's `public&nbsp;boolean`) is a space to whoever copies it.
  const value = preformattedText(node).replace(/\u00a0/g, ' ').replace(/\n+$/, '');
  const language = node.properties[LANGUAGE_PROPERTY];
  // mdast-util-to-markdown fences it with more backticks than any run inside, so it cannot close early.
  const result: Code = { type: 'code', lang: typeof language === 'string' && language !== '' ? language : null, meta: null, value };
  state.patch(node, result);
  return result;
}

function imageAlt(_state: State, node: Element): Text | undefined {
  const alt = String(node.properties.alt ?? '').trim();
  return alt === '' ? undefined : { type: 'text', value: alt };
}

/** Inline code of nothing but spaces (gnuplot's table of `<code> </code>` cells) is a space. */
function inlineCode(state: State, node: Element): MdastNodes | undefined {
  const result = defaultHandlers.code(state, node);
  // Code is copied: a no-break space between a type and its name (Javadoc's `T&nbsp;object`) is a space.
  result.value = result.value.replace(/\u00a0/g, ' ');
  if (result.value.trim() !== '') return result;
  return result.value === '' ? undefined : { type: 'text', value: ' ' };
}

/** An anchor without a target (`<a name>`, `<a id>`, `href=""`, `href="javascript:…"`) is a link to nowhere: its text only. */
function link(state: State, node: Element): MdastNodes | MdastNodes[] {
  const href = node.properties.href;
  if (href === undefined || href === null || String(href).trim() === '' || /^\s*javascript:/i.test(String(href))) return state.all(node);
  // A URL that carries a whole document (a playground's "Run" link holds its example, encoded)
  // is data, not a place to send a reader: hundreds of tokens in a passage for one word of text.
  if (String(href).length > MAX_LINK_URL) return state.all(node);
  return defaultHandlers.a(state, node);
}

/** The longest URL a link keeps: 512 characters is far past any page's address, and short of an encoded example. */
const MAX_LINK_URL = 512;
