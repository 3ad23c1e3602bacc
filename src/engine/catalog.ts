import type { IngestRunSummary, Store } from '../store/store.js';
import type { PageInspection, SourceSummary } from './engine-types.js';

/** What the index holds for one page (its URL or an alias of it); undefined when it has no such page. */
export function inspectPage(store: Store, url: string): PageInspection | undefined {
  const pageUrl = store.resolvePageUrl(url.split('#')[0] ?? url);
  const page = pageUrl === undefined ? undefined : store.getPage(pageUrl);
  if (page === undefined) return undefined;
  return {
    url: page.url,
    title: page.title,
    anchors: [...store.anchorsOf(page.url)].sort(),
    headings: page.headings,
    chunks: store.chunksOf(page.url).map((chunk) => ({
      ...(chunk.anchor === undefined ? {} : { anchor: chunk.anchor }),
      headingPath: chunk.headingPath,
      text: chunk.text,
      tokenCount: chunk.tokenCount,
    })),
  };
}

/**
 * The documentation sets in the index: pages grouped by origin, each group named by the
 * longest folder all its pages share (`https://www.postgresql.org/docs/16/`), largest first.
 * With the recorded ingest runs, each set also says how the last ingest of each of its
 * sources (start URLs, folders) ended, and whether all of them completed.
 */
export function summariseSources(pageUrls: readonly string[], runs: readonly IngestRunSummary[] = []): SourceSummary[] {
  const byOrigin = new Map<string, string[]>();
  for (const url of pageUrls) {
    const origin = originOf(url);
    byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), url]);
  }
  return [...byOrigin.entries()]
    .map(([origin, urls]): SourceSummary => {
      const ingests = runs.filter((run) => originOf(run.source) === origin);
      return { url: commonFolder(origin, urls), pages: urls.length, ...(ingests.length === 0 ? {} : { complete: ingests.every((run) => run.complete), ingests }) };
    })
    .sort((a, b) => b.pages - a.pages || a.url.localeCompare(b.url));
}

function originOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed === undefined ? url : `${parsed.protocol}//${parsed.host}`;
}

function commonFolder(origin: string, urls: readonly string[]): string {
  let prefix = urls[0] ?? origin;
  for (const url of urls) while (!url.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  return folder.length > origin.length ? folder : `${origin}/`;
}
