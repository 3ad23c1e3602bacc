import type { Chunk } from '../core/types.js';

/** The Markdown block of one selected page: a numbered header, its URL, then the page or its best sections. */
export function webBlock(position: number, page: { url: string; title: string }, text: string): string {
  return `## [${position}] ${page.title.replace(/\s+/g, ' ').trim()}\nSource: ${page.url}\n\n${text.trim()}\n`;
}

/** The text of a page's kept fragments, in reading order, separated so a reader sees the cuts. */
export function sectionsText(chunks: readonly Chunk[], fragments: readonly number[]): string {
  return fragments.map((index) => chunks[index]?.text.trim() ?? '').filter((text) => text !== '').join('\n\n[…]\n\n');
}
