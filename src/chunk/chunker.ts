import { sha256 } from '../core/hash.js';
import type { Chunk, Heading, Page, Tokenizer } from '../core/types.js';
import { type Block, type Section, splitSections } from './sections.js';

export interface ChunkerOptions {
  /** Target size; a code block (up to four times this), table row or list item larger than this becomes its own chunk. */
  maxTokens: number;
  /** Tokens of whole sentences or blocks repeated from the previous chunk of a split section. */
  overlapTokens?: number;
  tokenizer: Tokenizer;
}

/** A unit the packer never splits, and how it joins the unit before it. */
interface Piece {
  text: string;
  tokens: number;
  joiner: string;
  /** Repeated from the previous chunk (overlap), not new text. */
  repeated?: boolean;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

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

/**
 * How many chunk budgets a block holding code may take and stay whole: a code example is most
 * useful whole, but a source listing (a module's highlighted source, a header file, a page
 * that is one `<pre>`) of thousands of tokens fits no answer's budget and matches everything.
 */
const WHOLE_CODE_FACTOR = 4;

function piecesOf(block: Block, budget: number, wholeCode: number, tokenizer: Tokenizer): Piece[] {
  const text = block.text.trim();
  if (text === '') return [];
  const tokens = tokenizer.count(text);
  if (tokens <= budget || (block.kind === 'code' && tokens <= wholeCode)) return [{ text, tokens, joiner: '\n\n' }];
  if (block.kind === 'code') return splitLines(text, budget, tokenizer, '\n\n');
  // A quote holding code (`> ```…`) would lose its lines to a split by sentences.
  if (block.kind === 'other' && FENCE_ANYWHERE.test(text)) return tokens <= wholeCode ? [{ text, tokens, joiner: '\n\n' }] : splitLines(text, budget, tokenizer, '\n\n');
  if (block.kind === 'table') return splitTable(text, budget, tokenizer);
  if (block.kind === 'list' && block.items !== undefined && block.items.length > 0) {
    return block.items.flatMap((item, index) => {
      const itemTokens = tokenizer.count(item);
      const joiner = index === 0 ? '\n\n' : '\n';
      if (itemTokens <= budget) return [{ text: item, tokens: itemTokens, joiner }];
      if (FENCE_ANYWHERE.test(item)) return itemTokens <= wholeCode ? [{ text: item, tokens: itemTokens, joiner }] : splitLines(item, budget, tokenizer, joiner);
      return splitNestedList(item, budget, tokenizer, joiner);
    });
  }
  return splitProse(text, budget, tokenizer);
}

/** Some line of the text is a code fence, in a quote or not. */
const FENCE_ANYWHERE = /^(?:[ \t]*>)*[ \t]*(?:`{3,}|~{3,})/m;

/** A code fence line, possibly inside a quote or on a list item's marker line: its prefix, its fence and its info string. */
const FENCE = /^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?)(`{3,}|~{3,})(.*)$/;

/** A fence open at some line: how to open it again at the start of a part, and how to close it. */
interface OpenFence {
  marks: string;
  reopen: string;
  close: string;
}

/** The fence open after a line, given the one open before it. */
function fenceAfter(open: OpenFence | undefined, line: string): OpenFence | undefined {
  const fence = FENCE.exec(line);
  if (fence === null) return open;
  const [, prefix = '', marks = '', info = ''] = fence;
  if (open === undefined) {
    // A fence on a list item's marker line (`-   ```c`) goes on in the item's indentation.
    const indent = prefix.replace(/(?:[-*+]|\d+[.)])([ \t]+)$/, (marker) => ' '.repeat(marker.length));
    return { marks, reopen: `${indent}${marks}${info}`, close: `${indent}${marks}` };
  }
  // A closing fence: the same character, at least as long, nothing after it.
  return marks[0] === open.marks[0] && marks.length >= open.marks.length && info.trim() === '' ? undefined : open;
}

/**
 * Markdown too long to keep whole that its kind cannot split otherwise (a code listing, a list
 * item holding code): parts of whole lines within the budget, cut at a blank line in the second
 * half of a part where there is one. A code fence open at a cut is closed there and opened
 * again at the start of the next part, so every part reads as Markdown of its own; a part with
 * nothing but its fences and blank lines is not made. A line is never cut.
 */
