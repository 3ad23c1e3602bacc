import type { chunkPage as ChunkPage } from '../chunk/chunker.js';
import type { CitedocsConfig } from '../core/config.js';
import type { extractDocument as ExtractDocument } from './extract-document.js';

// HTML parsing, Markdown and chunking load on first use: a re-crawl answered with 304s
// never parses a page, and loading them costs more than the whole re-crawl otherwise.
let extractor: Promise<typeof ExtractDocument> | undefined;
let chunker: Promise<typeof ChunkPage> | undefined;
export const loadExtractor = () => (extractor ??= import('./extract-document.js').then((module) => module.extractDocument));
export const loadChunker = () => (chunker ??= import('../chunk/chunker.js').then((module) => module.chunkPage));

/** What the stored chunks depend on besides the page: a change means chunking again. */
export function chunkingKey(config: CitedocsConfig): string {
  return JSON.stringify({ maxTokens: config.chunk.maxTokens, overlapTokens: config.chunk.overlapTokens, encoding: config.tokenizer.encoding, chunker: 2 });
}

