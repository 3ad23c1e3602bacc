import type { Tokenizer } from '../../core/types.js';

/** Where a read of a page starts: a passage (0-based) and a character offset inside it. */
export interface PagePosition {
  passage: number;
  offset: number;
}

export interface PageWindow {
  /** The passages (or the parts of them) that fit, joined as in the text. */
  body: string;
  /** 1-based numbers of the first and last passage shown (the last may be shown in part). */
  from: number;
  to: number;
  total: number;
  /** Where the next read starts; absent when the page (or section) was read to its end. */
  next?: PagePosition;
}

const SEPARATOR = '\n\n';

/** `"3:120"`: the cursor get_page hands out. Agents pass it back unchanged; its form is not a contract. */
export function encodeCursor(position: PagePosition): string {
  return `${position.passage}:${position.offset}`;
}

/** The position a cursor names, or undefined when it is not one get_page gave (or not for a page this long). */
export function decodeCursor(cursor: string, passages: readonly string[]): PagePosition | undefined {
  const match = /^(\d+):(\d+)$/.exec(cursor.trim());
  if (match === null) return undefined;
  const passage = Number(match[1]);
  const offset = Number(match[2]);
  const text = passages[passage];
  return text !== undefined && offset < text.length ? { passage, offset } : undefined;
}

/**
 * The longest run of passages from `start` whose text fits `room` tokens. When the first of them
 * does not fit whole, its start is cut at a space and the next read continues inside it, so any
 * budget that holds a few words reads a page to its end. Undefined when not even that fits.
 */
export function readWindow(passages: readonly string[], start: PagePosition, room: number, tokenizer: Tokenizer): PageWindow | undefined {
  const total = passages.length;
  let body = '';
  let index = start.passage;
  for (; index < total; index += 1) {
    const text = (passages[index] ?? '').slice(index === start.passage ? start.offset : 0);
    const candidate = body === '' ? text : `${body}${SEPARATOR}${text}`;
    if (tokenizer.count(candidate) <= room) {
      body = candidate;
      continue;
    }
    if (body !== '') break;
    // Not even the first passage fits: its longest start that does, continued next time.
    const cut = cutToFit(text, room, tokenizer);
    if (cut === undefined) return undefined;
    const rest = cut.consumed < text.length ? { passage: start.passage, offset: start.offset + cut.consumed } : index + 1 < total ? { passage: index + 1, offset: 0 } : undefined;
    return { body: cut.text, from: start.passage + 1, to: start.passage + 1, total, ...(rest === undefined ? {} : { next: rest }) };
  }
  return { body, from: start.passage + 1, to: index, total, ...(index < total ? { next: { passage: index, offset: 0 } } : {}) };
}

/**
 * The longest start of `text` that fits `room` tokens with a trailing `…` (cut at a space when one
 * is near the end, so words stay whole), and how many characters of `text` it consumed.
 */
function cutToFit(text: string, room: number, tokenizer: Tokenizer): { text: string; consumed: number } | undefined {
  // Binary search on the length: token counts grow with it.
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tokenizer.count(`${text.slice(0, middle).trimEnd()}…`) <= room) low = middle;
    else high = middle - 1;
  }
  if (low === 0) return undefined;
  const space = text.lastIndexOf(' ', low);
  const end = space > low * 0.6 ? space : low;
  let consumed = end;
  while (consumed < text.length && /\s/.test(text[consumed] ?? '')) consumed += 1;
  return { text: `${text.slice(0, end).trimEnd()}…`, consumed };
}
