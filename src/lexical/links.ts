import type { Chunk } from '../core/types.js';

/** A Markdown link or image: `[text](target "title")`, the target in group 2. */
export const MARKDOWN_LINK = /!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;

/** A link's target as `page#anchor` (resolved against `base`, fragment decoded), or none when it names no anchor of a web or file page. */
export function linkTarget(target: string, base: string): string | undefined {
  if (!target.includes('#')) return undefined;
  try {
    const url = new URL(target, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (fragment === '' || (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:')) return undefined;
    url.hash = '';
    return `${url.href}#${fragment}`;
  } catch {
    return undefined;
  }
}

/** The anchors a chunk's Markdown links point to (`page#anchor`), each once, without its own. */
export function anchorLinksOf(chunk: Pick<Chunk, 'pageUrl' | 'anchor' | 'text'>): string[] {
  const links = new Set<string>();
  for (const match of chunk.text.matchAll(MARKDOWN_LINK)) {
    const resolved = linkTarget(match[2] as string, chunk.pageUrl);
    if (resolved !== undefined) links.add(resolved);
  }
  if (chunk.anchor !== undefined) links.delete(`${chunk.pageUrl}#${chunk.anchor}`);
  return [...links];
}
