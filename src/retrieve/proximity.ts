import { round } from '../core/round.js';
import type { Candidate } from '../core/types.js';
import { indexForm, mayHoldTerm, unquotedText, words } from '../lexical/analyze.js';
import { isStopWord } from '../lexical/stop-words.js';

export interface ProximityOptions {
  /** Largest gap, in words, between two question words that still counts as written together. */
  window: number;
  /** The most a passage's score grows when every pair of neighbouring question words is found together. */
  weight: number;
}

/**
 * Where a question's phrase ends: a line break (a quoted span was there) or a mark between
 * clauses. Unlike compounds' breaks, a dot inside a name (`os.path.join`) does not end one: its
 * parts stand next to each other in the docs too.
 */
const PHRASE_BREAK = /\n|[,;:!?()[\]{}"]+|\.(?=\s|$)/u;

/**
 * The neighbouring content words of a question, in the index's form: "save the chart as an
 * image file" → (save, chart), (chart, imag), (imag, file). Stop-words are skipped, so the
 * pair bridges them; quoted spans (the asker's own values) and punctuation break a phrase.
 */
export function questionPairs(question: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const phrase of unquotedText(question).split(PHRASE_BREAK)) {
    const terms = words(phrase)
      .filter((word) => !isStopWord(word.toLowerCase()))
      .map((word) => indexForm(word));
    for (let index = 1; index < terms.length; index += 1) {
      const [left, right] = [terms[index - 1] as string, terms[index] as string];
      if (left !== right) pairs.push([left, right]);
    }
  }
  return pairs;
}

/** The share of the pairs whose two words stand within `window` words of each other in the text. */
export function pairsTogether(text: string, pairs: readonly (readonly [string, string])[], window: number): number {
  if (pairs.length === 0) return 0;
  // Most passages hold no pair at all: a look for each word's letters in the text spares
  // reading them word by word.
  const lower = text.toLowerCase();
  const present = (term: string) => mayHoldTerm(lower, term);
  if (!pairs.some(([left, right]) => present(left) && present(right))) return 0;
  const wanted = new Set(pairs.flat());
  const positions = new Map<string, number[]>();
  let position = 0;
  for (const word of words(text)) {
    const term = indexForm(word);
    position += 1;
    if (!wanted.has(term)) continue;
    const list = positions.get(term);
    if (list === undefined) positions.set(term, [position]);
    else list.push(position);
  }
  let together = 0;
  for (const [left, right] of pairs) {
    const a = positions.get(left);
    const b = positions.get(right);
    if (a === undefined || b === undefined) continue;
    if (closest(a, b) <= window) together += 1;
  }
  return together / pairs.length;
}

/** The smallest distance between a position of one list and one of the other (both ascending). */
function closest(a: readonly number[], b: readonly number[]): number {
  let best = Number.POSITIVE_INFINITY;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    best = Math.min(best, Math.abs(x - y));
    if (x < y) i += 1;
    else j += 1;
  }
  return best;
}

/**
 * Lifts the passages where the question's neighbouring words stand together: a passage that
 * says "set the output to a file" answers "output file" better than one that says "output" in
 * one paragraph and "file" in another (term proximity, as the sequential dependence model adds
 * to a bag of words). A passage's fused score grows by at most `weight` of itself, by the share
 * of the question's word pairs it holds within `window` words; the order is re-sorted and a
 * lifted passage says so in its trace.
 */
export function liftByProximity(candidates: readonly Candidate[], question: string, options: ProximityOptions): Candidate[] {
  const pairs = questionPairs(question);
  if (pairs.length === 0 || options.weight === 0) return [...candidates];
  const lifted = candidates.map((candidate) => {
    const share = pairsTogether(`${candidate.chunk.headingPath.join(' ')} ${candidate.chunk.text}`, pairs, options.window);
    if (share === 0) return candidate;
    const score = candidate.scores.fused * (1 + options.weight * share);
    const detail = `${Math.round(share * pairs.length)} of ${pairs.length} pairs of neighbouring question words within ${options.window} words, from ${candidate.scores.fused.toFixed(4)}`;
    return { ...candidate, scores: { ...candidate.scores, fused: score }, trace: [...candidate.trace, { technique: 'proximity', rank: 0, score: round(score), detail }] };
  });
  return lifted.map((candidate, index) => ({ candidate, index })).sort((a, b) => b.candidate.scores.fused - a.candidate.scores.fused || a.index - b.index).map(({ candidate }) => candidate);
}
