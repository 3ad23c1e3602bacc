import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root, Text } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { type Handle, toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { returnsUnchanged, text } from './markdown-text.js';

/**
 * Writes `tree` with a text handler that asks both `returnsUnchanged` and `state.safe` about
 * every text (and every peek at one): whenever the shortcut says "unchanged", safe must agree.
 */
function checkShortcut(tree: Root): { unchanged: number; escaped: number } {
  const counts = { unchanged: 0, escaped: 0 };
  const checking: Handle = (node: Text, parent, state, info) => {
    const siblings = parent === undefined ? [] : parent.children;
    const index = state.indexStack.at(-1) ?? -1;
    const config = { ...info, afterNode: siblings[index + 1], beforeNode: siblings[index - 1] };
    if (returnsUnchanged(state, node.value, config)) {
      counts.unchanged += 1;
      expect(state.safe(node.value, config), JSON.stringify({ value: node.value, before: info.before, after: info.after, stack: state.stack })).toBe(node.value);
    } else {
      counts.escaped += 1;
    }
    return text(node, parent, state, info);
  };
  toMarkdown(tree, { handlers: { text: checking }, extensions: [gfmTableToMarkdown()] });
  return counts;
}

const paragraph = (...values: string[]): Root => ({ type: 'root', children: [{ type: 'paragraph', children: values.map((value) => ({ type: 'text', value })) }] });

describe('text', () => {
  it('escapes every underscore and what Markdown would read as syntax, and leaves plain prose as it is', () => {
    const write = (tree: Root) => toMarkdown(tree, { handlers: { text } }).trim();
    expect(write(paragraph('preexec_fn and * stars'))).toBe('preexec\\_fn and \\* stars');
    expect(write(paragraph('# not a heading'))).toBe('\\# not a heading');
    expect(write(paragraph('Plain prose, with punctuation: (a) and 3.14.'))).toBe('Plain prose, with punctuation: (a) and 3.14.');
  });
});

describe('returnsUnchanged', () => {
  it.each([
    ['markers at the start of a line', paragraph('# a', '1. b', '- c', '+ d', '> e', '= f', '~ g', '| h', ': -i', '2) j')],
    ['markers inside a line', paragraph('a * b _ c ` d [e] f <g> h &amp; i !', '[j', '](k) l')],
    ['backslashes, before punctuation and not', paragraph('a \\ b', 'c \\* d', 'e\\', '*f', 'g \\$ h, i \\, j')],
    ['spaces next to line endings', paragraph('a \n b', ' c\r\nd ', 'e\t\nf')],
    ['text in links, headings, emphasis and table cells', {
      type: 'root',
      children: [
        { type: 'heading', depth: 2, children: [{ type: 'text', value: 'Title #' }, { type: 'emphasis', children: [{ type: 'text', value: '*x*' }] }] },
        { type: 'paragraph', children: [{ type: 'link', url: 'https://example.com/a_b', children: [{ type: 'text', value: 'a [b] c' }] }, { type: 'text', value: ' (see it)' }] },
        { type: 'paragraph', children: [{ type: 'link', url: 'https://example.com', children: [{ type: 'text', value: 'https://example.com' }] }] },
        { type: 'table', children: [{ type: 'tableRow', children: [{ type: 'tableCell', children: [{ type: 'text', value: 'a | b' }] }, { type: 'tableCell', children: [{ type: 'text', value: 'c' }] }] }] },
      ],
    } satisfies Root],
  ])('agrees with state.safe: %s', (_name, tree) => {
    const counts = checkShortcut(tree);
    expect(counts.unchanged + counts.escaped).toBeGreaterThan(0);
  });

  it('agrees with state.safe on every text of the fixture pages, and spares safe most of them', () => {
    const folder = join(import.meta.dirname, 'fixtures');
    const totals = { unchanged: 0, escaped: 0 };
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.html'))) {
      const { markdown } = extractHtml(readFileSync(join(folder, name), 'utf8'), `https://docs.example.com/${name}`);
      const counts = checkShortcut(fromMarkdown(markdown));
      totals.unchanged += counts.unchanged;
      totals.escaped += counts.escaped;
    }
    expect(totals.unchanged).toBeGreaterThan(totals.escaped);
  });
});
