import type { Cheerio, CheerioAPI } from 'cheerio';
import { is, selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { SIGNATURE_SEPARATOR } from '../core/signatures.js';
import { asPartLabel, repairHeadings } from './heading-repairs.js';
import { jsdoc, typedoc } from './javascript-transforms.js';
import { outermost } from './outermost.js';
import { rename } from './rename-element.js';

/**
 * Rewrites a generator's markup into what the Markdown converter reads well: Doxygen's code
 * fragments (one `div.line` per line) become `<pre>`, its signature tables one line of code;
 * LaTeX2HTML's empty "(p. [*])" cross-reference stubs and lost math go; gtk-doc's "Parameters"
 * and "Returns" headings become part of their function's passage; rustdoc's stability badges
 * leave the signature line, a trait's summaries copied under each implementation go, and the
 * parts of an item's doc ("Examples", "Panics") stay in its passage; Javadoc 17's summary grids
 * become tables; qdoc's grouped overloads one heading; Haddock's declarations headings.
 */
export function applyGeneratorTransforms($: CheerioAPI, main: Cheerio<Element>, generator: string | undefined): void {
  const root = main.get(0);
  if (root === undefined) return;
  repairHeadings($, root);
  if (generator === 'doxygen') doxygen($, root);
  if (generator === 'latex2html') latex2html($, root);
  if (generator === 'gtk-doc') gtkDoc($, root);
  if (generator === 'rustdoc') rustdoc($, root);
  if (generator === 'javadoc') javadoc($, root);
  if (generator === 'qdoc') qdoc($, root);
  if (generator === 'haddock') haddock($, root);
  if (generator === 'scribble') scribble($, root);
  if (generator === 'scaladoc') scaladoc($, root);
  if (generator === 'typedoc') typedoc($, root);
  if (generator === 'jsdoc') jsdoc($, root);
  if (generator === 'texinfo') texinfo($, root);
}

/**
 * A Texinfo definition names its category before the name ("Function: gammafn (x)"); one with
 * none (Octave's `@deftypefn {} {} any (x)`) leaves its ": " at the start of the entry's heading
 * (`span.category` from Texinfo 6, `span.category-def` from texi2any 7).
 */
function texinfo($: CheerioAPI, root: Element): void {
  for (const category of selectAll<AnyNode, Element>('dt > span.category, dt > span.category-def', root)) if (/^[\s:]*$/.test($(category).text())) $(category).remove();
}

/**
 * Scaladoc shows a member's first sentence (`p.shortcomment`) until the reader opens its whole
 * comment (`div.fullcomment`), which starts with the same sentence: it was every member's text
 * twice. Each member's "Definition Classes" (the traits it is inherited through) is navigation.
 */
function scaladoc($: CheerioAPI, root: Element): void {
  for (const short of selectAll<AnyNode, Element>('p.shortcomment', root)) {
    const parent = short.parent;
    if (parent !== null && selectAll('div.fullcomment div.comment', parent).length > 0) $(short).remove();
  }
  for (const term of selectAll<AnyNode, Element>('dl.attributes > dt', root)) {
    if ($(term).text().trim() !== 'Definition Classes') continue;
    const next = $(term).next();
    if (next.is('dd')) next.remove();
    $(term).remove();
  }
}

/**
 * Scribble lays out code (examples, REPL interactions, grammars) as a table of one row per
 * line (`<blockquote class="SCodeFlow"><table class="RktBlk">`, rows nested in rows): as a
 * table, its first line was a header, its indentation was gone and `>` and `#t` were escaped
 * (1,190 blocks on 95 of the Guide's 133 pages). It is the code block it shows: one line per
 * innermost row, spaces as laid out, a REPL's results under their input.
 */
function scribble($: CheerioAPI, root: Element): void {
  for (const block of outermost(selectAll<AnyNode, Element>('blockquote.SCodeFlow, table.RktBlk', root))) {
    const rows = selectAll<AnyNode, Element>('tr', block).filter((row) => selectAll('tr', row).length === 0);
    // A block of one line may hold a paragraph and no table (plai's `(test/exn …)`).
    const lines = rows.length === 0 ? [$(block).text()] : rows.map((row) => $(row).text());
    $(block).replaceWith($('<pre></pre>').append($('<code></code>').text(lines.map((line) => line.replace(/\u00a0/g, ' ').trimEnd()).join('\n'))));
  }
}

function haddock($: CheerioAPI, root: Element): void {
  // A type's instances (a class's instances), each with its methods' signatures again: 83% of
  // a module page's text, under an "Instances" heading that took the declarations after it as
  // its subsections. The instance heads stay, a table of the declaration's passage.
  $(selectAll('div.subs.instances td details, div.subs.instances summary, div.subs.instances td.doc.empty', root)).remove();
  for (const row of selectAll('div.subs.instances tr', root)) if ($(row).text().trim() === '') $(row).remove();
  for (const heading of selectAll('div.subs.instances > h4', root)) asPartLabel($, heading);
  // Every type in an instance head links to its page: three URLs to a line of text.
  for (const link of selectAll('div.subs.instances a', root)) $(link).replaceWith($(link).text());
  // A declaration is a <p class="src"> holding its anchored name (<a id="v:decode" class="def">),
  // then its doc: no heading, so one without a doc (137 of aeson's 441) ran into the one before,
  // and the rest hung under whatever heading came last. Each is a heading below the page's
  // groups (h1-h4); a class's methods one below it.
  // One with no doc shows its signature again, as code, so that its section has a passage.
  // Headings a doc writes (`==== __Examples__`, an <h4>) are lines of its passage: as headings
  // they outranked the declarations and took every one after them as subsections.
  for (const heading of selectAll('div.top div.doc :is(h1, h2, h3, h4, h5, h6)', root)) asPartLabel($, heading);
  for (const declaration of selectAll('div.top > p.src', root)) {
    const top = declaration.parent as Element;
    if (top.children.find((child) => child.type === 'tag') !== declaration) continue;
    const alone = top.children.every((child) => child === declaration || (child.type === 'text' && child.data.trim() === ''));
    if (alone) showSignatureAsCode($, declaration);
    rename($, declaration, 'h5');
  }
  for (const method of selectAll('div.top div.subs.methods > p.src', root)) {
    const next = method.next?.type === 'text' && method.next.data.trim() === '' ? method.next.next : method.next;
    const documented = next !== null && next !== undefined && next.type === 'tag' && $(next).hasClass('doc');
    if (!documented) showSignatureAsCode($, method);
    rename($, method, 'h6');
  }
  // A group's heading sits inside a link to itself (<a href="#g:1" id="g:1"><h1>): its target, not a link.
  for (const link of selectAll('a[href^="#g:"][id^="g:"]', root)) delete link.attribs['href'];
}

/** A signature with no doc after it, again as code below it: a heading alone makes no passage. */
function showSignatureAsCode($: CheerioAPI, signature: Element): void {
  $(signature).after($('<pre></pre>').text($(signature).text().trim()));
}


function qdoc($: CheerioAPI, root: Element): void {
  // Overloads documented together: a <div class="fngroup"> of <h3>s, one description after it.
  // As headings, every signature but the last was an empty section, its text in no passage. They
  // are one heading, anchored at the first, listing every signature (as Sphinx's grouped <dt>s).
  for (const group of selectAll('div.fngroup', root)) {
    const [first, ...others] = group.children.filter((child): child is Element => child.type === 'tag' && /^h[1-6]$/.test(child.name));
    if (first === undefined) continue;
    for (const other of others) {
      $(first).append(SIGNATURE_SEPARATOR).append($(other).contents());
      $(other).remove();
    }
    // The group's other content, if a generator ever puts any there, stays where it was.
    $(group).replaceWith($(group).contents());
  }
  // "enum Qt::AlignmentFlag<br/>flags Qt::Alignment": two declarations on one heading.
  for (const lineBreak of selectAll('h3 br', root)) $(lineBreak).replaceWith(SIGNATURE_SEPARATOR);
}

/** Javadoc 9+'s summary tables are a grid of `<div>`s, as many columns as the class says. */
const SUMMARY_COLUMNS: Record<string, number> = { 'two-column-summary': 2, 'three-column-summary': 3, 'four-column-summary': 4 };

function javadoc($: CheerioAPI, root: Element): void {
  // A summary (fields, constructors, methods) is a CSS grid of divs: as Markdown each cell was
  // a paragraph of its own and the first header cell ("Modifier and Type") a heading anchored
  // at the tab panel. It is the table it shows, one row per member.
  for (const grid of selectAll('div.summary-table', root)) {
    const columns = Object.entries(SUMMARY_COLUMNS).find(([name]) => $(grid).hasClass(name))?.[1];
    if (columns === undefined) continue;
    const cells = grid.children.filter((child): child is Element => child.type === 'tag');
    const header = cells.filter((cell) => $(cell).hasClass('table-header'));
    const body = cells.filter((cell) => !$(cell).hasClass('table-header'));
    if (header.length !== columns || body.length % columns !== 0) continue;
    const table = $('<table></table>');
    const row = (group: Element[], tag: 'th' | 'td') => {
      const tr = $('<tr></tr>');
      for (const cell of group) tr.append($(`<${tag}></${tag}>`).append($(cell).contents()));
      return tr;
    };
    table.append($('<thead></thead>').append(row(header, 'th')));
    const rows = $('<tbody></tbody>');
    for (let index = 0; index < body.length; index += columns) rows.append(row(body.slice(index, index + columns), 'td'));
    table.append(rows);
    $(grid).replaceWith(table);
  }
  // The tabs above a summary ("All Methods", "Static Methods") are buttons of the page's script.
  $(selectAll('div.table-tabs', root)).remove();
  // "Type Parameters:", "Parameters:", "Returns:" label a note; a class's description starts
  // with them, and as entry terms the first became the description's heading ("## Type
  // Parameters:", anchored at #class-description) and the class title was repeated after it.
  for (const term of selectAll('dl.notes > dt', root)) $(term).replaceWith($('<p></p>').append($(term).contents()));
  // A generic member's <section id="defaultIfNull(T,T)"> holds an <h3> with the erased id of
  // older Javadoc (`defaultIfNull(java.lang.Object,java.lang.Object)`), kept for old links; the
  // index, the search and every other link use the section's, so the member is cited there.
  for (const heading of selectAll('section.detail[id] > h3[id]', root)) {
    if (heading.parent !== null && heading.parent.type === 'tag' && firstTag(heading.parent) === heading) delete heading.attribs['id'];
  }
}

function firstTag(parent: Element): Element | undefined {
  return parent.children.find((child): child is Element => child.type === 'tag');
}

function rustdoc($: CheerioAPI, root: Element): void {
  // A stability or deprecation badge ("🔬 This is a nightly-only experimental API") stands in the
  // item's <summary> beside its signature: as Markdown it ran into the heading line, which then
  // matched no heading, and the item was cited at its impl block. It is the first line of the
  // item's description instead.
  for (const badge of selectAll('summary > .item-info', root)) {
    const summary = badge.parent as Element;
    $(summary).after($('<div></div>').append($(badge).contents()));
    $(badge).remove();
  }
  // A trait's method under a type's trait implementation, documented by the trait's summary and
  // "Read more" (the trait's page has it whole): Iterator's seventy provided methods again on
  // every iterator's page were half of std::collections' passages. The impl's heading stays.
  for (const item of selectAll('details', root)) {
    const own = (selector: string) => item.children.filter((child): child is Element => child.type === 'tag' && is(child, selector));
    if (!own('summary').some((summary) => selectAll('section.trait-impl', summary).length > 0)) continue;
    const last = own('.docblock').flatMap((docblock) => selectAll('a', docblock)).at(-1);
    if (last !== undefined && /^read more$/i.test($(last).text().trim())) $(item).remove();
  }
  // An item's doc comment heads its parts ("# Examples", "# Panics", "# Errors"): as sections
  // (`#examples-20`) they took the item's examples away from it, and "BTreeMap range" was cited
  // at an Examples heading that says nothing of range, the method one place below. They are
  // parts of the item's passage; the page's own description (the top doc) keeps its sections.
  for (const heading of selectAll('details .docblock :is(h1, h2, h3, h4, h5, h6)', root)) {
    const item = closestDetails(heading);
    if (item === undefined || /\btop-doc\b/.test(item.attribs['class'] ?? '')) continue;
    asPartLabel($, heading);
  }
}

function closestDetails(element: Element): Element | undefined {
  for (let node = element.parent; node !== null; node = node.parent) if (node.type === 'tag' && node.name === 'details') return node;
  return undefined;
}

/** The parts of an entry gtk-doc heads as sections of their own: a function's, a struct's. */
const ENTRY_PARTS = /^(?:parameters|returns|members)$/i;

function gtkDoc($: CheerioAPI, root: Element): void {
  // gtk-doc heads a function's "Parameters" and "Returns" (a struct's "Members") with an
  // anchored <h4>: as sections, half of GLib's passages were 40-token tables of arguments that
  // crowd the function out of the results. They are parts of the function's passage; their
  // anchors stay in the page's anchor map (a link to them still opens the page there).
  for (const heading of selectAll('div.refsect3 > h4', root)) {
    if (!ENTRY_PARTS.test($(heading).text().trim())) continue;
    asPartLabel($, heading);
  }
}

function doxygen($: CheerioAPI, root: Element): void {
  // "More..." after each brief in a summary: a link to the entry below, not text.
  for (const link of selectAll('a', root)) if (/^More\.\.\.$/.test($(link).text().trim())) $(link).remove();
  for (const fragment of selectAll('div.fragment', root)) {
    const lines = selectAll('div.line', fragment).map((line) => $(line).text().replace(/\u00a0/g, ' ').replace(/\s+$/, ''));
    $(fragment).replaceWith($('<pre></pre>').text(lines.join('\n')));
  }
  for (const prototype of selectAll('div.memproto', root)) {
    const signature = $(prototype).text().replace(/[\s\u00a0]+/g, ' ').replace(/\s+([,)])/g, '$1').replace(/\(\s+/g, '(').trim();
    $(prototype).replaceWith($('<pre class="language-c"></pre>').text(signature));
  }
}

/** What LaTeX2HTML leaves of a math fragment it could not render: its number, twice ("4#4"). */
const LOST_MATH = /^\s*(\d+)#\1\s*$/;

function latex2html($: CheerioAPI, root: Element): void {
  // Math it could not render stays as a numbered placeholder: gnuplot's "If 4#4terminal-type5#5
  // is omitted" (the < and > of <terminal-type>) on 161 pages, which also indexed "4terminal"
  // and "type5" instead of "terminal". Which symbol was lost cannot be known; the placeholder
  // goes, and a space keeps apart the words it stood between ("above3#3below").
  for (const math of selectAll('span.MATH', root)) {
    if (!LOST_MATH.test($(math).text())) continue;
    const before = math.prev === null ? '' : $(math.prev).text();
    const after = math.next === null ? '' : $(math.next).text();
    const between = /\w$/.test(before) && /^\w/.test(after);
    $(math).replaceWith(between ? ' ' : '');
  }
  // "See **set xtics (p. [*])**": the page number never made it, only a link around a crossref
  // image (removed as chrome). The link goes onto the name it refers to: "See **[set xtics](…)**".
  for (const link of selectAll('a[href]', root)) {
    const element = $(link);
    if (element.text().trim() !== '' || element.find('img').length > 0) continue;
    const previous = link.prev;
    const next = link.next;
    if (previous?.type !== 'text' || next?.type !== 'text' || !next.data.startsWith(')')) continue;
    const match = /^(.*?)\s*\(p\.[\s\u00a0]*$/s.exec(previous.data);
    if (match === null) continue;
    const name = match[1] ?? '';
    previous.data = '';
    next.data = next.data.slice(1);
    element.text(name.trim());
    if (name.trim() === '') element.remove();
  }
}
