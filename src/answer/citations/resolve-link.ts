import { encodeFragment } from '../../core/types.js';
import { safeDecode } from '../../core/url-text.js';
import { directoryPrefix, type LinkIndex } from './link-index.js';

/** What the text around a link says about which page it means. */
export interface LinkContext {
  /** Pages of the sources cited in the link's sentence, in order of citation. */
  cited: readonly string[];
  /** Pages of every selected source, in source order. */
  selected: readonly string[];
}

/**
 * `ok`: link to `url` (a stored page, with an anchor it has); `note` says what was corrected.
 * Otherwise unlink, for `reason`. `contextual`: the verdict came from choosing among several
 * pages, so another sentence could change it (a stream must wait for the sentence to end).
 */
export type LinkVerdict =
  | { ok: true; url: string; note?: string; contextual: boolean }
  | { ok: false; reason: string; contextual: boolean };

/**
 * Checks an absolute URL against the index and corrects what it can: URL variants become
 * the stored URL; an anchor the page lacks moves to the page that has it; a truncated parent
 * URL becomes the page under it that the context points at. Never guesses among several.
 */
export async function resolveLink(url: string, index: LinkIndex, context: LinkContext): Promise<LinkVerdict> {
  const hashAt = url.indexOf('#');
  const page = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt + 1);
  const pageUrl = await index.resolvePage(page);
  if (pageUrl !== undefined) {
    if (fragment === '') return { ok: true, url: pageUrl, contextual: false };
    const own = findAnchor(await index.anchorsOf(pageUrl), fragment);
    if (own !== undefined) return { ok: true, url: withAnchor(pageUrl, own), contextual: false };
    const elsewhere = (await pagesHaving(index, fragment)).filter((candidate) => candidate !== pageUrl);
    if (elsewhere.length === 0) {
      return { ok: true, url: pageUrl, note: `Removed #${fragment} from ${pageUrl}: no indexed page has that anchor.`, contextual: false };
    }
    const choice = choose(elsewhere, context, { under: directoryPrefix(pageUrl), unique: true });
    if (choice === undefined) return { ok: false, reason: `#${fragment} is not on ${pageUrl} but on ${list(elsewhere)}, and the context does not say which.`, contextual: true };
    const target = withAnchor(choice.page, findAnchor(await index.anchorsOf(choice.page), fragment) ?? safeDecode(fragment));
    return { ok: true, url: target, note: `Moved #${fragment} from ${pageUrl} to ${choice.page}: the anchor is there (${choice.why}).`, contextual: true };
  }
  return resolveMissingPage(page, fragment, index, context);
}

/** A page the index does not have: a truncated parent of stored pages, or an invented page. */
async function resolveMissingPage(page: string, fragment: string, index: LinkIndex, context: LinkContext): Promise<LinkVerdict> {
  const prefix = directoryPrefix(page);
  const under = prefix === undefined ? [] : await index.pagesUnder(prefix);
  if (prefix !== undefined && under.length > 0) {
    const withIt: string[] = [];
    if (fragment !== '') for (const candidate of under) if (findAnchor(await index.anchorsOf(candidate), fragment) !== undefined) withIt.push(candidate);
    const candidates = withIt.length > 0 ? withIt : under;
    const choice = choose(candidates, context, { unique: true });
    if (choice === undefined) return { ok: false, reason: `${page} is not an indexed page, and ${candidates.length} pages under it fit (${list(candidates)}).`, contextual: true };
    const anchor = withIt.length > 0 ? findAnchor(await index.anchorsOf(choice.page), fragment) : undefined;
    const target = anchor === undefined ? choice.page : withAnchor(choice.page, anchor);
    const dropped = fragment !== '' && anchor === undefined ? `; #${fragment} is on none of them, so it was dropped` : '';
    return { ok: true, url: target, note: `Replaced ${page} with ${choice.page}: the link named a folder, not an indexed page (${choice.why})${dropped}.`, contextual: true };
  }
  if (fragment !== '') {
    const origin = originOf(page);
    const candidates = (await pagesHaving(index, fragment)).filter((candidate) => origin !== undefined && originOf(candidate) === origin);
    if (candidates.length > 0) {
      const choice = choose(candidates, context, { unique: false });
      if (choice !== undefined) {
        const target = withAnchor(choice.page, findAnchor(await index.anchorsOf(choice.page), fragment) ?? safeDecode(fragment));
        return { ok: true, url: target, note: `Replaced ${page} with ${choice.page}: no such page is indexed, and #${fragment} is there (${choice.why}).`, contextual: true };
      }
      return { ok: false, reason: 'no such page in the index, and the context names no page with that anchor.', contextual: true };
    }
  }
  return { ok: false, reason: 'no such page in the index.', contextual: false };
}

/**
 * The one page the context points at, tier by tier: the sentence cites it; it is the only
 * candidate under the linked page's folder; it is the only candidate; it is the only selected
 * source among them. A tier with several pages is no answer, and the next tier is tried.
 */
function choose(candidates: readonly string[], context: LinkContext, options: { under?: string | undefined; unique: boolean }): { page: string; why: string } | undefined {
  const set = new Set(candidates);
  const tiers: [string[], string][] = [
    [distinct(context.cited.filter((page) => set.has(page))), 'the sentence cites it'],
    [options.under === undefined ? [] : [...set].filter((page) => page.startsWith(options.under ?? '')), `the only fitting page under ${options.under ?? ''}`],
    [options.unique ? [...set] : [], 'the only indexed page that fits'],
    [distinct(context.selected.filter((page) => set.has(page))), 'the only selected source that fits'],
  ];
  for (const [pages, why] of tiers) {
    const [only] = pages;
    if (pages.length === 1 && only !== undefined) return { page: only, why };
  }
  return undefined;
}

/**
 * The anchor id of the page this fragment names: as written, percent-decoded, or else the
 * one anchor of the page that differs from it only in letter case.
 */
export function findAnchor(anchors: ReadonlySet<string>, fragment: string): string | undefined {
  const decoded = safeDecode(fragment);
  if (anchors.has(decoded)) return decoded;
  if (anchors.has(fragment)) return fragment;
  const lower = decoded.toLowerCase();
  const folded = [...anchors].filter((anchor) => anchor.toLowerCase() === lower);
  return folded.length === 1 ? folded[0] : undefined;
}

export function withAnchor(pageUrl: string, anchor: string): string {
  return `${pageUrl}#${encodeFragment(anchor)}`;
}

async function pagesHaving(index: LinkIndex, fragment: string): Promise<string[]> {
  const decoded = safeDecode(fragment);
  const pages = await index.pagesWithAnchor(decoded);
  return distinct(decoded === fragment ? pages : [...pages, ...(await index.pagesWithAnchor(fragment))]);
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function list(pages: readonly string[]): string {
  return pages.length <= 3 ? pages.join(', ') : `${pages.slice(0, 3).join(', ')} and ${pages.length - 3} more`;
}
