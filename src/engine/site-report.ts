import { chunkUrl } from '../core/types.js';
import type { Store } from '../store/store.js';

/**
 * How well a site was extracted, read from the index: what a docs team checks before anyone
 * asks a question. A bad extraction (every passage under one anchor, one title on every page,
 * anchors that are not on their page) shows here first.
 */
export interface SiteReport {
  site: string;
  pages: number;
  passages: number;
  /** Headings of the site's pages, and how many carry an anchor a citation can use. */
  headings: { total: number; withAnchor: number; percentWithAnchor: number };
  /** Passages keyed by an anchor that is not an id of their page (must be 0). */
  anchorsMissing: { count: number; examples: string[] };
  /** Passages per cited section (page#anchor, or the page for text before its first anchor). */
  passagesPerSection: { sections: number; median: number; p95: number; max: number };
  /** The sections with the most passages: a section holding most of a page is a lost structure. */
  largestSections: { url: string; passages: number; tokens: number }[];
  /** Titles that more than one page share, most shared first (a site header taken for a title shows here). */
  sharedTitles: { title: string; pages: number }[];
  /** Pages that gave no passage at all (an empty shell built by JavaScript, a page of only navigation). */
  emptyPages: { count: number; examples: string[] };
}

const EXAMPLES = 5;
const LARGEST = 5;
const SHARED = 10;

/** The report of every page whose URL starts with `site` (all pages when empty). */
export async function siteReport(store: Store, site: string): Promise<SiteReport> {
  const urls = await store.pageUrlsUnder(site);
  let passages = 0;
  let headings = 0;
  let withAnchor = 0;
  const missing: string[] = [];
  const sections = new Map<string, { passages: number; tokens: number }>();
  const titles = new Map<string, number>();
  const empty: string[] = [];
  for (const url of urls) {
    const page = await store.getPage(url);
    if (page === undefined) continue;
    titles.set(page.title, (titles.get(page.title) ?? 0) + 1);
    // A section resuming after its entries repeats its heading: not a heading of its own.
    const own = page.headings.filter((heading) => heading.continues !== true);
    headings += own.length;
    withAnchor += own.filter((heading) => heading.anchor !== undefined).length;
    const chunks = await store.chunksOf(url);
    if (chunks.length === 0) empty.push(url);
    passages += chunks.length;
    const anchors = await store.anchorsOf(url);
    for (const chunk of chunks) {
      if (chunk.anchor !== undefined && !anchors.has(chunk.anchor)) missing.push(chunkUrl(chunk));
      const key = chunkUrl(chunk);
      const section = sections.get(key) ?? { passages: 0, tokens: 0 };
      section.passages += 1;
      section.tokens += chunk.tokenCount;
      sections.set(key, section);
    }
  }
  const counts = [...sections.values()].map((section) => section.passages).sort((a, b) => a - b);
  const shared = [...titles].filter(([, pages]) => pages > 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    site,
    pages: urls.length,
    passages,
    headings: { total: headings, withAnchor, percentWithAnchor: headings === 0 ? 100 : Math.round((withAnchor / headings) * 1000) / 10 },
    anchorsMissing: { count: missing.length, examples: missing.slice(0, EXAMPLES) },
    passagesPerSection: { sections: counts.length, median: quantile(counts, 0.5), p95: quantile(counts, 0.95), max: counts.at(-1) ?? 0 },
    largestSections: [...sections]
      .sort((a, b) => b[1].passages - a[1].passages || b[1].tokens - a[1].tokens)
      .slice(0, LARGEST)
      .map(([url, section]) => ({ url, ...section })),
    sharedTitles: shared.slice(0, SHARED).map(([title, pages]) => ({ title, pages })),
    emptyPages: { count: empty.length, examples: empty.slice(0, EXAMPLES) },
  };
}

function quantile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}
