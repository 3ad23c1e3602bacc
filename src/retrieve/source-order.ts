import type { Candidate, TermStats } from '../core/types.js';
import { contentWords, sourcePosteriors } from './source-likelihood.js';

export interface SourceOrderOptions {
  /** The question searched for: which source it is about is read from its words. */
  question: string;
  /** The source (library version) a candidate's page belongs to; undefined: none known. */
  sourceOf: (candidate: Candidate) => number | undefined;
  /** That source's own ranking of the query (its passages only): retrieved within it alone, with its own statistics. */
  retrieveWithin: (sourceId: number) => Promise<readonly Candidate[]>;
  /** How many of that source's passages hold each of these words, and how many it has. */
  termStatsWithin: (sourceId: number, words: readonly string[]) => Promise<TermStats>;
  /** What a word only found in a value the question quotes counts (the search's `quotedWeight`); default 1. */
  quotedWeight?: number;
  /** Sources re-ordered at most (the most frequent in the ranking first): bounds the extra retrievals. */
  maxSources: number;
  /**
   * Every source of the index, when there are no more than `maxSources`: each is ranked alone
   * even if none of its passages made the whole-index ranking (a large library's passages can
   * fill all of it). Undefined: only the sources the ranking holds.
   */
  allSources?: readonly number[];
}

/**
 * Orders an unscoped search over several sources (library versions). Whole-index statistics
 * are a blend of corpora: a word common in one library is rare in the whole, so a passage of
 * another library that repeats it once outranks the library the question is about, and within
 * a library its passages move away from the order the library alone gives them.
 *
 * So each source is ranked as if it were searched alone (its own list), and the lists are
 * merged by how likely the question is about each source (`sourcePosteriors`, from each
 * source's word shares and its own list's best passages): a passage at
 * rank r of a source of probability p stands at p / r. A question plainly about one library
 * gets that library's ranking, as if it were scoped to it, the others after; a question that
 * fits several interleaves their best passages. A passage the whole index ranked and its
 * library's own ranking did not comes after that library's own list, so none is lost.
 * Passages of other sources (past `maxSources`, or of no known source) keep their whole-index
 * order, weighted as the least likely source re-ordered. Each position keeps the whole-index
 * score at that position, so scores still fall along the list; a moved passage says so in its
 * trace.
 */
export async function orderWithinSources(candidates: readonly Candidate[], options: SourceOrderOptions): Promise<Candidate[]> {
  const sources = candidates.map((candidate) => options.sourceOf(candidate));
  const frequency = new Map<number, number>();
  for (const source of sources) if (source !== undefined) frequency.set(source, (frequency.get(source) ?? 0) + 1);
  const everySource = options.allSources !== undefined && options.allSources.length <= options.maxSources ? [...new Set(options.allSources)] : undefined;
  if ((everySource ?? [...frequency.keys()]).length < 2) return [...candidates];
  const chosen = everySource ?? [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, options.maxSources).map(([source]) => source);
  if (chosen.length === 0) return [...candidates];
  const asked = contentWords(options.question, options.quotedWeight).map(({ word }) => word);
  const [own, stats] = await Promise.all([
    Promise.all(chosen.map(async (source) => [source, await options.retrieveWithin(source)] as const)),
    Promise.all(chosen.map(async (source) => [source, await options.termStatsWithin(source, asked)] as const)),
  ]);
  const posteriors = sourcePosteriors(options.question, new Map(stats), { ...(options.quotedWeight === undefined ? {} : { quotedWeight: options.quotedWeight }), rankings: new Map(own) });
  const others = candidates.filter((_candidate, index) => !chosen.includes(sources[index] as number));
  // A passage the whole-index ranking found and its library's own ranking did not (a follow-up
  // round found it, say) is kept, after that library's own list.
  const ownOrMissed = (source: number, list: readonly Candidate[]) => {
    const listed = new Set(list.map((candidate) => candidate.chunk.id));
    return [...list, ...candidates.filter((candidate, index) => sources[index] === source && !listed.has(candidate.chunk.id))];
  };
  const lists = [
    ...own.map(([source, list]) => ({ weight: posteriors.get(source) ?? 0, list: ownOrMissed(source, list), detail: `its library's own ranking, which the question is about with probability ${(posteriors.get(source) ?? 0).toFixed(3)}` })),
    { weight: Math.min(...posteriors.values()), list: others, detail: 'the ranking over every library (its library was not re-ordered)' },
  ];
  const placed = lists
    .flatMap(({ weight, list, detail }, order) => list.map((candidate, index) => ({ candidate, detail, key: weight / (index + 1), order, rank: index })))
    .sort((a, b) => b.key - a.key || a.order - b.order || a.rank - b.rank);
  const taken = new Set<string>();
  const ordered: Candidate[] = [];
  for (const { candidate, detail } of placed) {
    if (ordered.length >= candidates.length) break;
    if (taken.has(candidate.chunk.id)) continue;
    taken.add(candidate.chunk.id);
    const position = ordered.length;
    const slot = candidates[position] as Candidate;
    ordered.push(slot.chunk.id === candidate.chunk.id ? slot : moved(candidate, slot.scores.fused, position + 1, detail));
  }
  return ordered;
}

function moved(candidate: Candidate, score: number, rank: number, detail: string): Candidate {
  return { ...candidate, scores: { ...candidate.scores, fused: score }, trace: [...candidate.trace, { technique: 'source-order', rank, score, detail: `placed by ${detail}` }] };
}
