/**
 * The lexical index's scoring, for passages that are not in the store (a web search's pages):
 * built into an in-memory segment and scored with the index's own BM25F, so other stages rank
 * such passages exactly as the index would. This is the store's public surface for it; the
 * modules under `store/lexical/` stay the store's own.
 */
export { scoreBm25f } from './lexical/bm25f.js';
export { buildSegment } from './lexical/segment.js';
