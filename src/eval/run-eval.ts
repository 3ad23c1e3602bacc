import { safeDecode } from '../core/url-text.js';
import type { Engine } from '../engine/engine.js';
import type { ScopeOptions } from '../engine/engine-types.js';
import type { BeirDataset, DocsQuestion } from './datasets.js';
import { distinct, hitAt, mean, ndcgAt, percentile, recallAt, reciprocalRankAt } from './metrics.js';

export interface EvalReport {
  dataset: string;
  queries: number;
  metrics: Record<string, number>;
  /** Per-query detail: what was asked, what was relevant, what came back first. */
  perQuery: { id: string; query: string; relevant: string[]; top: string[] }[];
}

/** Candidates looked at per query: enough for recall@40 after duplicates collapse. */
const DEPTH = 100;
const NO_BUDGET = 100_000_000;

/**
 * BEIR: every corpus document is one page `corpus:<id>`; a query's ranking is the distinct
 * documents of its ranked passages. Graded nDCG@10 from the qrels.
 */
export async function evaluateBeir(engine: Engine, dataset: BeirDataset, scope: ScopeOptions = {}): Promise<EvalReport> {
  const rows = await mapInOrder(dataset.queries, async (query) => {
    const started = performance.now();
    const { results } = await engine.search(query.text, { ...scope, limit: DEPTH, maxTokens: NO_BUDGET });
    const latencyMs = performance.now() - started;
    const ranked = distinct(results.map((result) => decodeURIComponent(result.url.replace(/^corpus:/, '').split('#')[0] ?? '')));
    const relevance = dataset.qrels.get(query.id) ?? new Map<string, number>();
    const relevant = new Set(relevance.keys());
    return { id: query.id, query: query.text, relevant: [...relevant], ranked, relevance, latencyMs };
  });
  const metric = (score: (row: (typeof rows)[number]) => number) => round(mean(rows.map(score)));
  return {
    dataset: dataset.name,
    queries: rows.length,
    metrics: {
      'ndcg@10': metric((row) => ndcgAt(10, row.ranked, row.relevance)),
      'recall@5': metric((row) => recallAt(5, row.ranked, new Set(row.relevant))),
      'recall@10': metric((row) => recallAt(10, row.ranked, new Set(row.relevant))),
      'recall@40': metric((row) => recallAt(40, row.ranked, new Set(row.relevant))),
      'mrr@10': metric((row) => reciprocalRankAt(10, row.ranked, new Set(row.relevant))),
      'hit@5': metric((row) => hitAt(5, row.ranked, new Set(row.relevant))),
      'pageHit@5': metric((row) => hitAt(5, row.ranked, new Set(row.relevant))),
      latencyP50Ms: round(percentile(rows.map((row) => row.latencyMs), 0.5), 1),
      latencyP95Ms: round(percentile(rows.map((row) => row.latencyMs), 0.95), 1),
    },
    perQuery: rows.map((row) => ({ id: row.id, query: row.query, relevant: row.relevant, top: row.ranked.slice(0, 5) })),
  };
}

/**
 * Docs questions: gold entries are `page#anchor` paths relative to the site URL. A section
 * hit needs the page and the anchor; a page hit the page only.
 */
