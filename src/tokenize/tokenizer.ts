import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Tokenizer } from '../core/types.js';

export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

const counters: Record<TokenizerEncoding, (text: string) => number> = {
  o200k_base: countO200k,
  cl100k_base: countCl100k,
};

/** A tiktoken-compatible tokenizer (gpt-tokenizer), so budgets match what the target LLM counts. */
export function createTokenizer(encoding: TokenizerEncoding): Tokenizer {
  const count = counters[encoding];
  return { encoding, count: (text) => (text.length === 0 ? 0 : count(text)) };
}
