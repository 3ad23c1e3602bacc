import { indexForm, queryTerms, words } from '../lexical/analyze.js';
import { isStopWord } from '../lexical/stop-words.js';
import type { TermStats, TextHit } from '../core/types.js';

export interface PrfOptions {
  /** Top BM25 hits taken as relevant. */
  feedbackDocs: number;
  /** Expansion terms added at most. */
  expansionTerms: number;
}

/**
 * RM3-style pseudo-relevance feedback: the words that weigh most in the top hits (each hit's
 * term distribution, weighted by its share of the BM25 score) times their IDF in the whole
 * index, so words common everywhere ("function", "returns") do not crowd out the specific ones.
 */
export async function feedbackTerms(question: string, hits: readonly TextHit[], stats: (words: readonly string[]) => Promise<TermStats>, options: PrfOptions): Promise<string[]> {
  const feedback = hits.slice(0, options.feedbackDocs);
  if (feedback.length === 0 || options.expansionTerms === 0) return [];
  // Compared as the index reads them: "index" adds nothing to a question about "indexes".
  const asked = new Set(queryTerms(question, isStopWord).map(({ term }) => term));
  const total = feedback.reduce((sum, hit) => sum + Math.max(hit.bm25, 0), 0) || 1;
  const relevance = new Map<string, number>();
  for (const hit of feedback) {
    const words = wordsOf(`${hit.chunk.pageTitle} ${hit.chunk.headingPath.join(' ')} ${hit.chunk.text}`);
    if (words.length === 0) continue;
    const weight = Math.max(hit.bm25, 0) / total;
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) relevance.set(word, (relevance.get(word) ?? 0) + (weight * count) / words.length);
  }
  // Only the words that weigh most in the feedback are worth an IDF look-up (each costs one).
  const candidates = [...relevance.entries()]
    .filter(([word]) => !asked.has(indexForm(word)))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, Math.max(options.expansionTerms * 4, 20))
    .map(([word]) => word);
  const { documents, documentFrequency } = await stats(candidates);
  return candidates
    .map((word) => {
      const df = documentFrequency.get(word) ?? 0;
      const idf = Math.log(1 + (documents - df + 0.5) / (df + 0.5));
      // A word in a single chunk is more likely a typo or an id than a topic.
      return { word, score: df < 2 ? 0 : (relevance.get(word) ?? 0) * idf };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.word.localeCompare(b.word))
    .slice(0, options.expansionTerms)
    .map((entry) => entry.word);
}

function wordsOf(text: string): string[] {
  // Digits-only and one- or two-letter tokens carry no topic.
  return words(text.toLowerCase()).filter((word) => word.length > 2 && !/^\d+$/.test(word) && !isStopWord(word));
}
