import type { Citation } from '../../core/types.js';
import type { LinkIndex } from './link-index.js';
import type { CitationResult, Source } from './render.js';
import { createCitationStream } from './stream.js';

export type { CitationResult, Source } from './render.js';

/**
 * Makes an answer's citations and links true to the index:
 * - `[n]`, `[1, 2]`, `[1][2]` markers of the selected sources are renumbered in order of first
 *   use (sources with the same URL share a number); numbers of no source are dropped;
 * - every link (Markdown, `<autolink>`, bare http(s) URL, relative link resolved against the
 *   first source) is rewritten to the stored page URL with an anchor that page has, moved or
 *   narrowed to the page the context points at, or else unlinked (a Markdown link keeps its
 *   label, a bare URL is removed), with a warning naming the URL and why;
 * - code (fenced blocks, inline spans) is left as it is.
 * Pure and deterministic; `citations` are the used sources, in the new numbering.
 */
export async function processCitations(text: string, sources: readonly Source[], index: LinkIndex): Promise<CitationResult> {
  const stream = createCitationStream(sources, index);
  const head = await stream.push(text);
  const tail = await stream.end();
  return { ...tail, text: head + tail.text };
}

/** The answer as one text: the answer, then its sources list after a blank line (none when nothing is cited). */
export function answerWithSources(text: string, citations: readonly Citation[]): string {
  const list = formatSourcesList(citations);
  return list === '' ? text : `${text}\n\n${list}`;
}

/** The list the caller appends to the answer: "Sources:" then "[n] Title — URL" a line. */
export function formatSourcesList(citations: readonly Citation[]): string {
  if (citations.length === 0) return '';
  const lines = citations.map((citation) => `[${citation.n}] ${citation.title.trim() === '' ? citation.url : `${citation.title} — ${citation.url}`}`);
  return ['Sources:', ...lines].join('\n');
}
