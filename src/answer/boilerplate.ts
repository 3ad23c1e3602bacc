import type { TextUnit } from './units.js';

/** Sentences that documentation repeats around its content and that answer nothing. */
const NOISE = [
  /^Raises an auditing event\b/i,
  /^Source code:/i,
  /^(Previous|Next) (topic|page|chapter|section)\b/i,
  /^(Table of contents|Navigation|This page|Show source|Quick search|Report a bug|Edit on GitHub|Edit this page|Back to top|Skip to (main )?content)\b/i,
  /^Definition at line \d+ of file\b/i,
  /^(Referenced by|References|Here is the (call|caller) graph)\b/,
  /^Generated (on .+ )?by\b/i,
  /^(Copyright\b|©)/i,
];

/** Notes of when something changed: an answer only when the question is about versions. */
const VERSION_NOTE = /^(Changed in version|New in version|Added in version|Deprecated since version|Removed in version)\b/i;
const ABOUT_VERSIONS = /\b(versions?|changed|changes|new|added|deprecated|deprecation|since|removed|introduced|\d+\.\d+)\b/i;

/** Labels whose blocks point elsewhere instead of saying something. */
const NAVIGATION_LABELS = new Set(['see also', 'navigation', 'related', 'contents']);

/** Whether a question asks about versions (then "Changed in version" notes answer it). */
export function asksAboutVersions(question: string): boolean {
  return ABOUT_VERSIONS.test(question);
}

/**
 * Whether a unit is boilerplate an answer should not quote: audit-event notes, version notes
 * (unless the question is about versions), navigation text (a unit made of links, a "See also"
 * block), source-file and generator footers.
 */
export function isBoilerplate(unit: TextUnit, aboutVersions: boolean): boolean {
  if (unit.label !== undefined && NAVIGATION_LABELS.has(unit.label.toLowerCase())) return true;
  if (unit.kind !== 'sentence') return false;
  const text = unit.text.replace(/^[*_]+/, '');
  if (NOISE.some((pattern) => pattern.test(text))) return true;
  if (!aboutVersions && VERSION_NOTE.test(text)) return true;
  // Navigation: links and arrows with hardly a word of their own.
  const withoutLinks = text.replace(/!?\[[^\]]*\]\([^)]*\)/g, ' ').replace(/[«»|←→]/g, ' ');
  const ownWords = withoutLinks.match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return withoutLinks !== text && ownWords.length < 3;
}