function splitLines(text: string, budget: number, tokenizer: Tokenizer, joiner: string, exactAgain = true): Piece[] {
  const pieces: Piece[] = [];
  let part: string[] = [];
  let partTokens = 0;
  // Lines of `part` with text of the block in them: neither blank nor a fence.
  let written = 0;
  // A quote's empty line (`>`) is as blank as an empty one.
  const isBlank = (line: string) => /^[\s>]*$/.test(line);
  const isText = (line: string) => !isBlank(line) && !FENCE.test(line);
  let fence: OpenFence | undefined;
  let blank: { at: number; written: number; fence: OpenFence | undefined } | undefined;
  const tokensOf = (line: string) => tokenizer.count(line) + 1;
  const cut = (at: number, writtenBefore: number, fenceThere: OpenFence | undefined) => {
    const taken = part.slice(0, at);
    const rest = part.slice(at);
    while (rest.length > 0 && isBlank(rest[0] as string)) rest.shift();
    if (writtenBefore > 0) {
      const partText = (fenceThere === undefined ? taken : [...taken, fenceThere.close]).join('\n');
      const tokens = tokenizer.count(partText);
      const partJoiner = pieces.length === 0 ? joiner : '\n\n';
      // Counted line by line, a part can come out a few tokens over once joined: split it once more, that much tighter.
      if (tokens > budget && exactAgain && writtenBefore > 1) pieces.push(...splitLines(partText, 2 * budget - tokens, tokenizer, partJoiner, false));
      else pieces.push({ text: partText, tokens, joiner: partJoiner });
    }
    part = fenceThere === undefined ? rest : [fenceThere.reopen, ...rest];
    written = rest.filter(isText).length;
    partTokens = part.reduce((sum, line) => sum + tokensOf(line), 0);
    blank = undefined;
  };
  for (const line of text.split('\n')) {
    const lineTokens = tokensOf(line);
    // Room is kept for the fence that closes the part, should it be cut here.
    const over = () => partTokens + lineTokens + (fence === undefined ? 0 : tokensOf(fence.close)) > budget;
    if (written > 0 && over() && blank !== undefined && blank.at >= part.length / 2) cut(blank.at, blank.written, blank.fence);
    if (written > 0 && over()) cut(part.length, written, fence);
    // Blank lines before a part's first text line would only pad it.
    if (isBlank(line) && written === 0 && part.length > 0) continue;
    if (isBlank(line) && written > 0) blank = { at: part.length, written, fence };
    part.push(line);
    partTokens += lineTokens;
    if (isText(line)) written += 1;
    fence = fenceAfter(fence, line);
  }
  cut(part.length, written, fence);
  return pieces;
}

/** Prose over the budget: whole sentences, and a sentence over the budget by words. */
function splitProse(text: string, budget: number, tokenizer: Tokenizer): Piece[] {
  const pieces: Piece[] = [];
  for (const { segment } of sentences.segment(text)) {
    const sentence = segment.trim();
    if (sentence === '') continue;
    const joiner = pieces.length === 0 ? '\n\n' : ' ';
    const tokens = tokenizer.count(sentence);
    if (tokens <= budget) {
      pieces.push({ text: sentence, tokens, joiner });
      continue;
    }
    let window: string[] = [];
    for (const word of sentence.split(/\s+/)) {
      window.push(word);
      if (window.length >= 8 && tokenizer.count(window.join(' ')) > budget) {
        const last = window.pop() as string;
        const windowText = window.join(' ');
        pieces.push({ text: windowText, tokens: tokenizer.count(windowText), joiner: pieces.length === 0 ? '\n\n' : ' ' });
        window = [last];
      }
    }
    const rest = window.join(' ');
    if (rest !== '') pieces.push({ text: rest, tokens: tokenizer.count(rest), joiner: pieces.length === 0 ? '\n\n' : ' ' });
  }
  return pieces;
}

/**
 * A table over the budget splits between rows, never inside one; every part repeats the
 * header row and its separator, so it reads as a table on its own.
 */
function splitTable(text: string, budget: number, tokenizer: Tokenizer): Piece[] {
  const lines = text.split('\n');
  const header = lines.slice(0, 2).join('\n');
  const headerTokens = tokenizer.count(header) + 1;
  const pieces: Piece[] = [];
  let rows: string[] = [];
  let rowTokens = 0;
  const flush = () => {
    if (rows.length === 0) return;
    const part = `${header}\n${rows.join('\n')}`;
    pieces.push({ text: part, tokens: tokenizer.count(part), joiner: '\n\n' });
    rows = [];
    rowTokens = 0;
  };
  for (const row of lines.slice(2)) {
    const tokens = tokenizer.count(row) + 1;
    if (rows.length > 0 && headerTokens + rowTokens + tokens > budget) flush();
    rows.push(row);
    rowTokens += tokens;
  }
  flush();
  return pieces.length > 0 ? pieces : [{ text, tokens: tokenizer.count(text), joiner: '\n\n' }];
}

const NESTED_ITEM = /^\s+([-*+]|\d+[.)])\s/;

/**
 * A list item over the budget (a table of contents, an index entry with hundreds of links)
 * splits between the lines where its nested items start; a line is never cut.
 */
function splitNestedList(item: string, budget: number, tokenizer: Tokenizer, joiner: string): Piece[] {
  const groups: string[][] = [];
  let lines: string[] = [];
  let tokens = 0;
  for (const line of item.split('\n')) {
    const lineTokens = tokenizer.count(line) + 1;
    if (lines.length > 0 && NESTED_ITEM.test(line) && tokens + lineTokens > budget) {
      groups.push(lines);
      lines = [];
      tokens = 0;
    }
    lines.push(line);
    tokens += lineTokens;
  }
  if (lines.length > 0) groups.push(lines);
  return groups.map((group, index) => {
    const text = group.join('\n');
    return { text, tokens: tokenizer.count(text), joiner: index === 0 ? joiner : '\n' };
  });
}
