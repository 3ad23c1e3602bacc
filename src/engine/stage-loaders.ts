import type { chunkPage as ChunkPage } from '../chunk/chunker.js';
import type { CitedocsConfig } from '../core/config.js';
import { EXTRACTION_VERSION } from '../extract/extraction-version.js';
import type { extractDocument as ExtractDocument } from './extract-document.js';

// HTML parsing, Markdown and chunking load on first use: a re-crawl answered with 304s
// never parses a page, and loading them costs more than the whole re-crawl otherwise.
let extractor: Promise<typeof ExtractDocument> | undefined;
let chunker: Promise<typeof ChunkPage> | undefined;
export const loadExtractor = () => (extractor ??= import('./extract-document.js').then((module) => module.extractDocument));
export const loadChunker = () => (chunker ??= import('../chunk/chunker.js').then((module) => module.chunkPage));

/**
 * What the stored chunks depend on besides the page: a change means fetching and chunking
 * again. A rendered page differs from the same page as served, so switching `--render` on or
 * off reads every page again once (unrendered keys stay as they were); so does a new version
 * of extraction (`EXTRACTION_VERSION`).
 */
export function chunkingKey(config: CitedocsConfig, options: { rendered?: boolean } = {}): string {
  return JSON.stringify({ maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, encoding: config.tokenizer.encoding, chunker: 2, extraction: EXTRACTION_VERSION, ...(options.rendered === true ? { rendered: true } : {}) });
}

