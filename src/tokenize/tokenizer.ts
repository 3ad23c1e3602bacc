import type { Tokenizer } from '../core/types.js';
import { countInLinearTime } from './long-runs.js';

export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/**
 * A tiktoken-compatible tokenizer (gpt-tokenizer), so budgets match what the target LLM
 * counts. Loaded on demand, one encoding at a time: an encoding's tables take a few hundred
 * milliseconds to load, paid at the first count. Text that spells a special token counts as
 * text (it never throws). Very long runs of one character class are counted in slices, so a
 * hostile 200 KB word costs milliseconds, not minutes (see long-runs.ts).
 */
export async function loadTokenizer(encoding: TokenizerEncoding): Promise<Tokenizer> {
  const { count } = encoding === 'o200k_base' ? await import('./encodings/o200k_base.js') : await import('./encodings/cl100k_base.js');
  return { encoding, count: (text) => (text.length === 0 ? 0 : countInLinearTime(text, count)) };
}
