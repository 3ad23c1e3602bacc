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
export const LONG_RUNS = new RegExp(`[\\p{L}\\p{M}]{${MAX_RUN_LENGTH},}|[^\\s\\p{L}\\p{N}]{${MAX_RUN_LENGTH},}|\\s{${MAX_RUN_LENGTH},}`, 'gu');

/** A code point's classes, as bits: a letter or mark, a symbol (not whitespace, letter or digit), whitespace. */
const LETTER = 1;
const SYMBOL = 2;
const SPACE = 4;
const classify = (codePoint: number): number => {
  const char = String.fromCodePoint(codePoint);
  const space = /\s/u.test(char);
  const letter = /\p{L}/u.test(char);
  return (letter || /\p{M}/u.test(char) ? LETTER : 0) | (!space && !letter && !/\p{N}/u.test(char) ? SYMBOL : 0) | (space ? SPACE : 0);
};
/** Classes of the Basic Multilingual Plane, filled as met (0: not yet classified); other planes by map. */
const BMP_CLASSES = new Uint8Array(0x10000);
const ASTRAL_CLASSES = new Map<number, number>();
const KNOWN = 8;
function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let known = BMP_CLASSES[codePoint] as number;
    if (known === 0) BMP_CLASSES[codePoint] = known = classify(codePoint) | KNOWN;
    return known;
  }
  let known = ASTRAL_CLASSES.get(codePoint);
  if (known === undefined) ASTRAL_CLASSES.set(codePoint, (known = classify(codePoint)));
  return known;
}

/**
 * Whether `text` holds a run LONG_RUNS matches, in one pass over its code points. The regular
 * expression itself, tried at every position, rescans each run from each of its characters:
 * testing every text it counted cost more than the counting (a third of the ingest's
 * tokenizer time).
 */
export function hasLongRun(text: string): boolean {
  let letters = 0;
  let symbols = 0;
  let spaces = 0;
  for (let index = 0; index < text.length; index += 1) {
    let codePoint = text.charCodeAt(index);
    if (codePoint >= 0xd800 && codePoint <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = (codePoint - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        index += 1;
      }
    }
    const classes = classOf(codePoint);
    letters = classes & LETTER ? letters + 1 : 0;
    symbols = classes & SYMBOL ? symbols + 1 : 0;
    spaces = classes & SPACE ? spaces + 1 : 0;
    if (letters >= MAX_RUN_LENGTH || symbols >= MAX_RUN_LENGTH || spaces >= MAX_RUN_LENGTH) return true;
  }
  return false;
}

/**
 * Counts the tokens of `text` with `count`, giving it runs longer than MAX_RUN_LENGTH in
 * slices, so the cost stays linear in the length of the text. Text without such runs is
 * counted in one call, exactly as `count` would.
 */
export function countInLinearTime(text: string, count: (text: string) => number): number {
  if (text.length < MAX_RUN_LENGTH || !hasLongRun(text)) return count(text);
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
