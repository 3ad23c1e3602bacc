// The build bundles this module with the gpt-tokenizer code it uses and this one encoding's
// ranks (scripts/bundle-encodings.ts), so the installed package carries no gpt-tokenizer.
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';

/** Text that spells a special token (`<|endoftext|>`) is counted as the text it is, as a model reads a document. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` in cl100k_base (GPT-4, GPT-3.5). */
export const count = (text: string): number => countTokens(text, AS_TEXT);
