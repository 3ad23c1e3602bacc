import { stemmer } from 'stemmer';
import { isOperatorTerm, isProseArrow, operatorTerms } from './operators.js';

/**
 * How text becomes index terms. One analyser for the index and the query, so the two always
 * agree: lower-cased words, Porter-stemmed; a compound word (`add_argument`, `readFile`) is kept
 * whole and split into its stemmed parts; a dotted name (`os.path.join`) also yields itself and
 * each shorter suffix (`path.join`) as a term of its own, so a question that names the API
 * matches the entry that defines it rather than every page that mentions one of its words.
 */

const WORD = /[\p{L}\p{N}_$]+/gu;
/** Dotted names: `os.path.join`, `dict.items`, `Array.prototype.flatMap`, `std::vector`, `obj->next`. */
const DOTTED = /(?<![\p{L}_$])[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|->)[\p{L}_$][\p{L}\p{N}_$]*)+/gu;
/** Command-line flags, kept whole as written: `--max-tokens`, `-rf` is not one (too short to tell). */
const FLAG = /(?<![\p{L}\p{N}_-])--[\p{L}\p{N}][\p{L}\p{N}_-]*/gu;
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/** A word with parts: joined by `_` or `$`, or at a camel-case boundary. */
const COMPOUND = /[_$]|[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;

const stems = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /^\d+$/.test(word) ? word : stemmer(word);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

const partsOf = (token: string): string[] => token.split(/[_$]+/).flatMap((part) => part.split(CAMEL_BOUNDARY)).filter(Boolean);

/** The parts of a compound word as written (`add_argument` → `add`, `argument`; `readFile` → `read`, `File`); none for a plain word. */
export function wordParts(token: string): string[] {
  const parts = partsOf(token);
  return parts.length <= 1 ? [] : parts;
}

/** The terms of one word as written (`readFile`, `add_argument`, `Sorting`), appended to `into`. */
function addWordTerms(token: string, into: string[]): string[] {
  const parts = partsOf(token);
  if (parts.length <= 1) {
    const word = (parts[0] ?? token).toLowerCase();
    if (word.length > 0) into.push(stem(word));
    return into;
  }
  into.push(token.toLowerCase());
  for (const part of parts) into.push(stem(part.toLowerCase()));
  return into;
}

/** The words of a text as written (`readFile`, `add_argument`, `Sorting`): the analyser's tokens, before any filter. */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Index terms of prose, headings or code: every word, with compound words split. */
export function wordTerms(text: string, into: string[] = []): string[] {
  for (const match of text.matchAll(WORD)) addWordTerms(match[0], into);
  return into;
}

/** The dotted names in a text and their suffixes, lower-cased: `os.path.join` → `os.path.join`, `path.join`. */
export function dottedTerms(text: string, into: string[] = []): string[] {
  for (const match of text.matchAll(DOTTED)) {
    const parts = match[0].toLowerCase().split(/\.|::|->/);
    for (let start = 0; start < parts.length - 1; start += 1) into.push(parts.slice(start).join('.'));
  }
  // A flag whole (`--max-tokens`), besides its words: the exact name a developer types.
  for (const match of text.matchAll(FLAG)) into.push(match[0].toLowerCase());
  return into;
}

/** Terms of text that holds code or names: its words and its dotted names. */
export function codeTerms(text: string, into: string[] = []): string[] {
  wordTerms(text, into);
  return dottedTerms(text, into);
}

const indexForms = new Map<string, string>();

/**
 * A word's index form, for callers that count words the way the index does. Remembered:
 * passages repeat their words, and splitting a word into its parts on every read doubled
 * SciFact's query time where passages are read word by word (59 → 120 ms p50 over 100 candidates).
 */
export function indexForm(word: string): string {
  let form = indexForms.get(word);
  if (form === undefined) {
    const terms = wordTerms(word);
    form = terms.length === 1 ? (terms[0] as string) : word.toLowerCase();
    if (indexForms.size >= STEM_CACHE_LIMIT) indexForms.clear();
    indexForms.set(word, form);
  }
  return form;
}

/**
 * Whether a lower-cased text may hold an index term of one word, by a look for its letters: all
 * but the last, which stemming may change ("hoping" → "hope", "days" → "dai", "eyed" → "ei").
 * False: it does not. A dotted name or a flag is not a word: `termsHeld` reads those whole.
 */
export function mayHoldTerm(lowerText: string, term: string): boolean {
  return lowerText.includes(probeOf(term));
}

/** A name term (`os.path.join`, from `std::vector` too; `--verbose`; an operator), not a word's. */
const isNameTerm = (term: string): boolean => term.includes('.') || term.startsWith('-') || isOperatorTerm(term);

/**
 * Which of these index terms a text holds: a word's form, a compound word's parts, a dotted
 * name or a flag (found anywhere in the text; the index takes those from code and names
 * only). Cheaper than all of the text's terms: a word's term the text cannot hold
 * (`mayHoldTerm`) is not looked for word by word, a word is only split when it is a compound,
 * and the text's names are only read when a name is asked for.
 */
export function termsHeld(text: string, terms: ReadonlySet<string>): Set<string> {
  const held = new Set<string>();
  const lower = text.toLowerCase();
  const wanted = new Set([...terms].filter((term) => !isNameTerm(term) && mayHoldTerm(lower, term)));
  if (wanted.size > 0) {
    const read = (segment: string) => {
      for (const word of words(segment)) {
        const form = indexForm(word);
        if (wanted.has(form)) held.add(form);
        if (!COMPOUND.test(word)) continue;
        for (const part of wordParts(word)) {
          const partForm = indexForm(part);
          if (wanted.has(partForm)) held.add(partForm);
        }
      }
    };
    // Only the stretches between spaces around where a wanted word's letters occur can hold it
    // (the premise of `mayHoldTerm`): reading those is cheaper than every word of a long text.
    // Short letters occur everywhere, and lower-casing that changes a text's length would move
    // the places: then every word is read.
    if (lower.length !== text.length || [...wanted].some((term) => probeOf(term).length < MIN_PROBE)) read(text);
    else {
      const starts = new Set<number>();
      for (const term of wanted) {
        const probe = probeOf(term);
        for (let at = lower.indexOf(probe); at !== -1 && !held.has(term); at = lower.indexOf(probe, at + probe.length)) {
          const start = spaceBefore(text, at);
          if (starts.has(start)) continue;
          starts.add(start);
          read(text.slice(start, spaceAfter(text, at + probe.length)));
        }
      }
    }
  }
  if ([...terms].some(isNameTerm)) for (const name of dottedTerms(text)) if (terms.has(name)) held.add(name);
  if ([...terms].some(isOperatorTerm)) for (const operator of operatorTerms(text)) if (terms.has(operator)) held.add(operator);
  return held;
}

/** The letters `mayHoldTerm` looks for: all but the last, which stemming may change. */
const probeOf = (term: string): string => (term.length > 1 ? term.slice(0, -1) : term);
/** A word written in capitals, two letters or more: how a question writes a keyword of a language. */
const KEYWORD = /^\p{Lu}{2,}$/u;

/**
 * The words a question writes in capitals while the rest is in lower case: a function word
 * written so is an operator or a keyword of a language ("filter with OR", "IS NULL", "ON
 * CONFLICT"), never a stop-word. A question all in capitals has none, nor its first word.
 */
export function keywordsIn(text: string): Set<string> {
  if (!/\p{Ll}/u.test(text)) return new Set();
  // The question's first word in capitals is emphasis ("WHY is this so slow").
  return new Set(words(text).filter((word, position) => position > 0 && KEYWORD.test(word)));
}

/** Probes shorter than this occur in most texts: reading every word is then as quick. */
const MIN_PROBE = 3;
const SPACE = /\s/;

/** Where the stretch of non-space characters holding position `at` starts. */
function spaceBefore(text: string, at: number): number {
  let start = at;
  while (start > 0 && !SPACE.test(text[start - 1] as string)) start -= 1;
  return start;
}

/** Where the stretch of non-space characters reaching position `at` ends. */
function spaceAfter(text: string, at: number): number {
  let end = at;
  while (end < text.length && !SPACE.test(text[end] as string)) end += 1;
  return end;
}

/** Contractions whose stem is not the word before the apostrophe. */
const IRREGULAR_NEGATIONS: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is' };
/** The words a clitic stands for: `'s` is a possessive or "is", neither a term worth searching. */
const CLITICS: Readonly<Record<string, string>> = { s: '', re: ' are', ve: ' have', ll: ' will', d: ' would', m: ' am' };

/**
 * A question's contractions written out ("don't" → "do not", "server's" → "server", "it's" →
 * "it"), so that the pieces an apostrophe leaves ("don", "t", "s") are not searched for as
 * words, and an apostrophe inside a word is not taken for the start of a quoted span. Code in
 * backticks is the asker's own and stays as written.
 */
export function expandContractions(text: string): string {
  return text.replace(CONTRACTION, (whole, code: string | undefined, base: string | undefined, clitic: string | undefined) => {
    if (code !== undefined) return code;
    if (base !== undefined) return `${IRREGULAR_NEGATIONS[base.toLowerCase()] ?? base} not`;
    return CLITICS[(clitic ?? '').toLowerCase()] ?? whole;
  });
}

/** A backticked span (kept), a negation ("don't", anchored at the word's start so a long word costs one try), or a clitic after a letter. */
const CONTRACTION = /(`[^`]*`)|(?<!\p{L})(\p{L}+?)n['’]t(?!\p{L})|(?<=\p{L})['’](s|re|ve|ll|d|m)(?!\p{L})/giu;

/** A query term and how much it counts (1: a word of the question itself). */
export interface QueryTerm {
  term: string;
  weight: number;
}

/**
 * Backticked or quoted spans: in a question they mostly hold the asker's own names and values.
 * A single quote opens a span only where no letter or digit comes before it, and closes one only
 * where none comes after it: "the users' files" holds no quoted span.
 */
const QUOTED = /`([^`]+)`|(?<![\p{L}\p{N}])'([^'\n]+)'(?![\p{L}\p{N}])|"([^"\n]+)"/gu;
/** A quoted span that names an API the docs may define: dotted, or called. */
const API_LIKE = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*(?:\(\))?$/u;

/** A quoted span that names an API the docs may define: dotted, or called (`os.path.join`, `sorted()`), not the asker's own value. */
const namesApi = (span: string): boolean => API_LIKE.test(span) && (/[.:]/.test(span) || span.endsWith('()'));

/** A question without its backticked or quoted spans (the asker's own names and values), each replaced by a line break; contractions written out. */
export function unquotedText(question: string): string {
  return expandContractions(question).replace(QUOTED, '\n');
}

/** The backticked or quoted spans of a question that do not name an API: the asker's own names and values, as written. */
export function quotedValues(question: string): string[] {
  const spans: string[] = [];
  for (const match of expandContractions(question).matchAll(QUOTED)) {
    const span = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (span !== '' && !namesApi(span)) spans.push(span);
  }
  return spans;
}

/**
 * A question's own words, apart from the values it quotes: the question without its backticked
 * or quoted spans, each replaced by a line break, except a span that names an API, which stays
 * (as `queryTerms` weighs them); contractions written out.
 */
export function questionOwnText(question: string): string {
  return expandContractions(question).replace(QUOTED, (whole, ...groups: (string | undefined)[]) => {
    const span = (groups[0] ?? groups[1] ?? groups[2] ?? '').trim();
    return namesApi(span) ? ` ${span} ` : '\n';
  });
}

/**
 * The terms of a question, each once with its weight: its words without stop-words and
 * question boilerplate ("how do I"), compound words split, dotted names whole. Words inside
 * backticks or quotes count `quotedWeight` and are not split (`my_dict` is a variable, not a
 * question about dictionaries), unless the span names an API (`os.path.join`, `sorted()`).
 * A question made only of common words still searches for them.
 */
export function queryTerms(text: string, isStopWord: (word: string) => boolean, quotedWeight = 1): QueryTerm[] {
  const weights = new Map<string, number>();
  const add = (term: string, weight: number) => weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  const all: string[] = [];
  const plain = expandContractions(text).replace(QUOTED, (whole, ...groups: (string | undefined)[]) => {
    const span = (groups[0] ?? groups[1] ?? groups[2] ?? '').trim();
    if (namesApi(span)) return ` ${span} `;
    // A quoted operator is what the question asks about, never the asker's value.
    for (const operator of operatorTerms(span)) add(operator, 1);
    const words = [...span.matchAll(WORD)];
    for (const match of words) {
      const word = match[0].toLowerCase();
      const term = word.length > 0 && /[_$]|\p{Ll}\p{Lu}/u.test(match[0]) ? word : indexForm(word);
      all.push(term);
      // A quoted single word is a name (pytest's "it", a variable `a`): never a stop-word.
      if ((words.length === 1 || !isStopWord(word)) && quotedWeight > 0) add(term, quotedWeight);
    }
    for (const match of span.matchAll(FLAG)) if (quotedWeight > 0) add(match[0].toLowerCase(), quotedWeight);
    return ' ';
  });
  const keyword = keywordsIn(plain);
  for (const match of plain.matchAll(WORD)) {
    const terms = addWordTerms(match[0], []);
    all.push(...terms);
    if (!isStopWord(match[0].toLowerCase()) || keyword.has(match[0])) for (const term of terms) add(term, 1);
  }
  for (const term of dottedTerms(plain)) add(term, 1);
  for (const operator of operatorTerms(plain)) if (!isProseArrow(operator)) add(operator, 1);
  if (weights.size === 0) for (const term of all) add(term, 1);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
