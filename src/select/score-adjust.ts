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
  if (Object.keys(adjustments.domainWeights).length === 0 && adjustments.freshness.weight === 0) return base;
  const factorOf = pageFactor(adjustments);
  return (candidate) => base(candidate) * factorOf(candidate.chunk.pageUrl);
}

/** A page's multiplier: its domain weight (the longest matching host) times its freshness boost. */
export function pageFactor(adjustments: ScoreAdjustments): (pageUrl: string) => number {
  const domains = Object.entries(adjustments.domainWeights).map(([host, weight]) => ({ host: host.toLowerCase(), weight }));
  const { weight, halfLifeDays } = adjustments.freshness;
  const cache = new Map<string, number>();
  return (pageUrl) => {
    let factor = cache.get(pageUrl);
    if (factor !== undefined) return factor;
    factor = domainWeightOf(pageUrl, domains);
    if (weight > 0) {
      const modified = Date.parse(adjustments.lastModified?.(pageUrl) ?? '');
      const ageDays = Number.isNaN(modified) ? halfLifeDays : Math.max(0, (adjustments.now.getTime() - modified) / 86_400_000);
      factor *= 1 + weight * 0.5 ** (ageDays / halfLifeDays);
    }
    cache.set(pageUrl, factor);
    return factor;
  };
}

/** The weight of the longest host in `domains` that is the page's host or a parent domain of it; 1 when none is. */
export function domainWeightOf(pageUrl: string, domains: readonly { host: string; weight: number }[]): number {
  const host = hostOf(pageUrl);
  const match = domains.filter((domain) => host === domain.host || host.endsWith(`.${domain.host}`)).sort((a, b) => b.host.length - a.host.length)[0];
  return match?.weight ?? 1;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
