import type { CitedocsConfig } from '../core/config.js';
import { sha256 } from '../core/hash.js';
import type { Chunk, Page, Tokenizer } from '../core/types.js';
import type { fetchResultPages } from '../sources/web/fetch-results.js';
import type { SearchHit } from '../sources/web/search-backend.js';
import { chunkingKey, loadChunker, loadExtractor } from './stage-loaders.js';
import type { WebDropped } from './web-types.js';

/** A result page read: the search hit that found it, the page extracted, its passages. */
export interface ExaminedPage {
  hit: SearchHit;
  page: Page;
  chunks: Chunk[];
}

/** Extracts and splits every fetched page; failures and empty pages are dropped, each with why. */
export async function examine(searched: readonly SearchHit[], fetched: Awaited<ReturnType<typeof fetchResultPages>>, config: CitedocsConfig, tokenizer: Tokenizer, dropped: WebDropped[], now?: () => Date): Promise<ExaminedPage[]> {
  const extract = await loadExtractor();
  const chunk = await loadChunker();
  const examined: ExaminedPage[] = [];
  const seen = new Set<string>();
  const chunking = chunkingKey(config);
  for (const [index, result] of fetched.entries()) {
    const hit = searched[index] as SearchHit;
    if (result.document === undefined) {
      dropped.push({ url: hit.url, reason: result.failure?.reason ?? 'fetch', message: result.failure?.message ?? 'not fetched' });
      continue;
    }
    const { document } = result;
    if (seen.has(document.url)) {
      dropped.push({ url: hit.url, reason: 'duplicate', duplicateOf: document.url, similarity: 1, message: `redirects to ${document.url}, already examined` });
      continue;
    }
    seen.add(document.url);
    if (document.format === 'xml') continue;
    const extracted = extract({ format: document.format, body: document.body }, document.url);
    if (extracted.markdown.trim().length < 20) {
      dropped.push({ url: document.url, reason: 'empty', message: 'no main content could be extracted (a page built by JavaScript, or a login wall)' });
      continue;
    }
    const page: Page = {
      url: document.url,
      canonicalUrl: document.url,
      title: extracted.title.trim() === '' ? hit.title : extracted.title,
      markdown: extracted.markdown,
      headings: extracted.headings,
      anchors: extracted.anchors,
      contentHash: sha256(`${extracted.title}\n${extracted.markdown}`),
      fetchedAt: (now ?? (() => new Date()))().toISOString(),
      source: 'web',
      chunking,
      ...(document.etag === undefined ? {} : { etag: document.etag }),
      ...(document.lastModified === undefined ? {} : { lastModified: document.lastModified }),
      ...(document.url === hit.url ? {} : { aliases: [hit.url] }),
    };
    examined.push({ hit, page, chunks: chunk(page, { maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, tokenizer }) });
  }
  return examined;
}
