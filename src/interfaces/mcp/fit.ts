import type { Tokenizer } from '../../core/types.js';

/**
 * The longest run of whole blocks (in order) that fits the budget, with the header first.
 * When not even the first block fits, its start is cut at a word boundary and marked `…`.
 * The result never counts more than `maxTokens`.
 */
export function fitBlocks(header: string, blocks: readonly string[], maxTokens: number, tokenizer: Tokenizer, separator = '\n\n'): { text: string; kept: number } {
  let text = truncate(header, maxTokens, tokenizer);
  let kept = 0;
  for (const block of blocks) {
    const next = text === '' ? block : `${text}${separator}${block}`;
    if (tokenizer.count(next) > maxTokens) {
      if (kept === 0) {
        const room = maxTokens - tokenizer.count(text === '' ? '' : `${text}${separator}`);
        const cut = truncate(block, room, tokenizer);
        if (cut !== '') text = text === '' ? cut : `${text}${separator}${cut}`;
      }
      break;
    }
    text = next;
    kept += 1;
  }
  return { text, kept };
}

/** The text, or its longest start that fits (cut at a space, ending in `…`). */
export function truncate(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (maxTokens <= 0) return '';
  if (tokenizer.count(text) <= maxTokens) return text;
  // Binary search on the character length: token counts grow with it.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tokenizer.count(`${cutAtSpace(text.slice(0, middle))}…`) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const start = cutAtSpace(text.slice(0, low));
  return start === '' ? '' : `${start}…`;
}

function cutAtSpace(text: string): string {
  const space = text.lastIndexOf(' ');
  return (space > text.length * 0.6 ? text.slice(0, space) : text).trimEnd();
}
