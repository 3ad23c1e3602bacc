import type { Chunk, Tokenizer } from '../core/types.js';

/** Marks where a trimmed passage leaves text out. */
export const TRIM_MARK = '…';

/**
 * A passage cut to `maxTokens` around its most relevant part, so a small budget gets the best
 * passage shortened rather than a worse one that happens to fit. Its heading line stays first
 * (the passage keeps its URL#anchor: the cut is of the same place); then the run of whole
 * blocks (paragraphs, lists, code blocks never split) that scores highest by `relevance`,
 * earliest on ties; a block too long on its own is cut at a word, never inside a code block's
 * fence. Undefined when not even the heading fits: the budget is below any passage header.
 */
export function trimPassage(chunk: Chunk, maxTokens: number, tokenizer: Tokenizer, relevance: (text: string) => number): Chunk | undefined {
  if (chunk.tokenCount <= maxTokens) return chunk;
  const { header, blocks } = splitPassage(chunk.text);
  const withHeader = (body: string) => (header === '' ? body : `${header}\n\n${body}`);
  if (tokenizer.count(withHeader(TRIM_MARK)) > maxTokens) return undefined;
  const scores = blocks.map((block) => relevance(block));
  const sizes = blocks.map((block) => tokenizer.count(block) + 1);
  const room = maxTokens - tokenizer.count(withHeader('')) - tokenizer.count(`\n\n${TRIM_MARK}`) - 1;
  // The best window of whole blocks that fits, by the sum of their relevance.
  let best: { start: number; end: number; score: number } | undefined;
  for (let start = 0; start < blocks.length; start += 1) {
    let size = 0;
    let score = 0;
    for (let end = start; end < blocks.length; end += 1) {
      size += sizes[end] as number;
      if (size > room) break;
      score += scores[end] as number;
      if (best === undefined || score > best.score) best = { start, end, score };
    }
  }
  let body: string;
  if (best !== undefined) {
    const parts = blocks.slice(best.start, best.end + 1);
    if (best.start > 0) parts.unshift(TRIM_MARK);
    if (best.end < blocks.length - 1) parts.push(TRIM_MARK);
    body = parts.join('\n\n');
  } else {
    // No whole block fits: the most relevant prose block, cut at a word.
    const index = bestProseBlock(blocks, scores);
    body = index === undefined ? TRIM_MARK : truncateToTokens(blocks[index] as string, Math.max(1, room), tokenizer) || TRIM_MARK;
  }
  let text = withHeader(body);
  let tokens = tokenizer.count(text);
  if (tokens > maxTokens) {
    // Joining shifted a token or two: cut the body to what is left.
    text = withHeader(truncateToTokens(body, maxTokens - tokenizer.count(withHeader('')) - 1, tokenizer) || TRIM_MARK);
    tokens = tokenizer.count(text);
    if (tokens > maxTokens) return undefined;
  }
  return { ...chunk, text, tokenCount: tokens };
}

function bestProseBlock(blocks: readonly string[], scores: readonly number[]): number | undefined {
  let best: number | undefined;
  blocks.forEach((block, index) => {
    if (/^(`{3,}|~{3,})/.test(block)) return;
    if (best === undefined || (scores[index] as number) > (scores[best] as number)) best = index;
  });
  return best;
}

/** The heading line and the blocks of a passage; a fenced code block is one block, blank lines inside it included. */
function splitPassage(text: string): { header: string; blocks: string[] } {
  const lines = text.split('\n');
  let header = '';
  if (/^#{1,6}\s/.test(lines[0] ?? '')) header = lines.shift() as string;
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opener = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener !== undefined) fence = opener;
    else if (fence !== undefined && line.startsWith(fence)) fence = undefined;
    if (fence === undefined && line.trim() === '' && opener === undefined) {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return { header, blocks };
}

/** The text, or its longest start that fits (cut at a space, ending in `…`). */
export function truncateToTokens(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (maxTokens <= 0) return '';
  if (tokenizer.count(text) <= maxTokens) return text;
  // Binary search on the character length: token counts grow with it.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tokenizer.count(`${cutAtSpace(text.slice(0, middle))}${TRIM_MARK}`) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const start = cutAtSpace(text.slice(0, low));
  return start === '' ? '' : `${start}${TRIM_MARK}`;
}

function cutAtSpace(text: string): string {
  const space = text.lastIndexOf(' ');
  return (space > text.length * 0.6 ? text.slice(0, space) : text).trimEnd();
}
