import type { Tokenizer } from '../core/types.js';
import type { Block } from './sections.js';

/*
 * How one block of a section over the budget becomes pieces the packer never splits: prose by
 * sentences, a table between rows, a list between items, a long code listing between lines.
 */

/** A unit the packer never splits, and how it joins the unit before it. */
export interface Piece {
  text: string;
  tokens: number;
  joiner: string;
  /** Repeated from the previous chunk (overlap), not new text. */
  repeated?: boolean;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * How many chunk budgets a block holding code may take and stay whole: a code example is most
 * useful whole, but a source listing (a module's highlighted source, a header file, a page
 * that is one `<pre>`) of thousands of tokens fits no answer's budget and matches everything.
 */
export const WHOLE_CODE_FACTOR = 4;

export function piecesOf(block: Block, budget: number, wholeCode: number, tokenizer: Tokenizer): Piece[] {
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
