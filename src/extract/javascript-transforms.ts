import type { CheerioAPI } from 'cheerio';
import { is, selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { asPartLabel } from './heading-repairs.js';
import { rename } from './rename-element.js';

// The transforms of the JavaScript and TypeScript API generators (see applyGeneratorTransforms).

/**
 * TypeDoc heads every part of an entry: a signature's "Type Parameters", "Parameters" and
 * "Returns Promise<void>", a comment's block tags ("Example", "Deprecated", date-fns's "Name",
 * "Summary", "Description"), the markdown headings inside a comment. As sections, a function's
 * page was six passages and its description was cited at `#Description`; a method's example at
 * `#md:example`, apart from the method. They are parts of the entry's passage (their anchors stay
 * on the page). A page of its own text (the README as index.html, a guide) keeps its headings.
 * A flag ("Static", "Optional", "Readonly") ran into the name after it ("Staticcreate"): it stays
 * before a signature's name with a space, and leaves the member's heading to its name alone.
 * `<code class="ts">` in an example is the language the fence gets.
 */
export function typedoc($: CheerioAPI, root: Element): void {
  const memberHeading = (heading: Element) => heading.parent !== null && is(heading.parent, 'section.tsd-member') && /^h[1-3]$/.test(heading.name);
  // A parameter or property of a list (an <h5> each before 0.23, a nested option's still) is a line.
  for (const heading of selectAll<AnyNode, Element>(':is(.tsd-parameters, .tsd-parameter-list, .tsd-type-parameter-list) li :is(h1, h2, h3, h4, h5, h6)', root)) rename($, heading, 'p');
  // A flag (`code.tsd-tag`; `span.tsd-flag` before 0.23) leaves a member's heading, and stands apart from the name elsewhere.
  for (const flag of selectAll<AnyNode, Element>('code.tsd-tag, span.tsd-flag', root)) {
    const heading = $(flag).closest('h1, h2, h3, h4, h5, h6').get(0);
    if (heading?.type === 'tag' && memberHeading(heading)) $(flag).remove();
    else $(flag).after(' ');
  }
  // Parts of an entry: of a member, of a signature (a function's page is one), and the type's own
  // "Type Parameters", "Hierarchy" and "Implements"; a block tag's heading wherever it is.
  const entry = 'section.tsd-member, .tsd-signatures, .tsd-signature, .tsd-descriptions, .tsd-description, .tsd-type-declaration, .tsd-parameters, section.tsd-panel:not(.tsd-typography, .tsd-comment)';
  for (const heading of selectAll<AnyNode, Element>(`:is(${entry}) :is(h1, h2, h3, h4, h5, h6), [class^="tsd-tag-"] > :is(h1, h2, h3, h4, h5, h6)`, root)) {
    if (!memberHeading(heading)) asPartLabel($, heading);
  }
  // A signature is the line of code it shows, before its description: as list items that start
  // with a target (each overload's id), each was read as an entry of its own, cited at the
  // overload, and the page's heading was repeated after it.
  // TypeDoc 0.28 lays a long signature out on lines (`<br/>` and four spaces per parameter).
  for (const signature of selectAll<AnyNode, Element>('.tsd-signatures > li.tsd-signature, div.tsd-signature', root)) {
    $(signature).find('.tsd-anchor, .tsd-anchor-icon').remove();
    $(signature).find('br').replaceWith('\n');
    const lines = $(signature).text().split('\n').map((line) => line.replace(/^([ \u00a0]*)(.*)$/, (_, indent: string, rest: string) => indent.replace(/\u00a0/g, ' ') + rest.replace(/[\s\u00a0]+/g, ' ').trimEnd()));
    $(signature).replaceWith($('<pre><code class="language-ts"></code></pre>').find('code').text(lines.filter((line) => line.trim() !== '').join('\n').trim()).end());
  }
  // Each signature and its description are list items (0.26: one each; 0.28: one for both).
  for (const list of selectAll<AnyNode, Element>('ul.tsd-signatures, ul.tsd-descriptions, ul.tsd-signatures > li, ul.tsd-descriptions > li', root)) rename($, list, 'div');
  // A target inside an entry (a type parameter's, a block tag's) is the page's, not a heading's.
  for (const target of selectAll<AnyNode, Element>('a.tsd-anchor', root)) {
    const next = $(target).nextAll().first().get(0);
    if (next === undefined || !/^h[1-6]$/.test(next.name)) $(target).remove();
  }
  for (const code of selectAll<AnyNode, Element>('pre > code[class]', root)) {
    const language = code.attribs['class']?.trim() ?? '';
    if (/^[a-z][\w+#-]*$/i.test(language) && !/^(?:language|lang)-/.test(language)) code.attribs['class'] = `language-${language}`;
  }
}

/** The parts JSDoc's templates head with an <h5> (a README's or tutorial's own <h5>s are its sections). */
const JSDOC_PARTS = /^(?:parameters|properties|returns|yields|throws|fires|listens to events|listeners of this event|requires|type|this|examples?|see|tutorials|deprecated|augments|extends|mixes in|implements|overrides):?$/i;

/**
 * JSDoc heads each part of an entry with an <h5> ("Parameters:", "Returns:", "Example", "Type:"):
 * parts of the entry's passage, not sections of their own. An entry's scope ("(static) ",
 * "(inner) ") before its name in the heading is a label of the entry, not part of its name.
 */
export function jsdoc($: CheerioAPI, root: Element): void {
  for (const heading of selectAll<AnyNode, Element>('article :is(h5, h6)', root)) if (JSDOC_PARTS.test($(heading).text().trim())) asPartLabel($, heading);
  // An optional parameter is marked by a superscript "opt" that ran into its name ("waitopt"): written as TypeScript does.
  for (const attributes of selectAll<AnyNode, Element>('span.signature-attributes', root)) $(attributes).replaceWith(/\bopt\b/.test($(attributes).text()) ? '?' : '');
  for (const scope of selectAll<AnyNode, Element>('h4.name > span.type-signature:first-child', root)) {
    if (/^\s*\([\w\s,-]+\)\s*$/.test($(scope).text())) $(scope).remove();
  }
}
