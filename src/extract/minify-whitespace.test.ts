import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { minifyWhitespace as libraryMinify } from 'hast-util-minify-whitespace';
import { parse, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { minifyWhitespace } from './minify-whitespace.js';

/** Both minifiers on copies of the same tree: ours must leave exactly what the library leaves. */
function expectSameAsLibrary(tree: Root): void {
  const ours = structuredClone(tree);
  const theirs = structuredClone(tree);
  minifyWhitespace(ours);
  libraryMinify(theirs);
  expect(ours).toEqual(theirs);
}

const fragment = (html: string) => fromParse5(parseFragment(html)) as Root;

describe('minifyWhitespace', () => {
  it('collapses runs and trims at block edges, keeping a space between inline elements', () => {
    const tree = fragment('<p>\n  one   <em>two</em>\t <a href="#x">three</a>  \n</p>');
    minifyWhitespace(tree);
    expect(tree).toEqual(fragment('<p>one <em>two</em> <a href="#x">three</a></p>'));
  });

  it.each([
    ['pre and textarea kept as written', '<div> a <pre>  x\n   y  </pre> b <textarea> t  u </textarea></div>'],
    ['nobr and nowrap cells collapsed but not trimmed', '<table><tr><td nowrap>  a   b  </td><td> c </td></tr></table><nobr>  d   e  </nobr>'],
    ['whitespace beside images and form controls', '<p> a <img src="i.png"> b <input> <select><option> o </option></select> c </p><p>d <textarea></textarea></p><p>e <button></button></p>'],
    ['hidden and skippable elements skipped when looking ahead', '<p>a <span hidden> h </span> <template> t </template> <script> s </script> b</p>'],
    ['comments and whitespace-only text between inline elements', '<p><b>x</b> <!-- note --> <i>y</i>  <span> </span> <code>z</code> </p>'],
    ['line breaks, word breaks and vertical tabs', '<p>a <br> b<wbr> c \u000b d \f e</p>'],
    ['nested blocks inside inline elements', '<span> a <div> b </div> c </span> <ul><li> d <p> e </p> f </li></ul>'],
    ['embedded content and math', '<p>x <svg><text> y </text></svg> <math><mi> z </mi></math> <video> v </video> w</p>'],
  ])('does what hast-util-minify-whitespace does: %s', (_name, html) => {
    expectSameAsLibrary(fragment(html));
  });

  it('does what hast-util-minify-whitespace does on every extraction fixture page', () => {
    const folder = join(import.meta.dirname, 'fixtures');
    const pages = readdirSync(folder).filter((name) => name.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(0);
    for (const name of pages) expectSameAsLibrary(fromParse5(parse(readFileSync(join(folder, name), 'utf8'))) as Root);
  });
});
