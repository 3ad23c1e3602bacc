import { expandContractions, keywordsIn } from './analyze.js';
import { isStopWord } from './stop-words.js';

/**
 * The words of a question (lower-cased letters and digits), stop-words dropped, each once: the
 * question shortened to what it asks about, as text to search with (the index analyses it
 * again, into `queryTerms`), to show in an explanation, or to name what a search left
 * uncovered. Not index terms: `add_argument` gives `add` and `argument`, as the index's own
 * split of it does, without the whole name (PRF and follow-up queries measured no better with it).
 */
export function keywords(question: string): string[] {
  const written = expandContractions(question);
  const unique = [...new Set(written.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const keyword = new Set([...keywordsIn(written)].map((word) => word.toLowerCase()));
  const meaningful = unique.filter((word) => !isStopWord(word) || keyword.has(word));
  // A question made only of common words ("how to use it") still searches for something.
  return meaningful.length > 0 ? meaningful : unique;
}
