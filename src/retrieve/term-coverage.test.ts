import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candidate, TermStats } from '../core/types.js';
import { testChunk } from '../testing/text-index-double.js';
import { coveredShare, coverageTerms, type CoverageTerms, weighByCoverage } from './term-coverage.js';

const candidate = (chunk: Parameters<typeof testChunk>[0], fused: number): Candidate => ({ chunk: testChunk(chunk), scores: { fused }, techniques: ['bm25'], trace: [] });
const ids = (candidates: readonly Candidate[]) => candidates.map(({ chunk }) => chunk.id);

/** Term statistics of an index of 1,000 passages: each word in `frequencies` passages (10 when not listed). */
const statsOf =
  (frequencies: Readonly<Record<string, number>> = {}) =>
  async (words: readonly string[]): Promise<TermStats> => ({ documents: 1000, documentFrequency: new Map(words.map((word) => [word, frequencies[word] ?? 10])) });

describe('coverageTerms', () => {
  it("weighs the question's plain words by their IDF, leaving out quoted values and stop-words", async () => {
    const coverage = await coverageTerms('convert JSON text in `payload` to an object', [], statsOf({ json: 10, object: 400 }));
    const terms = coverage.terms.map(({ term }) => term);
    expect(terms).toEqual(expect.arrayContaining(['convert', 'json', 'text', 'object']));
    expect(terms).not.toContain('payload');
    expect(terms).not.toContain('to');
    const weightOf = (term: string) => coverage.terms.find((entry) => entry.term === term)?.weight ?? 0;
    expect(weightOf('json')).toBeGreaterThan(weightOf('object'));
  });

  it('asks the term statistics for the words as written, which bring them to the index form themselves', async () => {
    const asked: string[][] = [];
    const coverage = await coverageTerms('check that check_pending raises in os.path.join', [], async (words) => {
      asked.push([...words]);
      return statsOf({ raises: 500, check_pending: 1, pending: 3, 'os.path.join': 2 })(words);
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(expect.arrayContaining(['raises', 'check_pending', 'pending', 'os.path.join']));
    expect(asked[0]).not.toContain('rais');
    const weightOf = (term: string) => coverage.terms.find((entry) => entry.term === term)?.weight;
    // "raises" is common (500 of 1,000 passages), its stem is looked up as "raises", not as "rais".
    expect(weightOf('rais')).toBeCloseTo(Math.log(1 + 500.5 / 500.5), 6);
    expect(weightOf('check_pending')).toBeCloseTo(Math.log(1 + 999.5 / 1.5), 6);
    expect(weightOf('pend')).toBeCloseTo(Math.log(1 + 997.5 / 3.5), 6);
    expect(weightOf('os.path.join')).toBeCloseTo(Math.log(1 + 998.5 / 2.5), 6);
  });

  it('weighs an operator the question names by how many passages hold it, as it does a word', async () => {
    const coverage = await coverageTerms('what does || do with undefined values', [], statsOf({ '||': 400 }));
    expect(coverage.terms.find((entry) => entry.term === '||')?.weight).toBeCloseTo(Math.log(1 + 600.5 / 400.5), 6);
  });

  it('reads the aliases the docs define in the index form, with the words they stand for', async () => {
    const coverage = await coverageTerms('move the legend', [{ alias: 'key', of: ['legend'] }], statsOf());
    expect(coverage.aliases).toEqual([{ of: ['legend'], terms: ['kei'] }]);
  });
});

describe('coveredShare', () => {
  const coverage: CoverageTerms = {
    terms: [
      { term: 'legend', weight: 2 },
      { term: 'column', weight: 1 },
      { term: 'titl', weight: 1 },
    ],
    aliases: [{ of: ['legend'], terms: ['kei'] }],
  };

  it("counts the words of the passage's own heading and text, by weight", () => {
    expect(coveredShare(candidate({ id: 'a', text: 'the legend and its column titles' }, 1), coverage)).toBe(1);
    expect(coveredShare(candidate({ id: 'b', text: 'one column' }, 1), coverage)).toBe(0.25);
    expect(coveredShare(candidate({ id: 'c', headingPath: ['Plot', 'Column titles'], text: 'nothing else' }, 1), coverage)).toBe(0.5);
  });

  it('does not count the page title, the headings above its section, or the targets of its links', () => {
    const shared = candidate({ id: 'd', pageTitle: 'Legend', headingPath: ['Column titles', 'Examples'], text: 'See [the manual](https://d.example/legend.html#column) or <https://d.example/column/titles>.' }, 1);
    expect(coveredShare(shared, coverage)).toBe(0);
  });

  it("counts the docs' alias for a word as that word", () => {
    expect(coveredShare(candidate({ id: 'e', text: 'set key autotitle columnhead' }, 1), coverage)).toBe(0.5);
  });

  it('is 1 when the question has no words to hold', () => {
    expect(coveredShare(candidate({ id: 'f', text: 'anything' }, 1), { terms: [], aliases: [] })).toBe(1);
  });
});

describe('weighByCoverage', () => {
  const coverage: CoverageTerms = {
    terms: ['check', 'rais', 'valueerror', 'error', 'messag'].map((term) => ({ term, weight: 2 })),
    aliases: [],
  };
  // A short entry whose name says one of the question's words, and a how-to that says them all.
  const entry = candidate({ id: 'entry', headingPath: ['check_pending()'], text: 'Verify that all hooks which have not been verified against a hook specification are optional.' }, 1);
  const howTo = candidate({ id: 'how-to', headingPath: ['Assertions about expected exceptions'], text: 'Use pytest.raises to check that code raises ValueError, and match the error message.' }, 0.85);

  it('puts the passage holding more of the question above one that scored a little higher on fewer words, and says so in its trace', () => {
    const weighed = weighByCoverage([entry, howTo], coverage, { weight: 0.15 });
    expect(ids(weighed)).toEqual(['how-to', 'entry']);
    const fallen = weighed.find(({ chunk }) => chunk.id === 'entry');
    expect(fallen?.trace.map(({ technique }) => technique)).toEqual(['coverage']);
    expect(fallen?.scores.fused).toBeLessThan(1);
    // A passage holding every word keeps its score and gains no trace.
    expect(weighed.find(({ chunk }) => chunk.id === 'how-to')).toEqual(howTo);
  });

  it('keeps a clearly better text match first: the factor is bounded', () => {
    const strong = candidate({ id: 'strong', text: 'nothing of the question' }, 1);
    const weak = candidate({ id: 'weak', text: 'check raises ValueError error message' }, 0.6);
    expect(ids(weighByCoverage([strong, weak], coverage, { weight: 0.15 }))).toEqual(['strong', 'weak']);
    // 0.1 ^ 0.15: a passage holding none of the words keeps about 71% of its score, never nothing.
    expect(weighByCoverage([strong], coverage, { weight: 0.15 })[0]?.scores.fused).toBeCloseTo(0.1 ** 0.15, 6);
  });

  it('changes nothing at weight 0 or for a question without words', () => {
    expect(weighByCoverage([entry, howTo], coverage, { weight: 0 })).toEqual([entry, howTo]);
    expect(weighByCoverage([entry, howTo], { terms: [], aliases: [] }, { weight: 0.15 })).toEqual([entry, howTo]);
  });

  it('never raises a score, and keeps the order of passages holding the same share', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.constantFrom('check', 'raises error', 'ValueError message', 'other words', ''), fused: fc.double({ min: 0, max: 10, noNaN: true }) }), { maxLength: 12 }), (rows) => {
        const candidates = rows.map((row, index) => candidate({ id: `c${index}`, text: row.text }, row.fused));
        const weighed = weighByCoverage(candidates, coverage, { weight: 0.15 });
        expect(weighed).toHaveLength(candidates.length);
        for (const after of weighed) {
          const before = candidates.find(({ chunk }) => chunk.id === after.chunk.id);
          expect(after.scores.fused).toBeLessThanOrEqual(before?.scores.fused ?? Number.NaN);
        }
        for (let index = 1; index < weighed.length; index += 1) expect((weighed[index - 1] as Candidate).scores.fused).toBeGreaterThanOrEqual((weighed[index] as Candidate).scores.fused);
      }),
    );
  });
});
