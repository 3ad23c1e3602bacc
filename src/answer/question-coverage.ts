import { isStopWord } from '../lexical/stop-words.js';
import { codeTerms, queryTerms, wordTerms } from '../lexical/analyze.js';
import { operatorTerms } from '../lexical/operators.js';

/**
 * Words inside backticks or quotes in a question are mostly the asker's own names and values
 * (`mydict`, `'some'`): they count a little, and are never reported as missing.
 */
const QUOTED_WEIGHT = 0.3;

/** A term of the question and how much covering it is worth. */
export interface AskedTerm {
  term: string;
  /** The question's own weight (1, or less for quoted words) times the term's rarity among the units. */
  weight: number;
  /** Whether the asker wrote it in plain words (so a gap in it is worth naming). */
  plain: boolean;
}

/** The index terms of a text, as the index analyses it; link targets are not words of the text. */
export function termsOf(text: string): Set<string> {
  const plain = text.replace(/\]\([^)]*\)/g, ']');
  return new Set(operatorTerms(plain, codeTerms(plain)));
}

/**
 * The question's terms, weighted by how rare each is among the texts it is answered from
 * (a word every unit shares tells units apart less). Same analyser as the index.
 */
export function askedTerms(question: string, texts: readonly ReadonlySet<string>[]): AskedTerm[] {
  return queryTerms(question, isStopWord, QUOTED_WEIGHT).map(({ term, weight }) => {
    const frequency = texts.filter((terms) => terms.has(term)).length;
    return { term, weight: weight * (1 + Math.log(1 + texts.length / (1 + frequency))), plain: weight >= 1 };
  });
}

/** The words of the question, as written, that yield any of these terms: what a gap note names. */
export function questionWords(question: string, terms: ReadonlySet<string>): string[] {
  const words: string[] = [];
  const plain = question.replace(/`[^`]*`|'[^'\n]*'|"[^"\n]*"/g, ' ');
  for (const match of plain.matchAll(/[\p{L}_$][\p{L}\p{N}_$.]*[\p{L}\p{N}_$]|[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    // Short plain words ("per", "via") are seldom what a question is about; names and numbers are.
    if (/^\p{L}{1,3}$/u.test(word)) continue;
    const yields = [word.toLowerCase(), ...wordTerms(word)];
    if (yields.some((term) => terms.has(term)) && !words.includes(word)) words.push(word);
  }
  return words;
}
