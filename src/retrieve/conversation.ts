import { isStopWord } from '../lexical/stop-words.js';

/** Words that point back at something said before ("how do I drop it?"). */
const BACK_REFERENCES = new Set(['it', 'its', 'this', 'that', 'these', 'those', 'they', 'them', 'their', 'there', 'one', 'ones', 'same', 'also', 'instead', 'too']);

/** At most this many content words, a question is short enough to lean on the one before it. */
const SHORT_QUESTION_WORDS = 3;

/**
 * The query to retrieve with for the latest question of a conversation. A follow-up ("and how
 * do I drop it?", "what about Windows?") names too little to search on its own: it points
 * back, or has few words of its own. Then the previous question is searched with it, so
 * retrieval finds the topic the conversation is on; a question that stands alone is searched
 * as it is (its answer is still written for it alone).
 */
export function retrievalQuery(question: string, earlierQuestions: readonly string[]): string {
  const previous = earlierQuestions.at(-1)?.trim();
  if (previous === undefined || previous === '') return question;
  const words = question.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const pointsBack = words.some((word) => BACK_REFERENCES.has(word));
  const contentWords = words.filter((word) => !isStopWord(word) && !BACK_REFERENCES.has(word));
  return pointsBack || contentWords.length <= SHORT_QUESTION_WORDS ? `${previous} ${question}` : question;
}
