/**
 * Inline tokens of a prose block (fenced code blocks are split off before). `incomplete`: the
 * rest of an unfinished text (`final` false) that more text could still turn into a link, a
 * marker, a URL or a code span; it is always the last token.
 */
export type Token =
  | { kind: 'space' | 'text' | 'code' | 'incomplete'; raw: string }
  | { kind: 'marker'; raw: string; numbers: number[] }
  /** `title`: what follows the destination inside the parentheses, as written (` "Title"`). */
  | { kind: 'link'; raw: string; image: boolean; label: string; destination: string; title: string }
  | { kind: 'autolink'; raw: string; url: string }
  /** A bare URL; `wrapped`: written as `(url)`, the parentheses part of the token. */
  | { kind: 'url'; raw: string; url: string; wrapped: boolean };

/** Where a run of plain text ends. */
const SPECIAL = /[\s`[<]|!\[|\(https?:\/\/|https?:\/\//gi;
/** A bare URL runs to whitespace or a character Markdown or prose puts around it. */
const BARE_URL = /https?:\/\/[^\s<>`[\]"|]*/iy;
const URL_START = /https?:\/\//iy;
const SPACE = /\s+/y;
const AUTOLINK = /<(https?:\/\/[^\s<>]*)>/iy;
/** What an unfinished `<…` must look like to still become an autolink. */
const AUTOLINK_PREFIX = /^<(?:h|ht|htt|https?|https?:|https?:\/|https?:\/\/[^\s<>]*)?$/i;
const MARKER_LABEL = /^\s*\d{1,4}(?:\s*,\s*\d{1,4})*\s*$/;
const BLANK_LINE = /\n[ \t\r]*\n/g;
const TRAILING_PUNCTUATION = ".,:;!?*_~'";

type Scan<T> = T | 'incomplete' | undefined;

/**
 * Splits prose into tokens, left to right; a token never depends on the text before it, and
 * when `final` is false every token but the last is what it will be however the text goes on.
 */
export function tokenize(text: string, final: boolean): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const token = nextToken(text, at, final);
    tokens.push(token);
    if (token.kind === 'incomplete') break;
    at += token.raw.length;
  }
  return tokens;
}

function nextToken(text: string, at: number, final: boolean): Token {
  const char = text.charAt(at);
  const rest = (): Token => ({ kind: 'incomplete', raw: text.slice(at) });
  if (/\s/.test(char)) {
    SPACE.lastIndex = at;
    return { kind: 'space', raw: SPACE.exec(text)?.[0] ?? char };
  }
  if (char === '`') return codeSpan(text, at, final) ?? rest();
  if (char === '[' || (char === '!' && text.charAt(at + 1) === '[')) {
    const scanned = bracket(text, at, final);
    if (scanned === 'incomplete') return rest();
    if (scanned !== undefined) return scanned;
  }
  if (char === '<') {
    AUTOLINK.lastIndex = at;
    const match = AUTOLINK.exec(text);
    if (match !== null) return { kind: 'autolink', raw: match[0], url: match[1] ?? '' };
    if (!final && AUTOLINK_PREFIX.test(text.slice(at))) return rest();
  }
  if (char === '(' && startsUrl(text, at + 1)) {
    const scanned = bareUrl(text, at + 1, final);
    if (scanned === 'incomplete') return rest();
    if (scanned !== undefined && text.charAt(at + 1 + scanned.length) === ')') {
      return { kind: 'url', raw: `(${scanned})`, url: scanned, wrapped: true };
    }
  }
  if (startsUrl(text, at)) {
    const scanned = bareUrl(text, at, final);
    if (scanned === 'incomplete') return rest();
    if (scanned !== undefined) return { kind: 'url', raw: scanned, url: scanned, wrapped: false };
  }
  SPECIAL.lastIndex = at + 1;
  const end = SPECIAL.exec(text)?.index ?? text.length;
  return { kind: 'text', raw: text.slice(at, end) };
}

function startsUrl(text: string, at: number): boolean {
  URL_START.lastIndex = at;
  return URL_START.test(text);
}

/** A bare URL at `at`, without the punctuation that ends a sentence or closes a parenthesis. */
function bareUrl(text: string, at: number, final: boolean): Scan<string> {
  const run = urlRunAt(text, at);
  if (run === undefined) return undefined;
  if (!final && at + run.length === text.length) return 'incomplete';
  return trimUrl(run);
}

/** The characters a bare URL starting at `at` runs over (up to whitespace, `<>[]"|` or a backtick), untrimmed. */
export function urlRunAt(text: string, at: number): string | undefined {
  BARE_URL.lastIndex = at;
  return BARE_URL.exec(text)?.[0];
}

/** A URL run without the punctuation after it: `.,:;!?*_~'` and an unbalanced `)`. */
export function trimUrl(run: string): string {
  let url = run;
  for (;;) {
    const last = url.charAt(url.length - 1);
    const unbalanced = last === ')' && count(url, '(') < count(url, ')');
    if (!TRAILING_PUNCTUATION.includes(last) && !unbalanced) return url;
    url = url.slice(0, -1);
  }
}

