/** A page that may be selected: its relevance, its score multiplier, and its fragments' relevance. */
export interface PageChoice {
  url: string;
  /** Relevance in [0, 1], compared with the threshold. */
  relevance: number;
  /** Domain weight × freshness: selection orders by relevance × factor. */
  factor: number;
  /** Search rank: breaks ties. */
  rank: number;
  fragmentScores: readonly number[];
}

export interface PageSelectOptions {
  maxTotalTokens: number;
  maxSelectedPages: number;
  /** Pages less relevant than this are dropped. */
  scoreThreshold: number;
  /** A page at least this similar to a selected one is a near-duplicate. */
  similarityThreshold: number;
  similarity: (a: string, b: string) => number;
  /** Tokens a page costs in the output: whole (`fragments` undefined) or only those fragments. */
  cost: (url: string, fragments?: readonly number[]) => number;
  /** A fragment is one of a page's best sections when it scores at least this share of the page's best. */
  sectionShare: number;
  /** A page less relevant than this share of the most relevant page gives only its best sections, never its whole text. */
  wholeShare: number;
}

export interface PageSelection {
  url: string;
  /** The fragments kept, in reading order, when not the whole page is; absent when whole. */
  fragments?: number[];
  /** Why only sections: the whole page did not fit the budget, or the page is marginal next to the best one. */
  partial?: 'budget' | 'marginal';
  cost: number;
}

export type PageDropReason = 'threshold' | 'cap' | 'duplicate' | 'budget';

export interface DroppedPage {
  url: string;
  reason: PageDropReason;
  score: number;
  duplicateOf?: string;
  similarity?: number;
}

/**
 * Seed 000's selection: pages in order of relevance × domain weight × freshness; a page under
 * the threshold, beyond the page cap or nearly identical to a selected one is skipped; a page
 * that fits the remaining budget is taken whole, else its best sections that fit, else skipped
 * (a smaller page after it may still fit). A marginal page (far less relevant than the best)
 * gives only its best sections. The total never exceeds `maxTotalTokens`.
 */
export function selectPages(pages: readonly PageChoice[], options: PageSelectOptions): { selected: PageSelection[]; dropped: DroppedPage[]; totalTokens: number } {
  const ordered = [...pages].sort((a, b) => b.relevance * b.factor - a.relevance * a.factor || a.rank - b.rank);
  const bestRelevance = Math.max(0, ...pages.map((page) => page.relevance));
  const selected: PageSelection[] = [];
  const dropped: DroppedPage[] = [];
  let totalTokens = 0;
  for (const page of ordered) {
    const drop = (reason: PageDropReason, extra: Partial<DroppedPage> = {}) => dropped.push({ url: page.url, reason, score: page.relevance, ...extra });
    if (page.relevance < options.scoreThreshold) {
      drop('threshold');
      continue;
    }
    if (selected.length >= options.maxSelectedPages) {
      drop('cap');
      continue;
    }
    const twin = nearest(page.url, selected, options.similarity);
    if (twin !== undefined && twin.similarity >= options.similarityThreshold) {
      drop('duplicate', { duplicateOf: twin.url, similarity: Math.round(twin.similarity * 1000) / 1000 });
      continue;
    }
    const remaining = options.maxTotalTokens - totalTokens;
    const marginal = page.relevance < bestRelevance * options.wholeShare;
    const whole = options.cost(page.url);
    if (!marginal && whole <= remaining) {
      selected.push({ url: page.url, cost: whole });
      totalTokens += whole;
      continue;
    }
    const sections = bestSections(page, remaining, marginal ? 'marginal' : 'budget', options);
    if (sections === undefined) {
      drop('budget');
      continue;
    }
    selected.push(sections);
    totalTokens += sections.cost;
  }
  return { selected, dropped, totalTokens };
}

function bestSections(page: PageChoice, remaining: number, partial: 'budget' | 'marginal', options: PageSelectOptions): PageSelection | undefined {
  const best = Math.max(0, ...page.fragmentScores);
  if (best <= 0) return undefined;
  const order = page.fragmentScores
    .map((score, index) => ({ score, index }))
    .filter(({ score }) => score > 0 && score >= best * options.sectionShare)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  let kept: number[] = [];
  let cost = 0;
  for (const { index } of order) {
    const trial = [...kept, index].sort((a, b) => a - b);
    const trialCost = options.cost(page.url, trial);
    if (trialCost > remaining) continue;
    kept = trial;
    cost = trialCost;
  }
  if (kept.length === 0) return undefined;
  // All of a marginal page's text that counts is the whole page: then it is the whole page.
  if (kept.length === page.fragmentScores.length && options.cost(page.url) <= remaining) return { url: page.url, cost: options.cost(page.url) };
  return { url: page.url, fragments: kept, partial, cost };
}

function nearest(url: string, selected: readonly PageSelection[], similarity: (a: string, b: string) => number) {
  let best: { url: string; similarity: number } | undefined;
  for (const other of selected) {
    const value = similarity(url, other.url);
    if (best === undefined || value > best.similarity) best = { url: other.url, similarity: value };
  }
  return best;
}
