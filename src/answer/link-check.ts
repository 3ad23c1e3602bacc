import { safeDecode } from '../core/url-text.js';

/** The part of the store the link checker reads: which pages exist and which anchors each has. */
export interface AnchorMap {
  hasPage(url: string): boolean;
  anchorsOf(url: string): ReadonlySet<string>;
}

export type LinkVerdict =
  | { ok: true; url: string }
  | { ok: false; url: string | undefined; warning: string };

/**
 * Checks a `page#anchor` URL against the anchor map. An unknown page is unlinked
 * (`url` undefined); an anchor the page does not have is dropped, keeping the page link.
 */
export function checkLink(url: string, anchors: AnchorMap): LinkVerdict {
  const hashAt = url.indexOf('#');
  const page = hashAt === -1 ? url : url.slice(0, hashAt);
  if (!anchors.hasPage(page)) return { ok: false, url: undefined, warning: `Removed a link to ${page}: no such page in the index.` };
  if (hashAt === -1) return { ok: true, url };
  const fragment = url.slice(hashAt + 1);
  const anchor = safeDecode(fragment);
  const known = anchors.anchorsOf(page);
  if (known.has(anchor) || known.has(fragment)) return { ok: true, url };
  return { ok: false, url: page, warning: `Removed #${fragment} from ${page}: the page has no such anchor.` };
}

