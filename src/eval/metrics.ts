/** Retrieval metrics over one ranked list: pure functions, standard definitions (as in BEIR / trec_eval). */

/** nDCG@k with graded relevance (gain = relevance, log2 discount). */
export function ndcgAt(k: number, ranked: readonly string[], relevance: ReadonlyMap<string, number>): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, index) => sum + (relevance.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = [...relevance.values()]
    .filter((value) => value > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, value, index) => sum + value / Math.log2(index + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Share of the relevant items found in the top k. */
export function recallAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((id) => relevant.has(id)));
  return found.size / relevant.size;
}

/** 1 / rank of the first relevant item within the top k, else 0. */
export function reciprocalRankAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  const index = ranked.slice(0, k).findIndex((id) => relevant.has(id));
  return index === -1 ? 0 : 1 / (index + 1);
}

/** 1 when a relevant item is in the top k, else 0. */
export function hitAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  return ranked.slice(0, k).some((id) => relevant.has(id)) ? 1 : 0;
}

/** The value at a percentile (nearest rank) of unsorted samples. */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] as number;
}

/** Keeps the first occurrence of each item: a ranking of distinct documents or sections. */
export function distinct(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
