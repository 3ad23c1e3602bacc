import { round } from '../core/round.js';
import type { Candidate, TermStats } from '../core/types.js';
import { dottedTerms, indexForm, queryTerms, termsHeld, wordParts, words } from '../lexical/analyze.js';
import { operatorTerms } from '../lexical/operators.js';
import { withoutLinkTargets } from '../lexical/links.js';
import { isStopWord } from '../lexical/stop-words.js';
import type { DefinedAlias } from './aliases.js';

export interface CoverageOptions {
  /** How strongly the share of the question a passage holds counts: the exponent of its factor (0: not at all). */
  weight: number;
}

/** A word of the question in the index's form, and how much holding it is worth (its IDF in the index). */
export interface CoveredTerm {
  term: string;
  weight: number;
}

/** What a passage is measured against: the question's own words, and the docs' other names for some of them. */
export interface CoverageTerms {
  terms: CoveredTerm[];
  /** A passage that holds one of `terms` (an alias the docs define, in the index's form) holds the words of `of`. */
  aliases: { of: readonly string[]; terms: string[] }[];
}

/**
 * The share a passage holding none of the question's words is still counted at: it reached the
 * candidates through its page title, its section's headings or a name, which BM25F has already
 * weighed, so it falls by a bounded factor (0.1^weight), never to nothing.
 */
const LEAST_SHARE = 0.1;

/**
 * The words a passage is measured against: the question's plain words (quoted values are the
 * asker's own names and data, not what the docs say), each weighted by its IDF in the index, and
 * the aliases the docs define for some of them ("key (or legend)"), so a passage that says
 * "key" holds the question's "legend".
 */
export async function coverageTerms(question: string, aliases: readonly DefinedAlias[], termStats: (words: readonly string[]) => Promise<TermStats>): Promise<CoverageTerms> {
  // Quoted values weigh 0: the asker's own names and data are left out, unless the question is nothing else.
  const own = queryTerms(question, isStopWord, 0);
  if (own.length === 0) return { terms: [], aliases: [] };
  // Term statistics take words as written and bring them to the index's form themselves: a
  // term already in that form would be stemmed twice ("raises" → "rais" → "rai").
  const written = [...new Set([...words(question), ...words(question).flatMap(wordParts), ...dottedTerms(question), ...operatorTerms(question)])];
  const { documents, documentFrequency } = await termStats(written);
  const frequencies = new Map(written.map((word) => [indexForm(word), documentFrequency.get(word) ?? 0]));
  const idf = (term: string) => {
    const frequency = frequencies.get(term) ?? 0;
    return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
  };
  return {
    terms: own.map(({ term }) => ({ term, weight: idf(term) })),
    aliases: aliases.map(({ alias, of }) => ({ of, terms: queryTerms(alias, isStopWord).map(({ term }) => term) })),
  };
}

/**
 * The share of the question's words (by weight) a passage's own text holds: its section's own
 * heading and its body, without link targets. Not the page title nor the headings above its
 * section: every passage of the page or section shares those, and BM25F weighs them already.
 */
export function coveredShare(candidate: Candidate, coverage: CoverageTerms): number {
  return shareOf(candidate, coverage, wantedTerms(coverage), totalWeight(coverage));
}

/** Every term a passage is looked at for: the question's and its aliases'. */
const wantedTerms = (coverage: CoverageTerms): Set<string> => new Set([...coverage.terms.map(({ term }) => term), ...coverage.aliases.flatMap(({ terms }) => terms)]);
const totalWeight = (coverage: CoverageTerms): number => coverage.terms.reduce((sum, { weight }) => sum + weight, 0);

function shareOf(candidate: Candidate, coverage: CoverageTerms, wanted: ReadonlySet<string>, total: number): number {
  if (total === 0) return 1;
  const held = termsHeld(`${candidate.chunk.headingPath.at(-1) ?? ''}\n${withoutLinkTargets(candidate.chunk.text)}`, wanted);
  const holds = (term: string) => held.has(term) || coverage.aliases.some(({ of, terms }) => of.includes(term) && terms.some((alias) => held.has(alias)));
  return coverage.terms.reduce((sum, { term, weight }) => sum + (holds(term) ? weight : 0), 0) / total;
}

/**
 * Weighs each passage by how much of the question its own text holds. BM25F saturates each
 * word and divides by length: a short API entry that says two of the question's words in its
 * name and one line can outscore the long guide that says all of them (libssh's threads chapter
 * came third for "is it safe to use one ssh session from several threads"). The share
 * held (IDF-weighted, as `coveredShare` reads it) multiplies the fused score by
 * `(0.1 + 0.9 × share) ^ weight`: a coordination factor, as Lucene's classic scoring had,
 * softened by the weight. The order is re-sorted; a passage that falls says so in its trace.
 */
export function weighByCoverage(candidates: readonly Candidate[], coverage: CoverageTerms, options: CoverageOptions): Candidate[] {
  if (options.weight === 0 || coverage.terms.length === 0) return [...candidates];
  const wanted = wantedTerms(coverage);
  const total = totalWeight(coverage);
  const weighed = candidates.map((candidate) => {
    const share = shareOf(candidate, coverage, wanted, total);
    if (share >= 1) return candidate;
    const factor = (LEAST_SHARE + (1 - LEAST_SHARE) * share) ** options.weight;
    const score = candidate.scores.fused * factor;
    const detail = `holds ${Math.round(share * 100)}% of the question's words by weight, ×${factor.toFixed(3)} from ${candidate.scores.fused.toFixed(4)}`;
    return { ...candidate, scores: { ...candidate.scores, fused: score }, trace: [...candidate.trace, { technique: 'coverage', rank: 0, score: round(score), detail }] };
  });
  return weighed.map((candidate, index) => ({ candidate, index })).sort((a, b) => b.candidate.scores.fused - a.candidate.scores.fused || a.index - b.index).map(({ candidate }) => candidate);
}
