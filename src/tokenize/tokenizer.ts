import type { Tokenizer } from '../core/types.js';
import { countInLinearTime } from './long-runs.js';

export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/**
 * A tiktoken-compatible tokenizer (gpt-tokenizer), so budgets match what the target LLM
 * counts. Loaded on demand: an encoding's tables take a few hundred milliseconds to load,
 * which a search (whose token counts are stored) never needs to pay. Very long runs of one
 * character class are counted in slices, so a hostile 200 KB word costs milliseconds, not
 * minutes (see long-runs.ts).
 */
export async function loadTokenizer(encoding: TokenizerEncoding): Promise<Tokenizer> {
  const { countTokens } = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  return { encoding, count: (text) => (text.length === 0 ? 0 : countInLinearTime(text, countTokens)) };
}
