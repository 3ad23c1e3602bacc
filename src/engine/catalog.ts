import type { Store } from '../store/store.js';
import type { PageInspection } from './engine-types.js';

/** What the index holds for one page (its URL or an alias of it); undefined when it has no such page. */
export async function inspectPage(store: Store, url: string): Promise<PageInspection | undefined> {
  const pageUrl = await store.resolvePageUrl(url.split('#')[0] ?? url);
  const page = pageUrl === undefined ? undefined : await store.getPage(pageUrl);
  if (page === undefined) return undefined;
  return {
    url: page.url,
    title: page.title,
    anchors: [...(await store.anchorsOf(page.url))].sort(),
    headings: page.headings,
    chunks: (await store.chunksOf(page.url)).map((chunk) => ({
      ...(chunk.anchor === undefined ? {} : { anchor: chunk.anchor }),
      headingPath: chunk.headingPath,
      text: chunk.text,
      tokenCount: chunk.tokenCount,
    })),
  };
}
