import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { selectAll } from 'css-select';
import { Element as DomElement, Text } from 'domhandler';
import type { AnyNode, Element } from 'domhandler';
import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { domToHast } from './dom-to-hast.js';

/** What the converter got before: the element's outer HTML, parsed again. */
const reparsed = ($: cheerio.CheerioAPI, element: Element) => fromParse5(parseFragment($.html(element))) as Root;

function first($: cheerio.CheerioAPI, selector: string): Element {
  const element = $(selector).get(0);
  if (element === undefined) throw new Error(`no ${selector}`);
  return element as Element;
}

describe('domToHast', () => {
  it('gives the tree that re-parsing gives, for every element of every fixture page', () => {
    const folder = join(import.meta.dirname, 'fixtures');
    let compared = 0;
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.html'))) {
      const $ = cheerio.load(readFileSync(join(folder, name), 'utf8'));
      for (const element of selectAll<AnyNode, Element>('body, body *', $.root().get(0)?.children ?? [])) {
        const tree = domToHast(element);
        if (tree === undefined) continue;
        expect(tree, `${name}: <${element.name}>`).toEqual(reparsed($, element));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(600);
  });

  it('does what the parser does to text: merges neighbours, turns CR into LF, drops the newline that opens a pre', () => {
    const $ = cheerio.load('<div><pre>\n\ncode</pre><p>one</p></div>');
    const paragraph = first($, 'p');
    paragraph.children.push(new Text(' two\r\nthree'), new Text(''), new Text(' four'));
    for (const child of paragraph.children) child.parent = paragraph;
    $('pre').text('\r\nfirst line\nsecond');
    const div = first($, 'div');
    expect(domToHast(div)).toEqual(reparsed($, div));
  });

  it('converts elements our own code makes (no namespace) as HTML, and a body as its children', () => {
    const $ = cheerio.load('<body><section><p>text</p></section></body>');
    $('p').replaceWith(new DomElement('h2', {}, [new Text('Made here')]));
    const body = first($, 'body');
    expect(domToHast(body)).toEqual(reparsed($, body));
  });

  it.each([
    ['a block that an edit put inside a paragraph', '<p>text</p>', ($: cheerio.CheerioAPI) => first($, 'p').children.push(new DomElement('div', {}, [new Text('block')]))],
    ['a table inside a paragraph (a quirks-mode page)', '<p>before<table><tr><td>cell</td></tr></table>after</p>', () => undefined],
    ['a link inside a link', '<p><a href="/a">outer</a></p>', ($: cheerio.CheerioAPI) => first($, 'a').children.push(new DomElement('a', { href: '/b' }, [new Text('inner')]))],
    ['an element an edit put straight into a table row', '<table><tr><td>cell</td></tr></table>', ($: cheerio.CheerioAPI) => first($, 'tr').children.push(new DomElement('a', { id: 'x' }, []))],
    ['a heading inside a heading', '<h2>outer</h2>', ($: cheerio.CheerioAPI) => first($, 'h2').children.push(new DomElement('h3', {}, [new Text('inner')]))],
  ])('leaves it to the parser when re-parsing would change the tree: %s', (_name, html, edit) => {
    // Without a doctype, as here, a page is parsed in quirks mode, which keeps a table in a paragraph.
    const $ = cheerio.load(html);
    edit($);
    expect(domToHast(first($, 'body'))).toBeUndefined();
  });
});
