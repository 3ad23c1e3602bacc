import type { Element } from 'hast';
import type { State } from 'hast-util-to-mdast';
import type { Nodes as MdastNodes, PhrasingContent, RootContent, Table, TableCell, TableRow } from 'mdast';
import { textContent } from './markdown-hast.js';

/**
 * HTML tables → GFM tables, in time linear in the table (PostgreSQL's 836-row keyword table
 * took 36 s with a quadratic plugin once). The first row is the header, as readers of
 * documentation tables expect even without `<th>`; a caption becomes a line above; rows
 * without cells are dropped. A layout table (Sphinx's index pages: one row of cells holding
 * long lists) is not data and would be one endless unsplittable row: it becomes its content.
 */
export function table(state: State, node: Element): MdastNodes | MdastNodes[] | undefined {
  const rows = rowsOf(node);
  if (isLayoutTable(node, rows)) return joinLists(rows.flatMap((row) => cellsOf(row).flatMap((cell) => state.toFlow(state.all(cell)))));
  // A table inside a data table's cell cannot be a GFM table: its text stays in the cell.
  if (state.inTable) return { type: 'text', value: collapse(rows.flatMap(cellsOf).map(textContent).join(' ')) };
  state.inTable = true;
  const children: TableRow[] = [];
  for (const row of rows) {
    const cells = cellsOf(row);
    if (cells.length > 0) children.push({ type: 'tableRow', children: cells.map((cell) => tableCell(state, cell)) });
  }
  state.inTable = false;
  if (children.length === 0) return undefined;
  const result: Table = { type: 'table', align: [], children };
  state.patch(node, result);
  const caption = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'caption');
  const captionText = caption === undefined ? '' : collapse(textContent(caption));
  return captionText === '' ? result : [{ type: 'paragraph', children: [{ type: 'text', value: captionText }] }, result];
}

/** A list split over a layout table's columns (an index, A to Z) is one list again. */
function joinLists(blocks: MdastNodes[]): MdastNodes[] {
  const joined: MdastNodes[] = [];
  for (const block of blocks) {
    const previous = joined.at(-1);
    if (block.type === 'list' && previous?.type === 'list' && previous.ordered === block.ordered) previous.children.push(...block.children);
    else joined.push(block);
  }
  return joined;
}

function tableCell(state: State, cell: Element): TableCell {
  const result: TableCell = { type: 'tableCell', children: trimEnds(toPhrasing(state.all(cell))) };
  state.patch(cell, result);
  return result;
}

const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'link', 'linkReference', 'image', 'imageReference', 'footnoteReference', 'break', 'html']);

/** A cell holds one line: its paragraphs, lists and code run on, separated by spaces. */
function toPhrasing(nodes: readonly RootContent[]): PhrasingContent[] {
  const phrasing: PhrasingContent[] = [];
  const separate = () => {
    if (phrasing.length > 0) phrasing.push({ type: 'text', value: ' ' });
  };
  for (const node of nodes) {
    if (PHRASING.has(node.type)) phrasing.push(node as PhrasingContent);
    else if (node.type === 'code') {
      separate();
      phrasing.push({ type: 'inlineCode', value: collapse(node.value) });
    } else if ('children' in node) {
      separate();
      phrasing.push(...toPhrasing(node.children));
    } else if ('value' in node) {
      separate();
      phrasing.push({ type: 'text', value: collapse(node.value) });
    }
  }
  return phrasing;
}

function trimEnds(phrasing: PhrasingContent[]): PhrasingContent[] {
  const first = phrasing[0];
  if (first?.type === 'text') first.value = first.value.trimStart();
  const last = phrasing.at(-1);
  if (last?.type === 'text') last.value = last.value.trimEnd();
  return phrasing.filter((node) => node.type !== 'text' || node.value !== '');
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The table's rows, in order, not those of tables nested in its cells. */
function rowsOf(tableElement: Element): Element[] {
  const rows: Element[] = [];
  const visit = (element: Element): void => {
    for (const child of element.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'tr') rows.push(child);
      else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') visit(child);
    }
  };
  visit(tableElement);
  return rows;
}

function cellsOf(row: Element): Element[] {
  return row.children.filter((child): child is Element => child.type === 'element' && (child.tagName === 'td' || child.tagName === 'th'));
}

const LAYOUT_CONTENT = new Set(['ul', 'ol', 'dl', 'table', 'pre']);

/** No header cells, and a single row or cells holding lists, nested tables or code: layout, not data. */
function isLayoutTable(tableElement: Element, rows: readonly Element[]): boolean {
  let headerCells = false;
  let rowCount = 0;
  let blockInCell = false;
  // Like the DOM's querySelector on the table: nested tables count too.
  const visit = (element: Element): void => {
    for (const child of element.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'th') headerCells = true;
      if (child.tagName === 'tr') rowCount += 1;
      if (element.tagName === 'td' && LAYOUT_CONTENT.has(child.tagName)) blockInCell = true;
      visit(child);
    }
  };
  visit(tableElement);
  return rows.length > 0 && !headerCells && (rowCount <= 1 || blockInCell);
}
