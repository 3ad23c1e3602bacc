import { describe, expect, it } from 'vitest';
import type { TermStats } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { contentWords, PASSAGES_READ, sourcePosteriors } from './source-likelihood.js';

const library = (documents: number, frequencies: Record<string, number>): TermStats => ({ documents, documentFrequency: new Map(Object.entries(frequencies)) });

describe('contentWords', () => {
  const asWritten = (question: string, quotedWeight?: number) => contentWords(question, quotedWeight).map(({ word, weight }) => `${word}:${weight}`);

  it('keeps the words that say what a question is about, a compound name whole and as its parts, one per index form', () => {
    expect(asWritten('How do I close the ssh_channel with closeChannel and close it? Closing files, file.')).toEqual([
      'close:1', 'ssh_channel:1', 'ssh:1', 'channel:1', 'closeChannel:1', 'files:1',
    ]);
  });

  it('keeps a dotted name whole besides its words (`as.numeric` is a name one library defines)', () => {
    expect(asWritten('as.numeric on a factor column')).toEqual(['numeric:1', 'factor:1', 'column:1', 'as.numeric:1']);
  });

  it('counts a word found only in a quoted value at the quoted weight, whole and never a stop-word alone, and a quoted API name as the question\'s own', () => {
    expect(asWritten('Calling an external command "ls"', 0.25)).toEqual(['Calling:1', 'external:1', 'command:1', 'ls:0.25']);
    expect(asWritten('rename the key of `my_dict` to "it"', 0.25)).toEqual(['rename:1', 'key:1', 'my_dict:0.25', 'it:0.25']);
    expect(asWritten('join paths with `os.path.join`', 0.25)).toContain('os.path.join:1');
    expect(asWritten('list the command ls and "ls"', 0.25)).toContain('ls:1');
    expect(asWritten('"ls"', 0)).toEqual([]);
  });
});

describe('sourcePosteriors', () => {
  it('makes the library whose passages hold the words more often the likelier one, the probabilities summing to 1', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(1000, { fixture: 200, teardown: 50 })],
      [2, library(1000, { fixture: 2, teardown: 1 })],
    ]));
    expect(posteriors.get(1)).toBeGreaterThan(0.99);
    expect((posteriors.get(1) ?? 0) + (posteriors.get(2) ?? 0)).toBeCloseTo(1, 12);
  });

  it('compares shares of passages, then counts every passage alike: of two libraries that use the words as often, the larger is likelier by its size', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(3000, { fixture: 600, teardown: 150 })],
      [2, library(1000, { fixture: 200, teardown: 50 })],
    ]));
    expect(posteriors.get(1)).toBeCloseTo(0.75, 2);
  });

  it('lets the words outweigh the sizes: a small library whose passages hold them far more often stays the likelier', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(20_000, { fixture: 200, teardown: 20 })],
      [2, library(1000, { fixture: 300, teardown: 100 })],
    ]));
    expect(posteriors.get(2)).toBeGreaterThan(0.99);
  });

  it('lowers, without ruling out, a library that lacks a word of the question', () => {
    const posteriors = sourcePosteriors('fixture teardown', new Map([
      [1, library(100, { fixture: 10, teardown: 0 })],
      [2, library(100, { fixture: 10, teardown: 1 })],
    ]));
    expect(posteriors.get(1)).toBeGreaterThan(0);
    expect(posteriors.get(1)).toBeLessThan(posteriors.get(2) ?? 0);
  });

  it('ignores a word no library holds (a typo, a name of the asker): it would favour the smallest library', () => {
    const sources = new Map([
      [1, library(20_000, { fixture: 2000 })],
      [2, library(1000, { fixture: 100 })],
    ]);
    const without = sourcePosteriors('fixture', sources);
    const withTypos = sourcePosteriors('fixture my_var fomrat', sources);
    expect(withTypos.get(1)).toBeCloseTo(without.get(1) ?? 0, 12);
  });

  it('goes by size alone when the question has no content words', () => {
    const posteriors = sourcePosteriors('how do I', new Map([
      [1, library(300, {})],
      [2, library(100, {})],
    ]));
    expect(posteriors.get(1)).toBeCloseTo(0.75, 12);
    expect(posteriors.get(2)).toBeCloseTo(0.25, 12);
  });

  it('ignores what the question quotes when the quoted weight is 0: its values are the asker\'s, not the library\'s', () => {
    const sources = new Map([
      [1, library(1000, { copy: 50, file: 100, ls: 1 })],
      [2, library(1000, { copy: 40, file: 100, ls: 200 })],
    ]);
    const quoted = sourcePosteriors('copy a file with "ls"', sources, { quotedWeight: 0 });
    const plain = sourcePosteriors('copy a file', sources);
    expect(quoted.get(1)).toBeCloseTo(plain.get(1) ?? 0, 12);
    expect(sourcePosteriors('copy a file with "ls"', sources).get(2)).toBeGreaterThan(0.9);
  });

  describe('judged by its best passage too', () => {
    // Both libraries hold each word in as many passages: by word shares alone they are alike.
    const sources = new Map([
      [1, library(1000, { server: 100, ls: 20, prints: 20 })],
      [2, library(1000, { server: 100, ls: 20, prints: 20 })],
    ]);
    const together = [candidate({ text: 'Run ls -l on the server and read what it prints.' })];
    const apart = [candidate({ text: 'Connect to the server.' }), candidate({ text: 'The ls command lists files.' }), candidate({ text: 'It prints a line.' })];

    it('makes the library likelier whose one passage holds the question\'s words together, over one whose passages hold them apart', () => {
      expect(sourcePosteriors('run ls on the server', sources).get(1)).toBeCloseTo(0.5, 12);
      const posteriors = sourcePosteriors('ls on the server, what it prints', sources, { rankings: new Map([[1, together], [2, apart]]) });
      expect(posteriors.get(1)).toBeGreaterThan(0.9);
    });

    it('reads only the first passages of a ranking: one far down says little of what the library is about', () => {
      const filler = Array.from({ length: PASSAGES_READ }, (_, index) => candidate({ text: `Unrelated passage ${index}.` }));
      const posteriors = sourcePosteriors('ls on the server, what it prints', sources, { rankings: new Map([[1, [...filler, ...together]], [2, apart]]) });
      expect(posteriors.get(2)).toBeGreaterThan(0.5);
    });

    it('judges a library its search found nothing in as by a passage that holds none of the words', () => {
      const none = sourcePosteriors('ls on the server', sources, { rankings: new Map([[1, []], [2, [candidate({ text: 'Unrelated.' })]]]) });
      expect(none.get(1)).toBeCloseTo(0.5, 12);
    });
  });
});
