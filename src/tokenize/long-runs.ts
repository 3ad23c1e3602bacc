/**
 * The longest run of one character class the BPE tokenizer is given whole. gpt-tokenizer's
 * merge loop is quadratic in the length of a pre-tokenized piece, and a run of letters (a
 * 200 KB "word", a paragraph of CJK without punctuation), of symbols (`=====…`) or of
 * whitespace is one piece: 40,000 letters cost ~1 s, 40,000 CJK characters ~9 s. Cut into
 * slices of this length, the cost is linear; the count differs from the uncut one by at most
 * about one token per slice, and only for text that has such runs.
 */
export const MAX_RUN_LENGTH = 256;

/** Runs of letters (with their combining marks), of symbols and punctuation, or of whitespace. */
const LONG_RUNS = new RegExp(`[\\p{L}\\p{M}]{${MAX_RUN_LENGTH},}|[^\\s\\p{L}\\p{N}]{${MAX_RUN_LENGTH},}|\\s{${MAX_RUN_LENGTH},}`, 'gu');
const HAS_LONG_RUN = new RegExp(LONG_RUNS.source, 'u');

/**
 * Counts the tokens of `text` with `count`, giving it runs longer than MAX_RUN_LENGTH in
 * slices, so the cost stays linear in the length of the text. Text without such runs is
 * counted in one call, exactly as `count` would.
 */
export function countInLinearTime(text: string, count: (text: string) => number): number {
  if (text.length < MAX_RUN_LENGTH || !HAS_LONG_RUN.test(text)) return count(text);
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUNS)) {
    if (match.index > last) total += count(text.slice(last, match.index));
    for (const slice of slicesOf(match[0])) total += count(slice);
    last = match.index + match[0].length;
  }
  if (last < text.length) total += count(text.slice(last));
  return total;
}

/** Slices of at most MAX_RUN_LENGTH code units that never split a surrogate pair. */
function* slicesOf(run: string): Generator<string> {
  let start = 0;
  while (start < run.length) {
    let end = Math.min(start + MAX_RUN_LENGTH, run.length);
    const last = run.charCodeAt(end - 1);
    if (end < run.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield run.slice(start, end);
    start = end;
  }
}
