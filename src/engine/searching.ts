import { type AnchorMap, checkLink } from '../answer/link-check.js';
import { diagnostic, logDiagnostics, withWarnings } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import { round } from '../core/round.js';
import { type Candidate, chunkUrl } from '../core/types.js';
import type { SourceLabel } from '../store/store.js';
import type { EngineContext } from './engine-context.js';
import type { SearchOptions, SearchResponse, SearchResult } from './engine-types.js';
import { labelFor } from './library-catalog.js';
import { groupByPage } from './page-groups.js';
import type { SelectPassages } from './passage-selection.js';
import { createUsageMeter, metering } from './usage.js';

/** `search`: the selected passages, each at a URL whose page and anchor exist (corrected, or left out, when not). */
export async function searchPassages(context: EngineContext, selectPassages: SelectPassages, query: string, options: SearchOptions): Promise<SearchResponse> {
  const { config } = context;
  const limit = options.limit ?? config.select.finalK;
  const meter = createUsageMeter();
  const started = performance.now();
  const { selection, diagnostics, retrieval } = await metering(meter, () =>
    selectPassages({ query, limit, maxTokens: options.maxTokens ?? config.select.maxTotalTokens, maxPages: options.maxPages, scope: options, signal: options.signal }),
  );
  const pageUrls = selection.candidates.map((candidate) => candidate.chunk.pageUrl);
  const anchors = await anchorMapOf(context, pageUrls);
  const labels = await context.store().catalog.sourceLabels(pageUrls);
  const results: SearchResult[] = [];
  for (const candidate of selection.candidates) {
    const verdict = checkLink(chunkUrl(candidate.chunk), anchors);
    if (!verdict.ok) diagnostics.push(diagnostic('answer.link-corrected', verdict.warning));
    if (verdict.url !== undefined) results.push(searchResult(candidate, verdict.url, labels, options.explain === true));
  }
  const usage = meter.total();
  logDiagnostics(diagnostics);
  logger('retrieve').info({ query, results: results.length, usage, ms: elapsedMs(started) }, 'search answered');
  return { results, ...(options.groupByPage === true ? { pages: groupByPage(results) } : {}), ...withWarnings(diagnostics), retrieval, usage, ...(options.explain === true ? { selection: { totalTokens: selection.totalTokens, dropped: selection.dropped } } : {}) };
}

function searchResult(candidate: Candidate, url: string, labels: ReadonlyMap<string, SourceLabel>, explain: boolean): SearchResult {
  return {
    url,
    ...labelFor(labels, url),
    title: candidate.chunk.pageTitle,
    headingPath: candidate.chunk.headingPath,
    text: candidate.chunk.text,
    score: round(candidate.scores.fused),
    tokenCount: candidate.chunk.tokenCount,
    ...(candidate.trimmed === true ? { trimmed: true } : {}),
    ...(candidate.retrievalType === undefined ? {} : { retrievalType: candidate.retrievalType, followUpQuery: candidate.followUpQuery ?? '' }),
    ...(explain ? { explain: candidate.trace } : {}),
  };
}

/** The anchor map of these pages, read before the links to them are checked. */
async function anchorMapOf(context: EngineContext, pageUrls: readonly string[]): Promise<AnchorMap> {
  const store = context.store();
  const anchors = new Map<string, ReadonlySet<string>>();
  // The pages are looked up at once: on a database each look-up is a round trip, and they add up per answer.
  await Promise.all(
    [...new Set(pageUrls)].map(async (url) => {
      if ((await store.getPage(url)) !== undefined) anchors.set(url, await store.anchorsOf(url));
    }),
  );
  return { hasPage: (url) => anchors.has(url), anchorsOf: (url) => anchors.get(url) ?? new Set() };
}
