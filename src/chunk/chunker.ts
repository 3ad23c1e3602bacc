import { sha256 } from '../core/hash.js';
import type { Chunk, Heading, Page, Tokenizer } from '../core/types.js';
import { type Piece, piecesOf, WHOLE_CODE_FACTOR } from './pieces.js';
import { type Section, splitSections } from './sections.js';

export interface ChunkerOptions {
  /** Target size; a code block (up to four times this), table row or list item larger than this becomes its own chunk. */
  maxTokens: number;
  /** Tokens of whole sentences or blocks repeated from the previous chunk of a split section. */
  overlapTokens?: number;
  tokenizer: Tokenizer;
}


/**
 * Heading-aware, token-aware chunking: sections are the unit; a section over the budget
 * splits between blocks, then list items, then sentences. A table splits between rows; a code
 * block stays whole up to four budgets, and a longer listing splits between lines, its fence
 * closed and opened again. Every chunk carries the page URL and the anchor of its section,
 * fixed here.
 */
export function chunkPage(
  page: Pick<Page, 'url' | 'title' | 'markdown'> & { headings: readonly Heading[] },
  options: ChunkerOptions,
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of mergeSmallSections(splitSections(page.markdown, page.headings), options.maxTokens)) {
    for (const { text, tokens } of packSection(section, options)) {
      const ordinal = chunks.length;
      const contentHash = sha256(text);
      chunks.push({
        id: sha256(`${page.url}\n${ordinal}\n${contentHash}`).slice(0, 24),
        pageUrl: page.url,
        pageTitle: page.title,
        ...(section.anchor === undefined ? {} : { anchor: section.anchor }),
        headingPath: section.headingPath,
        text,
        tokenCount: tokens,
        contentHash,
      });
    }
  }
  return chunks;
}

/** The chunks of one section, each with its exact token count. */
function packSection(section: Section, options: ChunkerOptions): { text: string; tokens: number }[] {
  const { tokenizer, maxTokens } = options;
  const header = section.headingLine ?? '';
  const blocks = section.blocks.map((block) => block.text.trim()).filter((text) => text !== '');
  if (blocks.length === 0) return [];
  // Most sections fit whole: one tokenizer pass instead of one per block and one per chunk.
  // Text over ~6 characters per token of budget cannot fit: skip the pass that would say so.
  const whole = withHeader(header, blocks.join('\n\n'));
  if (whole.length <= maxTokens * 6) {
    const wholeTokens = tokenizer.count(whole);
    if (wholeTokens <= maxTokens) return [{ text: whole, tokens: wholeTokens }];
  }

  const headerTokens = tokenizer.count(header);
  // The heading is repeated on every chunk of its section; leave room for the body anyway.
  // The heading and the blank line after it come first in every chunk of the section.
  const budget = Math.max(maxTokens - headerTokens - (header === '' ? 0 : 1), Math.floor(maxTokens / 2));
  const pieces = section.blocks.flatMap((block) => piecesOf(block, budget, maxTokens * WHOLE_CODE_FACTOR, tokenizer));
  if (pieces.length === 0) return [];

  // Pack by the pieces' own counts (plus one token per joiner), then check each chunk's exact
  // count: joining can shift a token, and a chunk over the budget gives back its last piece.
  const groups: Piece[][] = [];
  let current: Piece[] = [];
  let bodyTokens = 0;
  for (const piece of pieces) {
    // A short lead-in (a caption, "For example:") stays with the oversized block it introduces.
    const keepWithNext = piece.tokens > budget && bodyTokens < budget / 4;
    if (current.length > 0 && bodyTokens + piece.tokens + 1 > budget && !keepWithNext) {
      groups.push(current);
      current = overlapOf(current, Math.min(options.overlapTokens ?? 0, budget - piece.tokens - 1));
      bodyTokens = current.reduce((sum, part) => sum + part.tokens + 1, 0);
    }
    current.push(piece);
    bodyTokens += piece.tokens + 1;
  }
  if (current.length > 0) groups.push(current);

  const chunks: { text: string; tokens: number }[] = [];
  while (groups.length > 0) {
    const group = groups.shift() as Piece[];
    let text = withHeader(header, joinPieces(group));
    let tokens = tokenizer.count(text);
    while (tokens > maxTokens && group.length > 1 && !group.some((piece) => piece.tokens > budget)) {
      groups.unshift([{ ...(group.pop() as Piece), repeated: false }]);
      text = withHeader(header, joinPieces(group));
      tokens = tokenizer.count(text);
    }
    // Overlap alone, once the new text moved on, would only repeat the previous chunk.
    if (!group.every((piece) => piece.repeated === true)) chunks.push({ text, tokens });
  }
  return chunks;
}

function joinPieces(pieces: readonly Piece[]): string {
  return pieces.map((piece, index) => (index === 0 ? piece.text : piece.joiner + piece.text)).join('');
}

/** The last whole pieces of a chunk that fit in `tokens`: repeated at the start of the next one. */
function overlapOf(pieces: readonly Piece[], tokens: number): Piece[] {
  const kept: Piece[] = [];
  let total = 0;
  for (let index = pieces.length - 1; index >= 0 && tokens > 0; index -= 1) {
    const piece = pieces[index] as Piece;
    if (total + piece.tokens > tokens) break;
    kept.unshift({ ...piece, repeated: true });
    total += piece.tokens;
  }
  return kept;
}

/**
 * Consecutive small sections that link to the same anchor (a heading without an id of its
 * own, like a "Note", under its parent's anchor) are one passage: merging them loses no
 * precision in citations and gives the small one its context. Estimated by characters.
 */
function mergeSmallSections(sections: readonly Section[], maxTokens: number): Section[] {
  const merged: Section[] = [];
  const size = (section: Section) => (section.headingLine?.length ?? 0) + section.blocks.reduce((sum, block) => sum + block.text.length + 2, 0);
  for (const section of sections) {
    const previous = merged.at(-1);
    if (previous !== undefined && previous.anchor === section.anchor && previous.blocks.length > 0 && size(previous) + size(section) <= maxTokens * 3) {
      merged[merged.length - 1] = {
        ...previous,
        headingPath: commonPrefix(previous.headingPath, section.headingPath),
        blocks: [...previous.blocks, ...(section.headingLine === undefined ? [] : [{ kind: 'other' as const, text: section.headingLine }]), ...section.blocks],
      };
      continue;
    }
    merged.push(section);
  }
  return merged;
}

function commonPrefix(a: readonly string[], b: readonly string[]): string[] {
  const prefix: string[] = [];
  for (let index = 0; index < Math.min(a.length, b.length) && a[index] === b[index]; index += 1) prefix.push(a[index] as string);
  return prefix.length > 0 ? prefix : [...a];
}

function withHeader(header: string, body: string): string {
  return header === '' ? body : `${header}\n\n${body}`;
}
