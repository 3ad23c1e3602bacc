import { round } from '../core/round.js';
import type { Candidate } from '../core/types.js';
import { definedNames } from '../lexical/defined-names.js';
import { anchorKey, anchorLinksOf, markdownLinkTexts, pageKey, replaceMarkdownLinks } from '../lexical/links.js';

/** How many of the passages found a section must link to, on other pages, to be read as their guide. */
const MIN_LINKED = 2;
/** A lifted guide stands just below the best passage it links to, never level with it. */
const BELOW_BEST = 0.999;
/** The most of a guide's words that may be link text: beyond it the section is a table of contents or a "see also" list. */
const MAX_LINK_WORDS = 0.5;
/**
 * A guide speaks to its reader ("you open the file", "let's"); reference text describes. Read
 * anywhere in the passage, code and link text included: a guide's example may say it for it.
 */
const ADDRESSES_READER = /\b(?:you|your|we|let's|let’s)\b/i;

/**
 * Lifts guide sections: prose that speaks to its reader (a tutorial or how-to, in the sense of
 * Diátaxis: "you open the file…") under a heading that names no API, whose section links to two
 * or more of the passages found on other pages (the links of all its passages found count: a
 * long section is cut into several). Such a section is where the docs show how those entries
 * are used together (a tutorial's "Authenticating the server" linking to
 * `ssh_session_is_known_server()` and `ssh_get_pubkey_hash()`), which a task question asks
 * for, yet it scores below them: the entries repeat the question's words in their names and
 * headings. A guide gains the fused scores of the entries it links to, over the square root of
 * how many links it has, and never rises above the best of them: the entry a question names
 * keeps its place. Not guides: reference prose that only mentions entries in passing (it
 * describes, it does not address the reader), and a section that is mostly links (a table of
 * contents, a "see also" list). Returns the candidates re-sorted; a lifted one says so in its
 * trace.
 */
export function liftGuideSections(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, number>();
  for (const candidate of candidates) {
    const { anchor, pageUrl } = candidate.chunk;
    if (anchor === undefined) continue;
    const key = anchorKey(pageUrl, anchor);
    best.set(key, Math.max(best.get(key) ?? Number.NEGATIVE_INFINITY, candidate.scores.fused));
  }
  // Read once per passage: both the sections' links and the guide test need it.
  const mostlyLinks = new Set(candidates.filter((candidate) => isMostlyLinks(candidate.chunk.text)));
  const links = sectionLinks(candidates.filter((candidate) => !mostlyLinks.has(candidate)));
  const lifted = new Set<Candidate>();
  const rescored = candidates.map((candidate) => {
    const { chunk } = candidate;
    if (mostlyLinks.has(candidate) || definedNames(chunk).length > 0 || !ADDRESSES_READER.test(chunk.text)) return candidate;
    const ofSection = links.get(sectionOf(chunk)) ?? [];
    const page = pageKey(chunk.pageUrl);
    const linked = ofSection.filter((target) => best.has(target) && pageOf(target) !== page);
    if (linked.length < MIN_LINKED) return candidate;
    const scores = linked.map((target) => best.get(target) as number);
    const gain = scores.reduce((sum, score) => sum + score, 0) / Math.sqrt(ofSection.length);
    const score = Math.min(candidate.scores.fused + gain, Math.max(...scores) * BELOW_BEST);
    if (score <= candidate.scores.fused) return candidate;
    const detail = `a guide to ${linked.length} passages found on other pages (${linked.slice(0, 3).join(', ')}${linked.length > 3 ? ', …' : ''}), lifted from ${candidate.scores.fused.toFixed(4)}`;
    const guide: Candidate = { ...candidate, scores: { ...candidate.scores, fused: score }, trace: [...candidate.trace, { technique: 'guide', rank: 0, score: round(score), detail }] };
    lifted.add(guide);
    return guide;
  });
  if (lifted.size === 0) return rescored;
  const ranked = rescored.map((candidate, index) => ({ candidate, index })).sort((a, b) => b.candidate.scores.fused - a.candidate.scores.fused || a.index - b.index);
  return ranked.map(({ candidate }, index) => {
    if (!lifted.has(candidate)) return candidate;
    // The trace names the rank the guide was lifted to.
    return { ...candidate, trace: candidate.trace.map((step) => (step.technique === 'guide' ? { ...step, rank: index + 1 } : step)) };
  });
}

/**
 * The anchors each section links to, from the passages given (a long section is cut into
 * several: its prose, its example, its links; the caller leaves out those that are mostly links).
 */
function sectionLinks(candidates: readonly Candidate[]): Map<string, string[]> {
  const links = new Map<string, Set<string>>();
  for (const { chunk } of candidates) {
    const section = sectionOf(chunk);
    const targets = links.get(section) ?? new Set<string>();
    for (const target of anchorLinksOf(chunk)) targets.add(target);
    links.set(section, targets);
  }
  return new Map([...links].map(([section, targets]) => [section, [...targets]]));
}

function sectionOf(chunk: Candidate['chunk']): string {
  return anchorKey(chunk.pageUrl, chunk.anchor ?? '');
}

/** Whether more than MAX_LINK_WORDS of a passage's words sit in link texts. */
function isMostlyLinks(text: string): boolean {
  const all = countWords(replaceMarkdownLinks(text, (linkText) => ` ${linkText} `));
  if (all === 0) return false;
  const linked = markdownLinkTexts(text).reduce((sum, linkText) => sum + countWords(linkText), 0);
  return linked / all > MAX_LINK_WORDS;
}

function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

function pageOf(target: string): string {
  return target.slice(0, target.indexOf('#'));
}
