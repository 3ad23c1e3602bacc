import type { Candidate } from '../core/types.js';

export interface SourceOrderOptions {
  /** The source (library version) a candidate's page belongs to; undefined: none known. */
  sourceOf: (candidate: Candidate) => number | undefined;
  /** That source's own ranking of the query (its passages only): retrieved within it alone, with its own statistics. */
  retrieveWithin: (sourceId: number) => Promise<readonly Candidate[]>;
  /** Sources re-ordered at most (the most frequent in the ranking first): bounds the extra retrievals. */
  maxSources: number;
}

/**
 * An unscoped search over several sources ranks with the statistics of the whole index: the
 * one scale on which passages of different libraries compare. Within one source, though, those
 * statistics are a blend of other corpora (a word common in one library is rare in the whole),
 * and they reorder its passages away from how the source ranks them by itself. So each source
 * keeps the slots the global ranking gives it, and fills them in its own order (as a search
 * scoped to it, or the source indexed alone, ranks them). The slot keeps its global score, so
 * scores still fall along the list; a passage that fills another's slot says so in its trace.
 */
export async function orderWithinSources(candidates: readonly Candidate[], options: SourceOrderOptions): Promise<Candidate[]> {
  const slots = candidates.map((candidate) => options.sourceOf(candidate));
  const frequency = new Map<number, number>();
  for (const source of slots) if (source !== undefined) frequency.set(source, (frequency.get(source) ?? 0) + 1);
  if (frequency.size < 2) return [...candidates];
  const chosen = [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, options.maxSources).map(([source]) => source);
  const own = new Map(await Promise.all(chosen.map(async (source) => [source, [...(await options.retrieveWithin(source))]] as const)));
  const taken = new Set<string>();
  const ordered: Candidate[] = [];
  candidates.forEach((slot, index) => {
    const source = slots[index];
    const next = source === undefined ? undefined : own.get(source)?.find((candidate) => !taken.has(candidate.chunk.id));
    const filled = next === undefined || next.chunk.id === slot.chunk.id ? slot : fill(slot, next, index + 1);
    if (taken.has(filled.chunk.id)) return;
    taken.add(filled.chunk.id);
    ordered.push(filled);
  });
  // A slot whose passage an earlier slot took is left out; its source's own list has the passage that replaced it.
  return ordered;
}

function fill(slot: Candidate, own: Candidate, rank: number): Candidate {
  return {
    ...own,
    scores: { ...own.scores, fused: slot.scores.fused },
    trace: [...own.trace, { technique: 'source-order', rank, score: slot.scores.fused, detail: "its library's own ranking fills this library's slot in the ranking over every library" }],
  };
}
