import { describe, expect, it } from 'vitest';
import type { PageInspection } from '../../engine/engine-types.js';
import { loadTokenizer } from '../../tokenize/tokenizer.js';
import { readPage } from './page-tool.js';

const tokenizer = await loadTokenizer('o200k_base');
const url = 'https://d.example/library/operator.html';
const chunk = (anchor: string, headingPath: string[], text: string) => ({ anchor, headingPath, text, tokenCount: 10 });
/** A page as the index holds it: an entry under two names, a function with a Parameters part, another entry. */
const page: PageInspection = {
  url,
  title: 'operator',
  anchors: ['g-hash-table-insert', 'g-hash-table-insert.parameters', 'impl-Extend%3C(K%2C%20V)%3E', 'operator', 'operator.__xor__', 'operator.not_', 'operator.xor'],
  headings: [],
  chunks: [
    chunk('operator', ['operator'], '# operator'),
    chunk('operator.xor', ['operator', 'operator.xor(a, b); operator.__xor__(a, b)'], 'Return the bitwise exclusive or.'),
    chunk('operator.not_', ['operator', 'operator.not_(obj)'], 'Return the outcome of not obj.'),
    chunk('g-hash-table-insert', ['operator', 'g_hash_table_insert ()'], 'Inserts a new key. Parameters: key'),
    chunk('impl-Extend%3C(K%2C%20V)%3E', ['operator', 'impl Extend<(K, V)> for HashMap'], 'Extends a collection.'),
  ],
};
const engine = { inspect: async (asked: string) => (asked.startsWith(url) ? page : undefined) };
const read = async (anchor: string) => (await readPage(engine, { url: `${url}#${anchor}`, maxTokens: 500 }, tokenizer)).structured.text;

describe('get_page on an anchor that marks no section of its own', () => {
  it("opens the entry that lists it among its names (a name joined into another's entry)", async () => {
    expect(await read('operator.__xor__')).toBe('Return the bitwise exclusive or.');
  });

  it('opens the section whose anchor it extends (gtk-doc’s #g-hash-table-insert.parameters)', async () => {
    expect(await read('g-hash-table-insert.parameters')).toBe('Inserts a new key. Parameters: key');
  });

  it('opens a section whose id holds percent escapes (rustdoc), as the id is written and as its search results cite it', async () => {
    expect(await read('impl-Extend%3C(K%2C%20V)%3E')).toBe('Extends a collection.');
  });

  it('still names an anchor the page does not have', async () => {
    await expect(read('operator.nope')).rejects.toThrow(/has no section #operator\.nope/);
  });
});
