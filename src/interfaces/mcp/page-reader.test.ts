import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../core/types.js';
import { loadTokenizer } from '../../tokenize/tokenizer.js';
import { decodeCursor, encodeCursor, type PagePosition, readWindow } from './page-reader.js';

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
});

/** Reads a page from the start, cursor after cursor, as an agent would. */
function readAll(passages: string[], room: number): { bodies: string[]; calls: number } {
  const bodies: string[] = [];
  let position: PagePosition | undefined = { passage: 0, offset: 0 };
  let calls = 0;
  while (position !== undefined) {
    calls += 1;
    const window = readWindow(passages, position, room, tokenizer);
    if (window === undefined) throw new Error(`nothing fits ${room} tokens`);
    bodies.push(window.body);
    // The cursor goes out as text and comes back: it must name the same position.
    position = window.next === undefined ? undefined : decodeCursor(encodeCursor(window.next), passages);
    if (window.next !== undefined) expect(position).toEqual(window.next);
  }
  return { bodies, calls };
}

const letters = (text: string) => text.replace(/[\s…]/g, '');

describe('reading a page window by window', () => {
  it('gives whole passages while they fit, then says where to continue', () => {
    const passages = ['alpha beta gamma', 'delta epsilon', 'zeta eta theta iota'];
    const first = readWindow(passages, { passage: 0, offset: 0 }, tokenizer.count(`${passages[0]}\n\n${passages[1]}`), tokenizer);
    expect(first).toEqual({ body: `${passages[0]}\n\n${passages[1]}`, from: 1, to: 2, total: 3, next: { passage: 2, offset: 0 } });
    const rest = readWindow(passages, { passage: 2, offset: 0 }, 100, tokenizer);
    expect(rest).toEqual({ body: passages[2], from: 3, to: 3, total: 3 });
  });

  it('cuts a passage longer than the budget at a word and continues inside it', () => {
    const long = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
    const window = readWindow([long], { passage: 0, offset: 0 }, 30, tokenizer);
    expect(window?.body.endsWith('…')).toBe(true);
    expect(tokenizer.count(window?.body ?? '')).toBeLessThanOrEqual(30);
    expect(window?.next?.passage).toBe(0);
    expect(long.slice(window?.next?.offset)).toMatch(/^word\d+ /);
  });

  it('refuses cursors it did not hand out, or past the page', () => {
    expect(decodeCursor('abc', ['x'])).toBeUndefined();
    expect(decodeCursor('1:0', ['x'])).toBeUndefined();
    expect(decodeCursor('0:5', ['short'])).toBeUndefined();
    expect(decodeCursor('0:2', ['short'])).toEqual({ passage: 0, offset: 2 });
  });

  it('any budget of a few words reads every character of the page, in order, never over the budget', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    const passage = fc.array(word, { minLength: 1, maxLength: 60 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(passage, { minLength: 1, maxLength: 8 }), fc.integer({ min: 8, max: 120 }), (passages, room) => {
        const { bodies } = readAll(passages, room);
        for (const body of bodies) expect(tokenizer.count(body)).toBeLessThanOrEqual(room);
        expect(letters(bodies.join(''))).toBe(letters(passages.join('')));
      }),
      { numRuns: 150 },
    );
  });
});
