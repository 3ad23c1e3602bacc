import { words } from './analyze.js';
import { isStopWord } from './stop-words.js';

/**
 * The words of a question as written (lower-cased), stop-words dropped, each once: the question
 * shortened to what it asks about, as text to search with (the index analyses it again, into
 * `queryTerms`), to show in an explanation, or to name what a search left uncovered. Words are
 * split where the analyser splits them, so `add_argument` stays one word, `json.dumps` is two.
 */
export function keywords(question: string): string[] {
  const unique = [...new Set(words(question.toLowerCase()))];
  const meaningful = unique.filter((word) => !isStopWord(word));
  // A question made only of common words ("how to use it") still searches for something.
  return meaningful.length > 0 ? meaningful : unique;
}
