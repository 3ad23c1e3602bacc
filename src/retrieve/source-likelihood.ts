import type { TermStats } from '../core/types.js';
import { expandContractions, wordParts, words } from '../lexical/analyze.js';
import { isStopWord } from '../lexical/stop-words.js';

/**
 * The words of a question that say what it is about, each once, as written (`termStats` brings
 * them to the index's form): its words without stop-words, and a compound name
 * (`ssh_channel_read`, `readFile`) whole and as its parts, as the index holds it.
 */
export function contentWords(question: string): string[] {
  const found = new Set<string>();
  for (const word of words(expandContractions(question))) {
    for (const part of [word, ...wordParts(word)]) {
      const lower = part.toLowerCase();
      if (!isStopWord(lower)) found.add(lower);
    }
  }
  return [...found];
}

/**
 * Which source (library version) a question is about: the probability of each source given the
 * question, when each source is a language model of its passages (query likelihood, as federated
 * search selects a collection). A word's probability in a source is the share of its passages
 * that hold the word, with half a passage added so an absent word lowers a source's likelihood
 * without ruling it out. Before the question every passage is equally likely to be the one asked
 * about, so a source is as likely as its share of the passages: a library fifteen times larger
 * covers that many more topics, and a question a small library's words fit only a little better
 * (a date question put to a plotting tool and to a whole standard library) is not sent to the
 * small one with near certainty. The result sums to 1.
 * A source of very few passages is judged on little evidence: half a passage is a large share
 * of it, so it is not pulled toward the whole index (smoothing toward the whole index's shares
 * was measured and routed worse: the whole index is mostly the large libraries themselves).
 *
 * Whole-index statistics cannot tell this: a word common in one library ("test" in a test
 * framework's docs) is rare over the whole index, and a passage of another library that
 * repeats it once outranks the library the question is about.
 */
export function sourcePosteriors(question: string, statsBySource: ReadonlyMap<number, TermStats>): Map<number, number> {
  // A word no source holds (a typo, the asker's own variable name) says nothing of which source
  // the question is about; counted, it would favour the smallest source, whose half a passage is
  // the largest share.
  const asked = contentWords(question).filter((word) => [...statsBySource.values()].some((stats) => (stats.documentFrequency.get(word) ?? 0) > 0));
  const logLikelihoods = [...statsBySource].map(([source, stats]) => {
    let sum = 0;
    for (const word of asked) sum += Math.log(((stats.documentFrequency.get(word) ?? 0) + 0.5) / (stats.documents + 1));
    return [source, Math.log(Math.max(1, stats.documents)) + sum] as const;
  });
  const best = Math.max(...logLikelihoods.map(([, value]) => value));
  const weights = logLikelihoods.map(([source, value]) => [source, Math.exp(value - best)] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return new Map(weights.map(([source, weight]) => [source, weight / total]));
}
