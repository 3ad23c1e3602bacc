import { describe, expect, it } from 'vitest';
import { FIELDS, fieldsOf } from './fields.js';

const field = (name: (typeof FIELDS)[number], terms: string[][]) => terms[FIELDS.indexOf(name)];

describe('chunk fields', () => {
  it('puts code in the code field, link text (not URLs) and prose in the text field, headings in their own', () => {
    const { terms, links } = fieldsOf({
      pageUrl: 'https://d.example/lib/os.path.html',
      pageTitle: 'os.path — pathnames',
      headingPath: ['os.path', 'os.path.join(path, *paths)'],
      anchor: 'os.path.join',
      text: '## os.path.join(path, *paths)\n\nJoin components, like [`normpath()`](https://d.example/lib/os.path.html#os.path.normpath) does.\n\n```python\nos.path.join("a", "b")\n```',
    });
    expect(field('title', terms)).toEqual(['os', 'path', 'pathnam']);
    expect(field('identifiers', terms)).toEqual(['os', 'path', 'join', 'os.path.join', 'path.join']);
    expect(field('code', terms)).toEqual(expect.arrayContaining(['normpath', 'os.path.join', 'a', 'b']));
    expect(field('text', terms)).toEqual(['join', 'compon', 'like', 'doe']);
    expect(field('text', terms)).not.toContain('https');
    expect(links).toEqual(['https://d.example/lib/os.path.html#os.path.normpath']);
  });

  it('indexes an operator that code in prose names (`EXPR1 // EXPR2`), not every operator of an example', () => {
    const { terms } = fieldsOf({
      pageUrl: 'https://d.example/perlop.html',
      pageTitle: 'perlop',
      headingPath: ['Logical Defined-Or'],
      anchor: 'Logical-Defined-Or',
      text: '## Logical Defined-Or\n\n`EXPR1 // EXPR2` returns EXPR1 if it is defined.\n\n```perl\nmy $x = $a == 1 ? 2 : 3;\n```',
    });
    expect(field('code', terms)).toContain('//');
    expect(field('code', terms)).not.toContain('==');
    // A table of operators: Markdown escapes the pipes of its cells.
    const table = fieldsOf({ pageUrl: 'https://d.example/perlop.html', pageTitle: 'perlop', headingPath: ['Operators'], text: '| operator | meaning |\n|---|---|\n| `\\|\\|` | logical or |\n| `\\|=` | bitwise or, assigned |' });
    expect(field('code', table.terms)).toEqual(expect.arrayContaining(['||', '|=']));
  });

  it("does not count a chunk's link to its own anchor", () => {
    const { links } = fieldsOf({ pageUrl: 'https://d.example/a.html', pageTitle: 'A', headingPath: ['x()'], anchor: 'x', text: 'See [x](#x) and [y](b.html#y).' });
    expect(links).toEqual(['https://d.example/b.html#y']);
  });
});
