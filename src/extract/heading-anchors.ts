import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { findOne } from 'domutils';

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * The fragment id that lands on this heading, read from the real HTML, in the three places
 * generators put it: the heading's own id; an `<a id|name>` inside it (or an empty one just
 * before it); or the id of an enclosing section/div whose first heading it is.
 * Returns undefined when the page gives the heading no id: anchors are never invented.
 */
export function findHeadingAnchor($: CheerioAPI, heading: Cheerio<Element>): string | undefined {
  const own = heading.attr('id');
  if (own) return own;

  const inner = heading.find('a[id], a[name], span[id]').first();
  const innerId = inner.attr('id') ?? inner.attr('name');
  if (innerId) return innerId;

  const previous = heading.prev();
  if (previous.is('a') && previous.text().trim() === '') {
    const previousId = previous.attr('id') ?? previous.attr('name');
    if (previousId) return previousId;
  }

  let ancestor = heading.parent();
  while (ancestor.length > 0 && !ancestor.is('body, html')) {
    const id = ancestor.attr('id');
    if (id) {
      // The first heading in document order, found without collecting every heading of a big section.
      const first = findOne((node) => HEADING_TAGS.has(node.tagName), ancestor.get(0)?.children ?? [], true);
      return first === heading.get(0) ? id : undefined;
    }
    ancestor = ancestor.parent();
  }
  return undefined;
}

/** Every id (and legacy `a[name]`) on the page: the fragments a link to this page may use. */
export function collectPageAnchors($: CheerioAPI): string[] {
  const anchors = new Set<string>();
  $('[id]').each((_, element) => {
    const id = $(element).attr('id');
    if (id) anchors.add(id);
  });
  $('a[name]').each((_, element) => {
    const name = $(element).attr('name');
    if (name) anchors.add(name);
  });
  return [...anchors];
}