/** `scope` limits every search to a library (version), as `eval --library --version` asks. */
export async function evaluateQuestions(engine: Engine, questions: readonly DocsQuestion[], siteUrl: string, name: string, scope: ScopeOptions = {}): Promise<EvalReport> {
  const site = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  const rows = await mapInOrder(questions, async (question) => {
    const started = performance.now();
    const { results } = await engine.search(question.query, { ...scope, limit: DEPTH, maxTokens: NO_BUDGET });
    const latencyMs = performance.now() - started;
    const listed = results.map((result) => normalise(result.url.startsWith(site) ? result.url.slice(site.length) : result.url));
    const sections = distinct(listed);
    // The same page#anchor shown twice in the first five: tokens an agent pays for nothing (must be 0).
    const duplicatesTop5 = listed.slice(0, 5).length - new Set(listed.slice(0, 5)).size;
    const pages = distinct(sections.map(pageOf));
    const gold = new Set(question.gold.map(normalise));
    const goldPages = new Set([...gold].map(pageOf));
    const inside = await insideGold(engine, site, gold);
    return { id: question.qid, query: question.query, gold, goldPages, sections, pages, latencyMs, duplicatesTop5, inside };
  });
  const metric = (score: (row: (typeof rows)[number]) => number) => round(mean(rows.map(score)));
  const binary = (set: ReadonlySet<string>) => new Map([...set].map((id) => [id, 1]));
  return {
    dataset: name,
    queries: rows.length,
    metrics: {
      'ndcg@10': metric((row) => ndcgAt(10, row.sections, binary(row.gold))),
      'recall@5': metric((row) => recallAt(5, row.sections, row.gold)),
      'recall@10': metric((row) => recallAt(10, row.sections, row.gold)),
      'recall@40': metric((row) => recallAt(40, row.sections, row.gold)),
      'mrr@10': metric((row) => reciprocalRankAt(10, row.sections, row.gold)),
      'hit@1': metric((row) => hitAt(1, row.sections, row.gold)),
      'hit@5': metric((row) => hitAt(5, row.sections, row.gold)),
      'hit@10': metric((row) => hitAt(10, row.sections, row.gold)),
      // A hit also when the result is a subsection or entry nested inside a gold section.
      'insideHit@5': metric((row) => hitAt(5, row.sections, row.inside)),
      duplicatesTop5: rows.reduce((sum, row) => sum + row.duplicatesTop5, 0),
      'pageHit@1': metric((row) => hitAt(1, row.pages, row.goldPages)),
      'pageHit@5': metric((row) => hitAt(5, row.pages, row.goldPages)),
      'pageHit@10': metric((row) => hitAt(10, row.pages, row.goldPages)),
      'pageMrr@10': metric((row) => reciprocalRankAt(10, row.pages, row.goldPages)),
      latencyP50Ms: round(percentile(rows.map((row) => row.latencyMs), 0.5), 1),
      latencyP95Ms: round(percentile(rows.map((row) => row.latencyMs), 0.95), 1),
    },
    perQuery: rows.map((row) => ({ id: row.id, query: row.query, relevant: [...row.gold], top: row.sections.slice(0, 5) })),
  };
}

/**
 * The gold sections and every section nested inside one: the anchors of the headings that
 * follow a gold heading on its page until one of the same or a higher level.
 */
async function insideGold(engine: Engine, site: string, gold: ReadonlySet<string>): Promise<Set<string>> {
  const inside = new Set(gold);
  for (const entry of gold) {
    const [page = '', anchor] = entry.split('#', 2);
    if (anchor === undefined) continue;
    const inspection = (await engine.inspect(`${site}${page}`)) ?? (await engine.inspect(`${site}${page}index.html`));
    if (inspection === undefined) continue;
    const headings = inspection.headings;
    const start = headings.findIndex((heading) => heading.anchor !== undefined && safeDecode(heading.anchor) === anchor);
    if (start < 0) continue;
    const level = headings[start]?.level ?? 0;
    for (const heading of headings.slice(start + 1)) {
      // The gold section resuming after its entries: the entries after it are still inside.
      if (heading.continues === true && heading.anchor === headings[start]?.anchor) continue;
      if (heading.level <= level) break;
      if (heading.anchor !== undefined) inside.add(`${page}#${safeDecode(heading.anchor)}`);
    }
  }
  return inside;
}

/** `a/index.html#x` and `a/#x` are one page; fragments compared decoded. */
function normalise(path: string): string {
  const [page = '', fragment] = path.split('#', 2);
  const folder = page.replace(/(^|\/)index\.html?$/i, '$1');
  return fragment === undefined || fragment === '' ? folder : `${folder}#${safeDecode(fragment)}`;
}

function pageOf(section: string): string {
  return section.split('#')[0] ?? section;
}


function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** One query at a time, so each latency is measured alone. */
async function mapInOrder<T, R>(items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await map(item));
  return results;
}
