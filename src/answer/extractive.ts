import { stemmer } from 'stemmer';
import { queryTerms } from '../core/query-terms.js';
import { chunkUrl, type Candidate, type Citation } from '../core/types.js';
import { splitUnits, type TextUnit } from './units.js';

export interface ExtractiveOptions {
  /** Units (sentences or code blocks) quoted at most. */
  maxSentences: number;
}

export interface DraftAnswer {
  text: string;
  citations: Citation[];
}

/** Sentences sharing this share of their words with a quoted one repeat it. */
const NEAR_DUPLICATE = 0.7;

/** Sentences scoring under this fraction of the best one are not quoted. */
const RELATIVE_FLOOR = 0.35;

interface ScoredUnit extends TextUnit {
  source: number;
  score: number;
}

/**
 * The answer without an LLM: the sentences of the selected passages that share the most
 * informative words with the question, quoted verbatim in reading order, each followed by
 * the `[n]` of its source. Sources are numbered in order of first use.
 */
export function extractiveAnswer(question: string, sources: readonly Candidate[], options: ExtractiveOptions): DraftAnswer {
  const stems = [...new Set(queryTerms(question).map((term) => stemmer(term)))];
  const units: ScoredUnit[] = sources.flatMap((candidate, source) =>
    splitUnits(candidate.chunk.text).map((unit) => ({ ...unit, source, score: 0 })),
  );
  if (units.length === 0) return { text: '', citations: [] };

  const unitStems = units.map((unit) => new Set((unit.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => stemmer(word))));
  const weights = new Map(
    stems.map((stem) => {
      const frequency = unitStems.filter((set) => set.has(stem)).length;
      return [stem, Math.log(1 + units.length / (1 + frequency))];
    }),
  );
  units.forEach((unit, index) => {
    const present = unitStems[index] ?? new Set<string>();
    const matched = stems.filter((stem) => present.has(stem));
    const overlap = matched.reduce((sum, stem) => sum + (weights.get(stem) ?? 0), 0);
    // A sentence that touches more of the question's words answers more of it.
    const coverage = Math.sqrt(matched.length / Math.max(1, stems.length));
    const words = unit.text.split(/\s+/).length;
    const lengthFactor = unit.kind === 'code' ? 0.8 : words < 4 ? 0.3 : words > 80 ? 0.7 : 1;
    // Higher-ranked passages are more likely to hold the answer: a gentle prior, not a filter.
    unit.score = overlap * coverage * lengthFactor * (1 + 0.5 / (unit.source + 1));
  });

  const picked: ScoredUnit[] = [];
  const seen = new Set<string>();
  let codeBlocks = 0;
  const ranked = [...units].sort((a, b) => b.score - a.score);
  // Quote what answers, not filler: stop well below the best sentence's score.
  const floor = (ranked[0]?.score ?? 0) * RELATIVE_FLOOR;
  const pickedWords: Set<string>[] = [];
  for (const unit of ranked) {
    if (picked.length >= options.maxSentences || unit.score <= 0 || unit.score < floor) break;
    const key = unit.text.toLowerCase().replace(/\W+/g, ' ').trim();
    if (seen.has(key) || (unit.kind === 'code' && codeBlocks >= 1)) continue;
    // The same statement in other words ("Setting X … is not recommended" for X and for Y) is said once.
    const words = new Set(key.split(' ').filter((word) => word.length > 2));
    if (unit.kind === 'sentence' && pickedWords.some((other) => overlap(words, other) >= NEAR_DUPLICATE)) continue;
    seen.add(key);
    if (unit.kind === 'code') codeBlocks += 1;
    picked.push(unit);
    pickedWords.push(words);
  }
  // A sentence that introduces what follows ("use a command such as this:") is quoted with it, or not at all.
  for (const unit of [...picked]) {
    if (unit.kind !== 'sentence' || !/:\s*$/.test(unit.text)) continue;
    const next = units.find((other) => other.source === unit.source && other.position === unit.position + 1);
    if (next?.kind === 'code') {
      if (!picked.includes(next)) picked.push(next);
    } else if (picked.length > 1) {
      picked.splice(picked.indexOf(unit), 1);
    }
  }
  // Nothing shares a word with the question: quote the opening of the best passage.
  if (picked.length === 0) {
    const first = units.find((unit) => unit.source === 0 && unit.kind === 'sentence') ?? units[0];
    if (first !== undefined) picked.push(first);
  }

  picked.sort((a, b) => a.source - b.source || a.position - b.position);
  // Passages of the same section share one URL, so they share one number.
  const numbers = new Map<string, number>();
  const citations: Citation[] = [];
  const paragraphs: string[] = [];
  let current: { source: number; parts: string[] } | undefined;
  for (const unit of picked) {
    const candidate = sources[unit.source] as Candidate;
    const url = chunkUrl(candidate.chunk);
    let n = numbers.get(url);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(url, n);
      citations.push({
        n,
        url,
        ...(candidate.chunk.anchor === undefined ? {} : { anchor: candidate.chunk.anchor }),
        title: citationTitle(candidate),
      });
    }
    const quoted = unit.kind === 'code' ? `${unit.text}\n[${n}]` : `${unit.text} [${n}]`;
    if (current === undefined || current.source !== unit.source || unit.kind === 'code') {
      if (current !== undefined) paragraphs.push(current.parts.join(' '));
      current = { source: unit.source, parts: [quoted] };
    } else {
      current.parts.push(quoted);
    }
    if (unit.kind === 'code') {
      paragraphs.push(current.parts.join(' '));
      current = undefined;
    }
  }
  if (current !== undefined) paragraphs.push(current.parts.join(' '));
  return { text: paragraphs.join('\n\n'), citations };
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** "Page title › Section" when the passage is a section of the page, else the page title. */
export function citationTitle(candidate: Candidate): string {
  const section = candidate.chunk.headingPath.at(-1);
  const page = candidate.chunk.pageTitle;
  return section === undefined || section === page ? page : `${page} › ${section}`;
}
