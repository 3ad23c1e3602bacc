import type { Chunk, LexicalRanking, Page } from '../../core/types.js';

/** Pages, chunks, sources and vectors the Store contract's suites build their cases from. */
export const ranking: LexicalRanking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };

export function pageOf(url: string, markdown: string, anchors: string[] = []): Page {
  return { url, canonicalUrl: url, title: `Title of ${url}`, markdown, headings: [], anchors, contentHash: `hash:${markdown}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl' };
}

export function chunkOf(page: Page, text: string, anchor?: string, headingPath: string[] = []): Chunk {
  return { id: `${page.url}:${text}`, pageUrl: page.url, pageTitle: page.title, ...(anchor === undefined ? {} : { anchor }), headingPath, text, tokenCount: text.split(' ').length, contentHash: `c:${text}` };
}

export function sourceInput(library: string, version: string) {
  return { library, version, rootUrl: `https://${library}.example/`, kind: 'crawl' as const, createdAt: '2026-01-01T00:00:00.000Z' };
}

export function axis(index: number): Float32Array {
  const vector = new Float32Array(4);
  vector[index] = 1;
  return vector;
}

export function unit(values: number[]): Float32Array {
  const length = Math.hypot(...values);
  return new Float32Array(values.map((value) => value / length));
}
