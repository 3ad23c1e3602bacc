import { truncateToTokens } from '../../select/trim.js';
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
export const truncate = truncateToTokens;
