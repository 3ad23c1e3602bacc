import type { ExtractedDocument } from '../core/types.js';
import { extractHtml } from '../extract/extract-html.js';
import { extractMarkdown, type ExtractMarkdownOptions } from '../extract/extract-markdown.js';

export type ExtractedPage = ExtractedDocument & { links: string[]; canonical?: string; frontMatter?: Record<string, unknown> };

/**
 * The extract stage for any document format a source reads: HTML, Markdown, or plain text
 * (read as Markdown, which plain paragraphs are). Relative Markdown links resolve against
 * the page URL unless the source resolves them itself (a local folder's path registry).
 */
export function extractDocument(
  document: { format: 'html' | 'markdown' | 'text'; body: string },
  pageUrl: string,
  markdownOptions?: Partial<ExtractMarkdownOptions>,
): ExtractedPage & { frontMatter: Record<string, unknown> } {
  if (document.format === 'html') return { ...extractHtml(document.body, pageUrl), frontMatter: {} };
  const fallbackTitle = markdownOptions?.fallbackTitle ?? decodeURIComponent(new URL(pageUrl).pathname.split('/').filter(Boolean).at(-1) ?? pageUrl);
  return extractMarkdown(document.body, {
    fallbackTitle,
    resolveLink: markdownOptions?.resolveLink ?? ((target) => resolveAgainst(target, pageUrl)),
  });
}

function resolveAgainst(target: string, pageUrl: string): string | undefined {
  try {
    return new URL(target, pageUrl).href;
  } catch {
    return undefined;
  }
}
