import type { PageGroup, SearchResult } from './engine-types.js';

/**
 * Groups search results by page, for a reader who wants to see each page once with its best
 * sections. Pages keep the order of their best result; sections keep their order within the
 * results. The groups hold exactly the results given: the same passages, the same budget.
 */
export function groupByPage(results: readonly SearchResult[]): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const result of results) {
    const url = pageOf(result.url);
    const group = groups.get(url);
    if (group === undefined) {
      groups.set(url, { url, library: result.library, version: result.version, title: result.title, score: result.score, tokenCount: result.tokenCount, sections: [result] });
    } else {
      group.score = Math.max(group.score, result.score);
      group.tokenCount += result.tokenCount;
      group.sections.push(result);
    }
  }
  return [...groups.values()];
}

function pageOf(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
