import type { Cheerio, CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import type { Element } from 'domhandler';
import { textContent } from 'domutils';

/**
 * Chrome that generators put inside the content: permalink glyphs on headings and entries,
 * "[source]" links, hover tooltips, copy buttons, hidden widgets. It must never reach a title,
 * a heading path or a passage.
 */

/** Header-link glyphs and icon-font characters (the Unicode private use area: Font Awesome's U+F0C1 link icon). */
export const GLYPHS = /[\s\u00a0\u200b¶§#⁋◆∞⚓🔗\u{1F516}\uE000-\uF8FF]/gu;
/** A same-page link showing only these is a permalink, or a way back to the top (RDoc's `↑` on every heading). */
const GLYPH_ONLY = /^[\s\u00a0\u200b¶§#⁋◆∞⚓🔗\u{1F516}\uE000-\uF8FF↑⇑⬆]*$/u;
const LINK_LABEL = /permalink|permanent link|link to (?:this|heading|section)|anchor|direct link|copy link/i;

/** Always chrome, whatever the generator, when found inside the content. */
const INNER_CHROME = [
  'a.headerlink', 'a.header-anchor', 'a.hash-link', 'a.anchorjs-link', 'a.anchor-link', 'a.zola-anchor', 'a.heading-anchor', 'a.Documentation-idLink',
  '.viewcode-link', '.viewcode-back', // Sphinx "[source]" / "[docs]"
  'span.permalink', // Doxygen ◆
  '.ttc', // Doxygen hover tooltips, repeating signatures inside code examples
  '.method-click-advice', '.method-source-code', // RDoc: "click to toggle source" and the hidden Ruby source
  'button', '.copybtn', '.copy-button', '.code-copy', 'clipboard-copy',
  '[hidden]', '[aria-hidden="true"]:not(h1, h2, h3, h4, h5, h6)', 'template', 'script', 'style', 'noscript',
];

const SOURCE_LINK = /^(?:\[(?:source|docs|src|view source|edit)\]|\((?:source|src)\)|click to toggle source)$/i;

/** Whether the element sits in a heading, a `<dt>` or a short signature block (Haddock's `p.src`). */
function inEntryHeading(element: Element): boolean {
  for (let node = element.parent; node !== null && node.type === 'tag'; node = node.parent) {
    if (/^(?:h[1-6]|dt)$/.test(node.name)) return true;
    if (/\b(?:src|signature|sig|decl)\b|header|heading/i.test(node.attribs['class'] ?? '')) return true;
  }
  return false;
}

/** Class names of an empty element that only draws a separator. */
const SEPARATOR_CLASS = /(?:^|\s)(?:sep|separator|divider|breadcrumb-separator)(?:\s|$)/i;

/** Removes the chrome inside `main` in place. */
export function removeInnerChrome($: CheerioAPI, main: Cheerio<Element>): void {
  const root = main.get(0);
  if (root === undefined) return;
  for (const element of selectAll(INNER_CHROME.join(','), root)) removeKeepingTargets($, element);
  // A separator the style sheet draws (gi-docgen's `Widget<span class="sep"></span>grab_focus`
  // shows "Widget ▸ grab_focus") is a space: without it the words on either side are one.
  for (const element of selectAll('span, i', root)) {
    const drawn = SEPARATOR_CLASS.test(element.attribs['class'] ?? '') || element.attribs['role'] === 'separator';
    if (drawn && element.children.length === 0) $(element).replaceWith(' ');
  }
  // Inline styles that hide a block: widgets, not documentation. Headings stay: a hidden
  // pseudo-heading still names the entry its anchor marks.
  $(selectAll('[style]', root)).each((_, element) => {
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(element.attribs['style'] ?? '') && !/^h[1-6]$/.test(element.name)) $(element).remove();
  });
  // Every link, in one pass: permalinks (a same-page link showing only a glyph, or one in a heading
  // or entry that says it is a permalink), links to an entry's source code whatever their class
  // ("[source]" Sphinx, "[src]" gi-docgen, "(source)" pydoctor, "Source" Haddock, "click to toggle
  // source" RDoc), and icon-only links (a download button) that would be an empty "[](…)".
  for (const element of selectAll('a', root)) {
    if (element.parent === null) continue;
    const text = textContent(element);
    const href = element.attribs['href'];
    const hasImage = selectAll('img', element).length > 0;
    if (href?.startsWith('#') === true && !hasImage) {
      const label = `${element.attribs['title'] ?? ''} ${element.attribs['aria-label'] ?? ''}`;
      if (GLYPH_ONLY.test(text) || (LINK_LABEL.test(label) && inSectionStart(element))) {
        removeKeepingTargets($, element);
        continue;
      }
    }
    const trimmed = text.trim();
    if (trimmed.length > 24) continue;
    if (SOURCE_LINK.test(trimmed) || (/^(?:source|src)$/i.test(trimmed) && inEntryHeading(element))) removeKeepingTargets($, element);
    else if (trimmed === '' && href !== undefined && selectAll('img[alt]', element).every((image) => (image.attribs['alt'] ?? '').trim() === '')) removeKeepingTargets($, element);
  }
}

/** Whether the element sits in a heading or a `<dt>`. */
function inSectionStart(element: Element): boolean {
  for (let node = element.parent; node !== null && node.type === 'tag'; node = node.parent) if (/^(?:h[1-6]|dt)$/.test(node.name)) return true;
  return false;
}

/**
 * Removes an element, leaving an empty target for each id it carried: a permalink is chrome,
 * but its id may be the very anchor of its heading (Node.js puts it on `<a class="mark">`).
 */
function removeKeepingTargets($: CheerioAPI, element: Element): void {
  if (element.parent === null) return; // inside chrome already removed
  const ids = [element, ...selectAll('[id], a[name]', element)].map((node) => node.attribs['id'] ?? (node.name === 'a' ? node.attribs['name'] : undefined)).filter((id): id is string => id !== undefined && id !== '');
  if (ids.length === 0) $(element).remove();
  else $(element).replaceWith(ids.map((id) => $.html($('<a></a>').attr('id', id))).join(''));
}

/** Heading or title text as a person would write it: no glyphs, no "[source]", one space between words. */
export function cleanHeadingText(text: string): string {
  return text
    .replace(/\[(?:source|docs|src)\]/gi, ' ')
    .replace(/[\uE000-\uF8FF\u200b\ufeff]/gu, '')
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/(?:[\s¶§⁋◆🔗]|\s#)+$/u, '')
    .replace(/^[\s¶§⁋◆🔗]+/u, '')
    .trim();
}
