import type { Candidate, TermStats } from '../core/types.js';
import { dottedTerms, indexForm, questionOwnText, quotedValues, termsHeld, wordParts, words } from '../lexical/analyze.js';
import { isStopWord } from '../lexical/stop-words.js';

/** A word of a question as written (`termStats` brings it to the index's form), and how much it counts. */
export interface ContentWord {
  word: string;
  /** 1 for the question's own words; the quoted weight for a word only found in a value the question quotes. */
  weight: number;
}

/**
 * The words of a question that say what it is about, one per index form: its words without
 * stop-words, a compound name (`ssh_channel_read`, `readFile`) whole and as its parts, and a
 * dotted name (`as.numeric`, `os.path.join`) whole, as the index holds them. A word only found
 * in a quoted or backticked value (`"ls"`, `` `my_dict` ``: the asker's own) counts
 * `quotedWeight` and is not split, as in the search itself; a quoted name that looks like an
 * API (`os.path.join`, `sorted()`, and so `'file.txt'` too) is the question's own.
 */
export function contentWords(question: string, quotedWeight = 1): ContentWord[] {
  const found = new Map<string, ContentWord>();
  const add = (word: string, weight: number) => {
    const form = indexForm(word);
    if (weight > (found.get(form)?.weight ?? 0)) found.set(form, { word, weight });
  };
  const ownText = questionOwnText(question);
  for (const word of words(ownText)) {
    for (const part of [word, ...wordParts(word)]) if (!isStopWord(part.toLowerCase())) add(part, 1);
  }
  for (const name of dottedTerms(ownText)) if (!name.startsWith('-')) add(name, 1);
  for (const span of quotedValues(question)) {
    const spanWords = words(span);
    // A quoted single word is a name (pytest's "it"): never a stop-word.
    for (const word of spanWords) if (spanWords.length === 1 || !isStopWord(word.toLowerCase())) add(word, quotedWeight);
  }
  return [...found.values()];
}

/** How much a word's presence in one passage counts, against its share of the library's passages, in that passage's likelihood (Jelinek-Mercer smoothing). */
const PASSAGE_WEIGHT = 0.8;
/** How many passages of a library's own ranking, best first, are read for the question's words together. */
export const PASSAGES_READ = 10;

export interface PosteriorOptions {
  /** What a word only found in a quoted value counts (the search's own `quotedWeight`); default 1. */
  quotedWeight?: number;
  /**
   * Each source's own ranking of the question, best first (the first `PASSAGES_READ` are read):
   * a source is then judged by its best passage too. Undefined: by its passages' word shares only.
   */
  rankings?: ReadonlyMap<number, readonly Candidate[]>;
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
 *
 * Word shares alone cannot tell whether a library's passages hold the question's words
 * together: "run ls -l on the server" fits a library whose passages often say "run" and "ls",
 * and another whose passages often say "server", alike. Given each source's own ranking, a
 * source is also judged by its best passage: the likelihood of the question under that
 * passage (each word it holds counts `PASSAGE_WEIGHT`, a word it lacks the word's share of the
 * library), the best of its first `PASSAGES_READ`. The two log-likelihoods are averaged, so a
 * library whose one passage holds what the question asks gains on one whose passages hold
 * each word apart.
 */
export function sourcePosteriors(question: string, statsBySource: ReadonlyMap<number, TermStats>, options: PosteriorOptions = {}): Map<number, number> {
  // A word no source holds (a typo, the asker's own variable name) says nothing of which source
  // the question is about; counted, it would favour the smallest source, whose half a passage is
  // the largest share.
  const asked = contentWords(question, options.quotedWeight).filter(({ word }) => [...statsBySource.values()].some((stats) => (stats.documentFrequency.get(word) ?? 0) > 0));
  const logLikelihoods = [...statsBySource].map(([source, stats]) => {
    let sum = 0;
    for (const { word, weight } of asked) sum += weight * Math.log(shareOf(stats, word));
    const ranking = options.rankings?.get(source);
    const question = options.rankings === undefined ? sum : (sum + bestPassageLogLikelihood(asked, stats, ranking ?? [])) / 2;
    return [source, Math.log(Math.max(1, stats.documents)) + question] as const;
  });
  const best = Math.max(...logLikelihoods.map(([, value]) => value));
  const weights = logLikelihoods.map(([source, value]) => [source, Math.exp(value - best)] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return new Map(weights.map(([source, weight]) => [source, weight / total]));
}

/** A word's share of a source's passages, with half a passage added: an absent word lowers a source's likelihood without ruling it out. */
function shareOf(stats: TermStats, word: string): number {
  return ((stats.documentFrequency.get(word) ?? 0) + 0.5) / (stats.documents + 1);
}

/** The question's log-likelihood under the best of a source's first passages; a source with none is judged as by a passage that holds none of the words. */
function bestPassageLogLikelihood(asked: readonly ContentWord[], stats: TermStats, ranking: readonly Candidate[]): number {
  const forms = new Map(asked.map(({ word }) => [word, indexForm(word)]));
  const passages = ranking.slice(0, PASSAGES_READ).map(({ chunk }) => termsHeld([chunk.pageTitle, ...chunk.headingPath, chunk.text].join('\n'), new Set(forms.values())));
  let best = -Infinity;
  for (const terms of passages.length === 0 ? [new Set<string>()] : passages) {
    let sum = 0;
    for (const { word, weight } of asked) sum += weight * Math.log(PASSAGE_WEIGHT * (terms.has(forms.get(word) as string) ? 1 : 0) + (1 - PASSAGE_WEIGHT) * shareOf(stats, word));
    best = Math.max(best, sum);
  }
  return best;
}
