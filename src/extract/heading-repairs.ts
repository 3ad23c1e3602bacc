import type { CheerioAPI } from 'cheerio';
import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { SIGNATURE_SEPARATOR } from '../core/signatures.js';
import { PERMALINK_TEXT } from './heading-anchors.js';

/**
 * Headings every generator can get wrong the same way, set right before a generator's own
 * transforms: a repeated id (a template's label, or a copy a link cannot reach), a block run
 * into the heading's words, one entry's signatures as several empty headings.
 */
export function repairHeadings($: CheerioAPI, root: Element): void {
  labelAdmonitionTitles($, root);
  labelRepeatedHeadings($, root);
  spaceBlocksInHeadings($, root);
  joinAdjacentSignatureHeadings($, root);
}

/**
 * A heading of a part of an entry ("Parameters", "Examples") as a line of the entry's passage
 * ("Examples:"). Plain text: a bold line after an anchor would be read as an entry's heading again.
 */
export function asPartLabel($: CheerioAPI, heading: Element): void {
  const text = $(heading).text().trim();
  $(heading).replaceWith($('<p></p>').text(/[:：]$/.test(text) ? text : `${text}:`));
}


/** A box set beside the text (DocBook's `div.note`, `div.warning`; `aside.admonition`; a callout). */
const ADMONITION = /(?:^|\s)(?:note|tip|hint|warning|caution|important|attention|danger|error|admonition|callout|seealso)(?:\s|$)/i;
/** The most words an admonition's title has: "Note", "Warning", "See Also", "Performance Tip". */
const ADMONITION_TITLE_WORDS = 3;

/**
 * The title of a note, a tip or a warning box is its label, not a section: DocBook writes
 * `<div class="note"><h3 class="title">Note</h3>`, a heading at the level of the sections around
 * it, and every passage after it was under "Note" (PostgreSQL: 588 passages on 59 pages, some
 * cited at an ancestor's anchor). Its first heading, when it is a short label, stays a line of
 * the section the box is in. A box that heads a section of its own (an id on the heading) keeps it.
 */
function labelAdmonitionTitles($: CheerioAPI, root: Element): void {
  for (const heading of selectAll<AnyNode, Element>('h1, h2, h3, h4, h5, h6', root)) {
    const box = heading.parent;
    if (box === null || box.type !== 'tag' || (box.name !== 'div' && box.name !== 'aside')) continue;
    if (!ADMONITION.test(box.attribs['class'] ?? '') || heading.attribs['id'] !== undefined) continue;
    if ($(box).children().first().get(0) !== heading) continue;
    // A box with headings of its own inside is a section, not a note.
    if (selectAll('h1, h2, h3, h4, h5, h6', box).length > 1) continue;
    const text = $(heading).text().trim();
    if (text === '' || text.split(/\s+/).length > ADMONITION_TITLE_WORDS) continue;
    asPartLabel($, heading);
  }
}

/** How often an id must recur on a page to be a template's label: once per entry, not a copy. */
const TEMPLATE_ID_REPEATS = 3;

/**
 * An id names one place on a page: a link to it goes to its first element. A heading whose id
 * an earlier heading of the content already has is not a section of its own (qdoc's two constructors both
 * `id="QByteArray"`; RDoc's "Option row_sep" under parsing and under generating), so its text
 * joins the section before it, whose anchor leads there. And an id a page repeats again and
 * again is a template's label, its first occurrence too: Erlang's docs put `<h3 id="types">Types</h3>`
 * inside each function's entry (1,026 times on 60 pages), and as headings they outranked the
 * entry's own `<h4>`: the signature was an empty section, its types and description went to
 * "Types". The label stays a line of the entry's passage.
 */
function labelRepeatedHeadings($: CheerioAPI, root: Element): void {
  const headings = selectAll<AnyNode, Element>('h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]', root);
  const counts = new Map<string, number>();
  for (const heading of headings) counts.set(heading.attribs['id'] as string, (counts.get(heading.attribs['id'] as string) ?? 0) + 1);
  const seen = new Set<string>();
  for (const heading of headings) {
    const id = heading.attribs['id'] as string;
    const earlier = seen.has(id);
    seen.add(id);
    if (!earlier && (counts.get(id) ?? 0) < TEMPLATE_ID_REPEATS) continue;
    // Its permalinks ("¶", "↑") go with it: a label links nowhere.
    for (const link of selectAll<AnyNode, Element>('a[href^="#"]', heading)) if (PERMALINK_TEXT.test($(link).text())) $(link).remove();
    if ($(heading).text().trim() === '') $(heading).remove();
    else asPartLabel($, heading);
  }
}


/**
 * A block inside a heading is a word apart from what comes before it: Erlang's
 * `<h4><span>trim(String) -> unicode:chardata()</span><div class="title-since">OTP 20.0</div></h4>`
 * read "…chardata()OTP 20.0" (316 headings).
 */
function spaceBlocksInHeadings($: CheerioAPI, root: Element): void {
  for (const block of selectAll<AnyNode, Element>(':is(h1, h2, h3, h4, h5, h6) :is(div, p)', root)) $(block).before(' ');
}

/** A signature heading: a name right before its parameters in brackets (`trim(String, Dir) -> unicode:chardata()`); group 1 the name. */
const SIGNATURE_HEADING = /^([^\s()]+)\(.*\)/u;

/**
 * Headings of one level with nothing between them, each a signature of one name, are one entry
 * documented under several signatures (Erlang's `trim/1`, `trim/2`, `trim/3` over one description): as
 * headings, all but the last were empty sections, and the description was cited at the last.
 * They are one heading, anchored at the first, listing every signature (as qdoc's groups).
 */
function joinAdjacentSignatureHeadings($: CheerioAPI, root: Element): void {
  for (const heading of selectAll<AnyNode, Element>('h1, h2, h3, h4, h5, h6', root)) {
    const name = SIGNATURE_HEADING.exec($(heading).text().trim())?.[1];
    if (heading.parent === null || name === undefined) continue;
    let next = heading.next;
    while (next !== null && (next.type === 'comment' || (next.type === 'text' && next.data.trim() === ''))) next = next.next;
    if (next === null || next.type !== 'tag' || next.name !== heading.name) continue;
    const other = next as Element;
    // One name under several signatures: two names are two entries (rustdoc's `Trait(…)` and `Lifetime(…)`).
    if (SIGNATURE_HEADING.exec($(other).text().trim())?.[1] !== name) continue;
    // Joined into the later one, so that a run of three or more collects into its last, then
    // anchored at the first: the id moves along.
    $(other).prepend(SIGNATURE_SEPARATOR).prepend($(heading).contents());
    const id = heading.attribs['id'];
    if (id !== undefined) $(other).attr('id', id);
    $(heading).remove();
  }
}