/** A code span: a run of backticks closed by a run of the same length in the same paragraph. */
function codeSpan(text: string, at: number, final: boolean): Token | undefined {
  const open = /`+/y;
  open.lastIndex = at;
  const length = open.exec(text)?.[0].length ?? 1;
  const afterOpen = at + length;
  if (!final && afterOpen === text.length) return undefined;
  BLANK_LINE.lastIndex = afterOpen;
  const blank = BLANK_LINE.exec(text)?.index ?? -1;
  let position = afterOpen;
  for (;;) {
    const tick = text.indexOf('`', position);
    if (tick === -1 || (blank !== -1 && blank < tick)) {
      return blank !== -1 || final ? { kind: 'text', raw: text.slice(at, afterOpen) } : undefined;
    }
    const close = /`+/y;
    close.lastIndex = tick;
    const closeLength = close.exec(text)?.[0].length ?? 1;
    if (!final && tick + closeLength === text.length) return undefined;
    if (closeLength === length) return { kind: 'code', raw: text.slice(at, tick + closeLength) };
    position = tick + closeLength;
  }
}

/** `[label](destination "title")`, `![alt](…)`, or a citation marker `[1]`, `[1, 2]`. */
function bracket(text: string, at: number, final: boolean): Scan<Token> {
  const image = text.charAt(at) === '!';
  const open = image ? at + 1 : at;
  let close = open + 1;
  while (close < text.length && !'[]\n'.includes(text.charAt(close))) close += 1;
  if (close === text.length) return final ? undefined : 'incomplete';
  if (text.charAt(close) !== ']') return undefined;
  const label = text.slice(open + 1, close);
  const marker: Token | undefined = !image && MARKER_LABEL.test(label)
    ? { kind: 'marker', raw: text.slice(at, close + 1), numbers: label.split(',').map((part) => Number(part.trim())) }
    : undefined;
  if (close + 1 === text.length) return final ? marker : 'incomplete';
  if (text.charAt(close + 1) !== '(') return marker;
  const target = destination(text, close + 2, final);
  if (target === 'incomplete') return 'incomplete';
  if (target === undefined) return marker;
  return { kind: 'link', raw: text.slice(at, target.end), image, label, destination: target.destination, title: target.title };
}

/** The inside of `(…)` after a link label: a destination (one level of parentheses) and an optional title. */
function destination(text: string, start: number, final: boolean): Scan<{ destination: string; title: string; end: number }> {
  const more = final ? undefined : 'incomplete';
  let at = start;
  let depth = 0;
  for (;;) {
    if (at >= text.length) return more;
    const char = text.charAt(at);
    if (char === ')' && depth === 0) return { destination: text.slice(start, at), title: '', end: at + 1 };
    if (/\s/.test(char) || char === '<' || char === '>') break;
    if (char === '(' && depth === 1) return undefined;
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    at += 1;
  }
  if (depth !== 0 || text.charAt(at) === '<' || text.charAt(at) === '>') return undefined;
  const end = at;
  let cursor = skipBlanks(text, at);
  if (cursor >= text.length) return more;
  const quote = text.charAt(cursor);
  if (quote !== ')') {
    if (quote !== '"' && quote !== "'") return undefined;
    cursor += 1;
    while (cursor < text.length && text.charAt(cursor) !== quote && text.charAt(cursor) !== '\n') cursor += 1;
    if (cursor >= text.length) return more;
    if (text.charAt(cursor) !== quote) return undefined;
    cursor = skipBlanks(text, cursor + 1);
    if (cursor >= text.length) return more;
    if (text.charAt(cursor) !== ')') return undefined;
  }
  return { destination: text.slice(start, end), title: text.slice(end, cursor), end: cursor + 1 };
}

function skipBlanks(text: string, at: number): number {
  let cursor = at;
  while (text.charAt(cursor) === ' ' || text.charAt(cursor) === '\t') cursor += 1;
  return cursor;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * The tokens of the first sentence of `text` and, when it is known to end, `end`: the index
 * of the space token that starts the next one (tokens past it are lookahead). A sentence
 * ends at a line break, or at a space after `.`, `!` or `?`, with the citation markers that
 * follow it. Tokenizes no further than needed, so a long answer is read once. `known`: tokens
 * of a shorter text this one continues, all but the last of which are known to be final.
 */
export function firstSentence(text: string, final: boolean, known: readonly Token[] = []): { tokens: Token[]; end?: number } {
  const tokens: Token[] = [...known];
  let at = known.reduce((length, token) => length + token.raw.length, 0);
  while (at < text.length) {
    const token = nextToken(text, at, final);
    tokens.push(token);
    at += token.raw.length;
    const space = tokens.length - 2;
    const last = token.kind === 'incomplete' || at >= text.length;
    // Token 0 is the space that began this sentence; a last token starting with `[` may still become a marker.
    if (space >= 1 && tokens[space]?.kind === 'space' && !(last && !final && token.raw.startsWith('[')) && token.kind !== 'marker') {
      const raw = tokens[space]?.raw ?? '';
      if (raw.includes('\n') || endsSentence(tokens, space)) return { tokens, end: space };
    }
    if (token.kind === 'incomplete') break;
  }
  return { tokens };
}

function endsSentence(tokens: readonly Token[], space: number): boolean {
  let index = space - 1;
  while (index > 0 && (tokens[index]?.kind === 'marker' || tokens[index]?.kind === 'space')) index -= 1;
  const token = tokens[index];
  return token?.kind === 'text' && /[.!?]["')\]*_]*$/.test(token.raw);
}
