import { safeDecode } from '../core/url-text.js';
import type { Engine, PageInspection } from '../engine/engine-types.js';
import type { DocsQuestion } from './datasets.js';

/** How one question was answered, for the per-question detail of a run. */
export interface AnswerEvalRow {
  id: string;
  query: string;
  gold: string[];
  /** The URL of the top-ranked search result (absent: search found nothing). */
  top1?: string;
  cited: string[];
  citesGold: boolean;
  citesTop1: boolean;
  searchGoldAt1: boolean;
}

export interface AnswerEvalReport {
  /** Shares of the questions, in [0, 1]: `answerCitesGold`, `answerCitesTop1`, `searchGoldAt1`. */
  metrics: Record<'answerCitesGold' | 'answerCitesTop1' | 'searchGoldAt1', number>;
  perQuery: AnswerEvalRow[];
}

/**
 * Asks every question and compares what the answer cites with the gold sections and with the
 * top-ranked search result (what `citedocs search` shows first for the same question). A cited
 * URL counts as gold when its page is a gold page and its anchor is the gold anchor or the anchor
 * of a section nested inside it, judged by the heading paths of the page's stored passages.
 */
export async function evaluateAnswers(engine: Engine, questions: readonly DocsQuestion[], siteUrl: string): Promise<AnswerEvalReport> {
  const site = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  // The gold pages, read before their sections are compared with what was cited.
  const pages = new Map<string, PageInspection | undefined>();
  const inspect = (pageUrl: string) => pages.get(pageUrl);
  const rows: AnswerEvalRow[] = [];
  for (const question of questions) {
    const gold = question.gold.map((path) => splitUrl(new URL(path, site).href));
    for (const section of gold) if (!pages.has(section.page)) pages.set(section.page, await engine.inspect(section.page));
    const inGold = (url: string) => gold.some((section) => isWithin(splitUrl(url), section, inspect));
    const { results } = await engine.search(question.query);
    const answer = await engine.ask(question.query);
    const top1 = results[0]?.url;
    const cited = answer.citations.map((citation) => citation.url);
    rows.push({
      id: question.qid,
      query: question.query,
      gold: question.gold,
      ...(top1 === undefined ? {} : { top1 }),
      cited,
      citesGold: cited.some(inGold),
      citesTop1: top1 !== undefined && cited.some((url) => sameSection(splitUrl(url), splitUrl(top1))),
      searchGoldAt1: top1 !== undefined && inGold(top1),
    });
  }
  const share = (pick: (row: AnswerEvalRow) => boolean) => (rows.length === 0 ? 0 : Math.round((rows.filter(pick).length / rows.length) * 10_000) / 10_000);
  return {
    metrics: {
      answerCitesGold: share((row) => row.citesGold),
      answerCitesTop1: share((row) => row.citesTop1),
      searchGoldAt1: share((row) => row.searchGoldAt1),
    },
    perQuery: rows,
  };
}

export interface SectionUrl {
  page: string;
  anchor: string;
}

/** A URL as page + decoded anchor; `a/index.html` and `a/` are one page. */
function splitUrl(url: string): SectionUrl {
  const hash = url.indexOf('#');
  const page = (hash === -1 ? url : url.slice(0, hash)).replace(/(^|\/)index\.html?$/i, '$1');
  return { page, anchor: hash === -1 ? '' : safeDecode(url.slice(hash + 1)) };
}

function sameSection(a: SectionUrl, b: SectionUrl): boolean {
  return a.page === b.page && a.anchor === b.anchor;
}

/**
 * Whether `cited` is the gold section or a section nested in it: same page, and every stored
 * passage under the cited anchor sits below the gold anchor's heading path. A gold URL without an
 * anchor is the whole page.
 */
export function isWithin(cited: SectionUrl, gold: SectionUrl, inspect: (pageUrl: string) => PageInspection | undefined): boolean {
  if (cited.page !== gold.page) return false;
  if (gold.anchor === '' || cited.anchor === gold.anchor) return true;
  if (cited.anchor === '') return false;
  const page = inspect(gold.page);
  if (page === undefined) return false;
  const goldPaths = page.chunks.filter((chunk) => chunk.anchor === gold.anchor).map((chunk) => chunk.headingPath);
  const goldPath = goldPaths.sort((a, b) => a.length - b.length)[0];
  if (goldPath === undefined) return false;
  const citedPaths = page.chunks.filter((chunk) => chunk.anchor === cited.anchor).map((chunk) => chunk.headingPath);
  return citedPaths.length > 0 && citedPaths.every((path) => path.length > goldPath.length && goldPath.every((heading, index) => path[index] === heading));
}
