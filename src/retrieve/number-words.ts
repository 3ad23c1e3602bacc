import { unquotedText } from '../lexical/analyze.js';

const CARDINALS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const ORDINALS = ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];

/**
 * A small number the question writes in digits, as the docs' prose writes it in words: "column 3
 * larger than 10" is "column three exceeds ten" in a manual, "the 2nd argument" its "second
 * argument". Style guides spell out small numbers in running text, and askers type digits. Only
 * a number standing alone (not part of `11.5`, `3.11`, `1,000`, `v2`, `-1`, `4-PBA`, `5'`, `10:30`, `level=3`, `#3`, `10%` or a name), outside
 * quotes (the asker's own values), up to twelve; each word once, in question order.
 */
export function numberWords(question: string): string[] {
  const found: string[] = [];
  for (const match of unquotedText(question).matchAll(NUMBER)) {
    const value = Number(match[1]);
    const word = match[2] === undefined ? CARDINALS[value] : ORDINALS[value];
    if (word !== undefined && isOrdinalSuffix(value, match[2]) && !found.includes(word)) found.push(word);
  }
  return found;
}

/** Digits standing alone, with an ordinal suffix or none: never inside a decimal, thousands, version, range, time, hyphenated word, name, setting (`level=3`), issue number (`#3`) or percentage, nor with a leading zero (`05`); a sentence's full stop or comma after them is fine. */
const NUMBER = /(?<![\p{L}\p{N}_$.,:'’\-/=#])(0|[1-9]\d?)(st|nd|rd|th)?(?![\p{L}\p{N}_$'’\-/%]|[.,:]\p{N})/giu;

/** "1st", "2nd", "3rd", "4th" … "11th", "12th": the suffix a number takes; none is a cardinal. */
function isOrdinalSuffix(value: number, suffix: string | undefined): boolean {
  if (suffix === undefined) return true;
  const expected = value % 10 === 1 && value !== 11 ? 'st' : value % 10 === 2 && value !== 12 ? 'nd' : value % 10 === 3 ? 'rd' : 'th';
  return suffix.toLowerCase() === expected;
}
