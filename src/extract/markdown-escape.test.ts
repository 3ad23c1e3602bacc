import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { defaultHandlers, type Handle, toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { returnsUnchanged, root } from './markdown-escape.js';

/**
 * Writes `tree` with a state.safe that asks both `returnsUnchanged` and the library about
 * every string (texts, peeks at texts, link destinations, titles): whenever the shortcut says
 * "unchanged", the library must agree.
 */
function checkShortcut(tree: Root): { unchanged: number; escaped: number } {
  const counts = { unchanged: 0, escaped: 0 };
  const checkingRoot: Handle = (node: Root, parent, state, info) => {
    const safe = state.safe;
    state.safe = (input, config) => {
      const written = safe.call(state, input, config);
      if (input && returnsUnchanged(state, input, config)) {
        counts.unchanged += 1;
        expect(written, JSON.stringify({ input, before: config.before, after: config.after, stack: state.stack })).toBe(input);
      } else {
        counts.escaped += 1;
      }
      return written;
    };
    return defaultHandlers.root(node, parent, state, info);
  };
  toMarkdown(tree, { handlers: { root: checkingRoot }, extensions: [gfmTableToMarkdown()] });
  return counts;
}

const paragraph = (...values: string[]): Root => ({ type: 'root', children: [{ type: 'paragraph', children: values.map((value) => ({ type: 'text', value })) }] });

describe('root', () => {
  it('writes what the library writes: escapes what Markdown would read as syntax, leaves plain prose as it is', () => {
    const write = (tree: Root, handlers = {}) => toMarkdown(tree, { handlers, extensions: [gfmTableToMarkdown()] });
    const trees = [
      paragraph('a_b and * stars'),
      paragraph('# not a heading'),
      paragraph('Plain prose, with punctuation: (a) and 3.14.'),
      { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'link', url: 'https://example.com/a(b)', title: 'say "hi"', children: [{ type: 'text', value: 'link' }] }] }] } satisfies Root,
    ];
    for (const tree of trees) expect(write(tree, { root })).toBe(write(tree));
    expect(write(paragraph('# not a heading'), { root })).toBe('\\# not a heading\n');
  });
});

describe('returnsUnchanged', () => {
  it.each([
    ['markers at the start of a line', paragraph('# a', '1. b', '- c', '+ d', '> e', '= f', '~ g', '| h', ': -i', '2) j')],
    ['markers inside a line', paragraph('a * b _ c ` d [e] f <g> h &amp; i !', '[j', '](k) l')],
    ['backslashes, before punctuation and not', paragraph('a \\ b', 'c \\* d', 'e\\', '*f', 'g \\$ h, i \\, j')],
    ['spaces next to line endings', paragraph('a \n b', ' c\r\nd ', 'e\t\nf')],
    ['text in links, link destinations and titles, headings, emphasis and table cells', {
      type: 'root',
      children: [
        { type: 'heading', depth: 2, children: [{ type: 'text', value: 'Title #' }, { type: 'emphasis', children: [{ type: 'text', value: '*x*' }] }] },
        { type: 'paragraph', children: [{ type: 'link', url: 'https://example.com/a_b(c)&d', children: [{ type: 'text', value: 'a [b] c' }] }, { type: 'text', value: ' (see it)' }] },
        { type: 'paragraph', children: [{ type: 'link', url: 'https://example.com/x y', title: 'it\'s "quoted"', children: [{ type: 'text', value: 'spaced' }] }] },
        { type: 'paragraph', children: [{ type: 'link', url: 'https://example.com', children: [{ type: 'text', value: 'https://example.com' }] }] },
        { type: 'table', children: [{ type: 'tableRow', children: [{ type: 'tableCell', children: [{ type: 'text', value: 'a | b' }] }, { type: 'tableCell', children: [{ type: 'text', value: 'c' }] }] }] },
      ],
    } satisfies Root],
  ])('agrees with state.safe: %s', (_name, tree) => {
    const counts = checkShortcut(tree);
    expect(counts.unchanged + counts.escaped).toBeGreaterThan(0);
  });

  it('agrees with state.safe on every string of the fixture pages, and spares the library most of them', () => {
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
