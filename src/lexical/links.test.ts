import { describe, expect, it } from 'vitest';
import { anchorKey, anchorLinksOf, linkTarget, markdownLinkTexts, replaceMarkdownLinks } from './links.js';

describe('links', () => {
  it('resolves a link to an anchor against its page, fragment decoded; none for a link without an anchor or to another scheme', () => {
    expect(linkTarget('b.html#x%20y', 'https://d.example/doc/a.html')).toBe('https://d.example/doc/b.html#x y');
    expect(linkTarget('#here', 'https://d.example/doc/a.html')).toBe('https://d.example/doc/a.html#here');
    expect(linkTarget('b.html', 'https://d.example/doc/a.html')).toBeUndefined();
    expect(linkTarget('mailto:x@d.example#y', 'https://d.example/doc/a.html')).toBeUndefined();
  });

  it("lists the anchors a chunk links to, each once, without its own", () => {
    const chunk = { pageUrl: 'https://d.example/a.html', anchor: 'x', text: 'See [x](#x), [y](b.html#y), [y again](b.html#y), [page](c.html) and ![img](d.png#z).' };
    expect(anchorLinksOf(chunk)).toEqual(['https://d.example/b.html#y', 'https://d.example/d.png#z']);
  });

  it('keys an anchor of a page the way a link target to it reads, whatever case the host was written in', () => {
    expect(anchorKey('https://D.Example/doc/a.html', 'x')).toBe(linkTarget('https://d.example/doc/a.html#x', 'https://d.example/'));
    expect(anchorKey('https://d.example', 'x')).toBe('https://d.example/#x');
    expect(anchorLinksOf({ pageUrl: 'https://D.example/a.html', anchor: 'x', text: '[self](#x) [y](#y)' })).toEqual(['https://d.example/a.html#y']);
  });

  it('replaces and lists link texts, the same on every call (no state carried between calls)', () => {
    const text = 'See [one](a.html#x) and ![two](b.png).';
    expect(replaceMarkdownLinks(text, (linkText, target) => `${linkText}<${target}>`)).toBe('See one<a.html#x> and two<b.png>.');
    expect(markdownLinkTexts(text)).toEqual(['one', 'two']);
    expect(markdownLinkTexts(text)).toEqual(['one', 'two']);
  });
});
