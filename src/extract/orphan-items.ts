import { selectAll, selectOne } from 'css-select';
import type { AnyNode, ChildNode, Element } from 'domhandler';
import { append } from 'domutils';
import { hasAncestor } from './entries.js';
import { isAnchorMarker } from './heading-anchors.js';

const HEADING = /^h[1-6]$/;
const LISTS = /^(?:ul|ol|menu)$/;

/**
 * A list item outside any list is broken markup (`<p><li>…</ul></p>` in SQLite's C API page):
 * the parser keeps it open to the end of its parent, so every heading after it, and hundreds of
 * API entries with them, would be text of one list item, cited at the entry before it. From its
 * first heading on, what such an item holds goes back out after it, where the author put it.
 * An item inside a real list, however deeply wrapped, that holds headings (a list of steps) is
 * the author's and stays.
 */
export function hoistHeadingsFromOrphanItems(root: Element): void {
  for (const item of selectAll('li', root)) {
    // A list around the item, however deep (`<ul><div><li>`, a framework's wrapper), makes it a real list's.
    if (item.parent === null || hasAncestor(item, root, LISTS)) continue;
    let start = item.children.findIndex(holdsHeading);
    if (start < 0) continue;
    // The heading's anchor target and rule go out with it: `<hr><a name="x"></a><h2>`.
    while (start > 0 && leadsIn(item.children[start - 1] as ChildNode)) start -= 1;
    let after: ChildNode = item;
    for (const node of item.children.slice(start)) {
      append(after, node);
      after = node;
    }
  }
}

/** What may stand right before a heading as part of it: its anchor target, a rule, blank text. */
function leadsIn(node: ChildNode): boolean {
  if (node.type === 'text') return node.data.trim() === '';
  if (node.type === 'tag' && node.name === 'hr') return true;
  return isAnchorMarker(node);
}

function holdsHeading(node: AnyNode): boolean {
  if (node.type !== 'tag') return false;
  const element = node as Element;
  return HEADING.test(element.name) || selectOne('h1, h2, h3, h4, h5, h6', element) !== null;
}
