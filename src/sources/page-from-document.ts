import type { ExtractedDocument, Page } from '../core/types.js';

/** Why a page that asks not to be indexed is not stored (and a stored one is removed). */
export const NOINDEX = 'asks robots not to index it (<meta name="robots" content="noindex">)';
/** The same, said by the response's `X-Robots-Tag` header. */
export const NOINDEX_HEADER = 'asks robots not to index it (X-Robots-Tag: noindex)';

/** Why a generator's listing of the source code is not stored (and a stored one is removed). */
export const SOURCE_LISTING = "is the documentation generator's listing of the source code, whose doc comments are the pages indexed";

/** What a source knows of a page beyond its extracted document: how it was read, and when. */
export type PageFacts = Pick<Page, 'contentHash' | 'fetchedAt' | 'source'> & Partial<Omit<Page, 'url' | 'canonicalUrl' | keyof ExtractedDocument>>;

/** A page at `url` (its own canonical URL) from its extracted document and what its source knows of it. */
export function pageFromDocument(url: string, document: ExtractedDocument, facts: PageFacts): Page {
  const { siteVersion, siteName } = document;
  return {
    url, canonicalUrl: url, title: document.title, markdown: document.markdown, headings: document.headings, anchors: document.anchors, ...facts,
    ...(siteVersion === undefined ? {} : { siteVersion }),
    ...(siteName === undefined ? {} : { siteName }),
  };
}
