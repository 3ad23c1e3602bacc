import { unquotedText, words } from '../lexical/analyze.js';
import { isQuantityWord, isStopWord } from '../lexical/stop-words.js';

/** The shortest word joined: a letter or two ("python -m pytest", a plural's "s") makes words by accident. */
const MIN_PART_LENGTH = 3;

/**
 * Two neighbouring words of a question written as one, the way docs often name the thing:
 * "config file" is pytest's `configfile`, "data file" gnuplot's `datafile`, "text wrap" Python's
 * `textwrap`, "time stamp" a `timestamp`. Only pairs of plain words of three letters or more,
 * neither a stop-word nor a quantity, outside quotes (the asker's own values); the caller keeps those the index
 * holds. Each once, in question order.
 */
export function joinedPairs(question: string): string[] {
  const found: string[] = [];
  const asked = words(question.toLowerCase());
  // Neighbours within a phrase: never across a quoted value or punctuation ("file, name").
  for (const phrase of unquotedText(question).toLowerCase().split(PHRASE_BREAK)) {
    const phraseWords = words(phrase);
    for (let index = 0; index + 1 < phraseWords.length; index += 1) {
      const first = phraseWords[index] as string;
      const second = phraseWords[index + 1] as string;
      if (!isPart(first) || !isPart(second)) continue;
      const joined = first + second;
      if (!found.includes(joined) && !asked.includes(joined)) found.push(joined);
    }
  }
  return found;
}

/** Where a phrase ends: a removed quoted span (a line break), any punctuation or symbol ("file — name", "file = name"); only a hyphen joins ("time-stamp"). */
const PHRASE_BREAK = /(?:\n|(?!-)[\p{P}\p{S}])+/u;

/** Letters only (a name with digits or underscores is already one word), long enough, neither a stop-word nor a quantity ("find all" is not `findall`). */
const isPart = (word: string): boolean => word.length >= MIN_PART_LENGTH && /^\p{L}+$/u.test(word) && !isStopWord(word) && !isQuantityWord(word);
