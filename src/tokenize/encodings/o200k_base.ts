// The build bundles this module with the gpt-tokenizer code it uses and this one encoding's
// ranks (scripts/bundle-encodings.ts), so the installed package carries no gpt-tokenizer.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Text that spells a special token (`<|endoftext|>`) is counted as the text it is, as a model reads a document. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` in o200k_base (GPT-4o and later). */
export const count = (text: string): number => countTokens(text, AS_TEXT);
