import { sha256 } from '../core/hash.js';
import type { Chunk } from '../core/types.js';

/**
 * The text a passage is embedded as: its page title and heading path give the passage the
 * context its own words often lack ("Parameters" of which function?).
 */
export function embeddingInput(chunk: Pick<Chunk, 'pageTitle' | 'headingPath' | 'text'>): string {
  const path = chunk.headingPath.filter((heading) => heading !== chunk.pageTitle).join(' > ');
  return [chunk.pageTitle, path, chunk.text].filter((part) => part.trim() !== '').join('\n');
}

/** The cache key of an embedded text (the model is the other half of the key). */
export function embeddingInputHash(input: string): string {
  return sha256(input);
}
