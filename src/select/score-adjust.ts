import type { Candidate } from '../core/types.js';

export interface ScoreAdjustments {
  /** Host (or parent domain) → multiplier: `{"docs.python.org": 1.3}` prefers official docs. */
  domainWeights: Readonly<Record<string, number>>;
  /** Newer pages score up to `1 + weight` times more; a page `halfLifeDays` old gets half the boost. */
  freshness: { weight: number; halfLifeDays: number };
  /** The Last-Modified date of a page, when the server sent one. */
  lastModified?: (pageUrl: string) => string | undefined;
  now: Date;
}

/**
 * The score selection orders by: the retrieval (or reranker) score times the page's domain
 * weight and freshness. A page of unknown age counts as one half-life old.
 */
export function adjustedScore(base: (candidate: Candidate) => number, adjustments: ScoreAdjustments): (candidate: Candidate) => number {
  const domains = Object.entries(adjustments.domainWeights).map(([host, weight]) => ({ host: host.toLowerCase(), weight }));
  const { weight, halfLifeDays } = adjustments.freshness;
  const cache = new Map<string, number>();
  const factorOf = (pageUrl: string): number => {
    let factor = cache.get(pageUrl);
    if (factor !== undefined) return factor;
    factor = 1;
    if (domains.length > 0) {
      const host = hostOf(pageUrl);
      const match = domains.filter((domain) => host === domain.host || host.endsWith(`.${domain.host}`)).sort((a, b) => b.host.length - a.host.length)[0];
      if (match !== undefined) factor *= match.weight;
    }
    if (weight > 0) {
      const modified = Date.parse(adjustments.lastModified?.(pageUrl) ?? '');
      const ageDays = Number.isNaN(modified) ? halfLifeDays : Math.max(0, (adjustments.now.getTime() - modified) / 86_400_000);
      factor *= 1 + weight * 0.5 ** (ageDays / halfLifeDays);
    }
    cache.set(pageUrl, factor);
    return factor;
  };
  if (domains.length === 0 && weight === 0) return base;
  return (candidate) => base(candidate) * factorOf(candidate.chunk.pageUrl);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
