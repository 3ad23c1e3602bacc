import type { Chunk } from '../core/types.js';

/** A Markdown link or image: `[text](target "title")`, the text in group 1, the target in group 2. */
const MARKDOWN_LINK = /!?\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;

/** `text` with each Markdown link or image replaced by what `replace` makes of its text and target. */
export function replaceMarkdownLinks(text: string, replace: (linkText: string, target: string) => string): string {
  return text.replace(MARKDOWN_LINK, (_whole, linkText: string, target: string) => replace(linkText, target));
}

const AUTOLINK = /<https?:\/\/[^>\s]+>/g;

/** Text without its autolinks (`<https://…>`): a URL is no words of the text. */
export function withoutAutolinks(text: string): string {
  return text.replace(AUTOLINK, ' ');
}

/** Text as a reader reads it: Markdown links keep their text, their targets and autolinks go. */
export function withoutLinkTargets(text: string): string {
  return withoutAutolinks(replaceMarkdownLinks(text, (linkText) => linkText));
}

/** The texts of a passage's Markdown links and images, in order. */
export function markdownLinkTexts(text: string): string[] {
  return [...text.matchAll(MARKDOWN_LINK)].map((match) => match[1] as string);
}

/** A page URL in the form link targets take (`new URL(…).href`: lower-case host, a path for a bare host), or as given when it is no URL. */
export function pageKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** An anchor of a page as a link target to it reads (`page#anchor`). */
export function anchorKey(pageUrl: string, anchor: string): string {
  return `${pageKey(pageUrl)}#${anchor}`;
}

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
  if (chunk.anchor !== undefined) links.delete(anchorKey(chunk.pageUrl, chunk.anchor));
  return [...links];
}
