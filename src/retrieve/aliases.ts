import { expandContractions, indexForm, words } from '../lexical/analyze.js';
import { isQuantityWord, isStopWord } from '../lexical/stop-words.js';

/**
 * Names the docs themselves give as another name for a word of the question, read from the
 * passages a search found: "a key (or legend)", 'the "key", sometimes also called the
 * "legend"', and abbreviations defined in place ("time to live (TTL)", recognised as Schwartz
 * & Hearst do: the letters are the initials of the words just before). A question that says
 * "legend" then also searches for "key", the docs' own word; one that says "time to live", "TTL".
 * Returns the other names, each once, in the order found; none that the question already has.
 */
export function definedAliases(question: string, passages: readonly string[]): string[] {
  return definedAliasPairs(question, passages).map(({ alias }) => alias);
}

/** An alias the docs define, and the question's words (in the index's form) it is another name for. */
export interface DefinedAlias {
  alias: string;
  of: string[];
}

/** `definedAliases`, each with the question's words it stands for. */
export function definedAliasPairs(question: string, passages: readonly string[]): DefinedAlias[] {
  const asked = new Set(contentWords(question));
  const askedText = ` ${words(expandContractions(question).toLowerCase()).join(' ')} `;
  const pairs: DefinedAlias[] = [];
  const found: string[] = [];
  const add = (alias: string, of: string[]) => {
    const aliasWords = contentWords(alias);
    if (aliasWords.length === 0 || aliasWords.every((word) => asked.has(word))) return;
    const text = plainWords(alias).join(' ');
    if (!found.includes(text)) {
      found.push(text);
      pairs.push({ alias: text, of });
    }
  };
  // A pair of names for one thing: when the question has one, the other is an alias.
  const pair = (first: string, second: string) => {
    const one = contentWords(first);
    const other = contentWords(second);
    if (one.length === 0 || other.length === 0) return;
    if (one.every((word) => asked.has(word))) add(second, one);
    else if (other.every((word) => asked.has(word))) add(first, other);
  };
  for (const passage of passages) {
    const text = passage.replace(/\\([_*])/g, '$1');
    for (const match of text.matchAll(OR_NAME)) pair(match[1] as string, match[2] as string);
    for (const match of text.matchAll(ALSO_CALLED)) pair(match[1] as string, match[2] as string);
    for (const match of text.matchAll(ABBREVIATION)) {
      const short = match[2] as string;
      const long = expansionOf(match[1] as string, short);
      if (long === undefined) continue;
      // Only from the words spelled out to the letters: a question that abbreviates is usually
      // matched by its letters already, and adding the spelled-out words shifted SciFact's
      // rankings (nDCG@10 0.6869 -> 0.679); this way it is 0.6876.
      const longWords = contentWords(long);
      const letters = short.toLowerCase();
      if (longWords.length > 1 && longWords.every((word) => asked.has(word)) && !askedText.includes(` ${letters} `) && !found.includes(letters)) {
        found.push(letters);
        pairs.push({ alias: letters, of: longWords });
      }
    }
  }
  return pairs;
}

const NAME = String.raw`[A-Za-z][A-Za-z0-9_-]*`;
/** `key (or legend)`, `key (aka legend)`. */
const OR_NAME = new RegExp(String.raw`\b(${NAME})\s+\((?:or|aka|a\.k\.a\.)\s+(?:the\s+)?["“]?(${NAME})["”]?\)`, 'g');
/** `the "key", sometimes also called the "legend"`, `X, also known as Y`, `X, referred to as Y`. */
const ALSO_CALLED = new RegExp(String.raw`["“]?(${NAME})["”]?,?\s+(?:sometimes\s+|often\s+)?(?:also\s+)?(?:called|known\s+as|referred\s+to\s+as)\s+(?:the\s+)?["“](${NAME})["”]`, 'g');
/** `time to live (TTL)`: up to six words before three to six capitals in brackets (two letters stand for too many things). */
const ABBREVIATION = /((?:[A-Za-z][a-z]+[\s-]+){1,6})\(([A-Z]{3,6})\)/g;

/** The last words before an abbreviation whose initials spell it (a word or two of slack), or none. */
function expansionOf(before: string, short: string): string | undefined {
  const candidates = before.trim().split(/[\s-]+/);
  for (let count = short.length; count <= Math.min(candidates.length, short.length + 2); count += 1) {
    const chosen = candidates.slice(-count);
    const initialsOf = (names: readonly string[]) => names.map((word) => word[0]?.toUpperCase() ?? '').join('');
    // "time to live (TTL)" counts the "to"; "Secure Shell (SSH)" spells a letter inside a word, which is not read.
    const spelled = initialsOf(chosen) === short.toUpperCase() || initialsOf(chosen.filter((word) => !isStopWord(word.toLowerCase()))) === short.toUpperCase();
    if (spelled && chosen[0]?.[0]?.toUpperCase() === short[0]) return chosen.join(' ');
  }
  return undefined;
}

/** Words that name something, lower-cased: no stop-words, quantities, numbers or words of one or two letters. */
function plainWords(text: string): string[] {
  return words(expandContractions(text).toLowerCase()).filter((word) => word.length > 2 && !/^\d+$/.test(word) && !isStopWord(word) && !isQuantityWord(word));
}

/** The same words in the index's form, to compare them as the index does ("legends" is "legend"). */
function contentWords(text: string): string[] {
  return plainWords(text).map(indexForm);
}
