import type { z } from 'zod';
import { findAnchor } from '../../answer/citations/resolve-link.js';
import { safeDecode } from '../../core/url-text.js';
import type { Tokenizer } from '../../core/types.js';
import type { Engine, PageInspection } from '../../engine/engine-types.js';
import { decodeCursor, encodeCursor, type PagePosition, readWindow } from './page-reader.js';
import type { getPageOutput } from './tool-schemas.js';

export interface PageRequest {
  url: string;
  maxTokens: number;
  cursor?: string;
}

/**
 * get_page: a page's passages, or one section's (its anchor and the subsections under it), from
 * the cursor on, within the budget. When the rest does not fit, the text ends with a note that it
 * was truncated and the cursor to read on with; the budget holds the note too.
 */
export async function readPage(engine: Pick<Engine, 'inspect'>, request: PageRequest, tokenizer: Tokenizer): Promise<{ text: string; structured: z.output<typeof getPageOutput> }> {
  const page = await engine.inspect(request.url);
  if (page === undefined) throw new Error(`${request.url} is not in the index. Use a URL that search_docs returned, or list_sources to see what the index holds.`);
  const fragment = URL.canParse(request.url) ? new URL(request.url).hash.slice(1) : '';
  // The page's anchor the fragment names, decoded or as written (rustdoc's `impl-Extend%3C…`), as citations are checked.
  const anchor = fragment === '' ? '' : (findAnchor(new Set(page.anchors), fragment) ?? safeDecode(fragment));
  let chunks = page.chunks;
  if (anchor !== '') {
    const start = sectionStart(chunks, anchor, page.anchors);
    if (start < 0) {
      const known = page.anchors.slice(0, 30).map((name) => `#${name}`).join(', ');
      throw new Error(`${page.url} has no section #${anchor}. Its anchors include: ${known}.`);
    }
    const path = chunks[start]?.headingPath ?? [];
    let end = start + 1;
    while (end < chunks.length && (chunks[end]?.anchor === anchor || isUnder(chunks[end]?.headingPath ?? [], path))) end += 1;
    chunks = chunks.slice(start, end);
  }
  const passages = chunks.map((chunk) => chunk.text);
  const position: PagePosition = request.cursor === undefined ? { passage: 0, offset: 0 } : (decodeCursor(request.cursor, passages) ?? refuseCursor(request.cursor));
  const shownUrl = anchor === '' ? page.url : `${page.url}#${anchor}`;
  const continued = position.passage > 0 || position.offset > 0;
  const header = `# ${page.title}\n${shownUrl}${continued ? `\n(continued from passage ${position.passage + 1} of ${passages.length})` : ''}`;
  const budget = request.maxTokens;

  // Everything left fits: no note. Otherwise the note's room is kept first (its longest form).
  let window = readWindow(passages, position, budget - tokenizer.count(`${header}\n\n`), tokenizer);
  if (window?.next !== undefined) {
    // The widest numbers the note can hold: every passage left, and a cursor at the end of the longest one.
    const longestNote = truncationNote(budget, passages.length, passages.length, encodeCursor({ passage: passages.length, offset: Math.max(...passages.map((text) => text.length)) }));
    window = readWindow(passages, position, budget - tokenizer.count(`${header}\n\n${longestNote}`), tokenizer);
  }
  if (window === undefined) throw new Error(`maxTokens ${budget} is too small to show any of ${page.url} with its title and the note on how to read on; ask for at least ${tokenizer.count(header) + 60}.`);

  const note = window.next === undefined ? '' : truncationNote(budget, passages.length, passages.length - window.next.passage, encodeCursor(window.next));
  const text = [header, window.body, note].filter((part) => part !== '').join('\n\n');
  return {
    text,
    structured: {
      url: page.url,
      title: page.title,
      ...(anchor === '' ? {} : { section: anchor }),
      text: window.body,
      passages: { from: window.from, to: window.to, total: window.total },
      truncated: window.next !== undefined,
      ...(window.next === undefined ? {} : { nextCursor: encodeCursor(window.next) }),
    },
  };
}

function truncationNote(budget: number, total: number, left: number, cursor: string): string {
  return `(Truncated at ${budget} tokens, ${left} of ${total} passages left: call get_page with the same url and cursor "${cursor}" to read on.)`;
}

function refuseCursor(cursor: string): never {
  throw new Error(`The cursor "${cursor}" does not point into this page or section (it may have changed since). Pass the cursor a truncated get_page of the same url returned, or leave it out to read from the start.`);
}

/**
 * Where the section an anchor opens starts: the passages cited at it, else, for an id the page
 * has that marks no section of its own, the section it belongs to: an entry listing it among its
 * names (`#operator.__xor__` in "operator.xor(a, b); operator.__xor__(a, b)"), else the longest
 * section whose anchor it extends (gtk-doc's `#g-hash-table-insert.parameters`). -1: none.
 */
function sectionStart(chunks: PageInspection['chunks'], anchor: string, pageAnchors: readonly string[]): number {
  const own = chunks.findIndex((chunk) => chunk.anchor === anchor);
  if (own >= 0 || !pageAnchors.includes(anchor)) return own;
  const named = new RegExp(`(?:^|[\\s;])${anchor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\(|;|$)`, 'u');
  const listing = chunks.findIndex((chunk) => chunk.anchor !== undefined && named.test(chunk.headingPath.at(-1) ?? ''));
  if (listing >= 0) return listing;
  let best = -1;
  chunks.forEach((chunk, index) => {
    const prefix = chunk.anchor;
    if (prefix === undefined || !anchor.startsWith(prefix) || !/^[.:_-]/.test(anchor.slice(prefix.length))) return;
    if (best < 0 || prefix.length > (chunks[best]?.anchor?.length ?? 0)) best = index;
  });
  return best;
}

function isUnder(headingPath: readonly string[], section: readonly string[]): boolean {
  return headingPath.length > section.length && section.every((heading, index) => headingPath[index] === heading);
}
