import { describe, expect, it } from 'vitest';
import { isStopWord } from '../../lexical/stop-words.js';
import type { LexicalRanking } from '../../core/types.js';
import { queryTerms } from '../../lexical/analyze.js';
import { linkPriorOf, PRIOR_HALF_LINKS, scoreBm25f } from './bm25f.js';
import { buildSegment, decodePostings, encodePostings, type IndexedChunk } from './segment.js';

const ranking = (overrides: Partial<LexicalRanking> = {}): LexicalRanking => ({
  fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 },
  k1: 1.2,
  b: 0.75,
  linkPrior: 0,
  pagePrior: 0,
  quotedWeight: 1,
  ...overrides,
});

const chunk = (rowId: number, pageUrl: string, headingPath: string[], text: string, anchor?: string): IndexedChunk => ({
  rowId,
  chunk: { pageUrl, pageTitle: headingPath[0] ?? '', headingPath, text, ...(anchor === undefined ? {} : { anchor }) },
});

const search = (chunks: IndexedChunk[], question: string, options: Partial<LexicalRanking> = {}) => {
  const segment = buildSegment(chunks);
  return scoreBm25f(segment, queryTerms(question, isStopWord, 1), ranking(options), 10).map((doc) => segment.docs.rowIds[doc.ordinal]);
};

describe('BM25F over documentation fields', () => {
  const docs = [
    // A tutorial paragraph that mentions the function twice.
    chunk(1, 'https://d.example/tutorial.html', ['Tutorial', 'Working with files'], 'To build a path, call os.path.join; os.path.join picks the separator.', 'files'),
    // The entry that defines it.
    chunk(2, 'https://d.example/os.path.html', ['os.path', 'os.path.join(path, *paths)'], 'Join one or more path components intelligently.', 'os.path.join'),
    chunk(3, 'https://d.example/os.path.html', ['os.path', 'os.path.split(path)'], 'Split the pathname into a pair.', 'os.path.split'),
  ];

  it('ranks the API entry whose name matches above a tutorial paragraph that mentions it', () => {
    expect(search(docs, 'os.path.join')[0]).toBe(2);
  });

  it('without the identifier and heading fields, the paragraph that repeats the name wins: the fields make the difference', () => {
    expect(search(docs, 'os.path.join', { fieldWeights: { title: 0, headings: 0, identifiers: 0, code: 1, text: 1 } })[0]).toBe(1);
  });

  it('lifts the entry the docs link to most when matches are otherwise equal (link prior)', () => {
    const linked = [
      chunk(1, 'https://d.example/a.html', ['A', 'alpha()'], 'Return the value.', 'alpha'),
      chunk(2, 'https://d.example/a.html', ['A', 'beta()'], 'Return the value.', 'beta'),
      chunk(3, 'https://d.example/guide.html', ['Guide'], 'Use [beta](a.html#beta).', 'guide'),
      chunk(4, 'https://d.example/howto.html', ['Howto'], 'Or [beta](a.html#beta).', 'howto'),
    ];
    // Equal scores: document order decides without the prior.
    expect(search(linked, 'return value', { linkPrior: 0 }).slice(0, 2)).toEqual([1, 2]);
    expect(search(linked, 'return value', { linkPrior: 1 }).slice(0, 2)).toEqual([2, 1]);
  });

  it('lifts every match on a page that more other pages link to (page prior), counting each linking page once', () => {
    const pages = [
      chunk(1, 'https://d.example/a.html', ['A', 'Alpha'], 'Return the value.', 'alpha'),
      chunk(2, 'https://d.example/b.html', ['B', 'Beta'], 'Return the value.', 'beta'),
      // One page links to a.html from two chunks, and a.html links to itself: a.html has one linking page.
      chunk(3, 'https://d.example/guide.html', ['Guide'], 'Use [alpha](a.html#alpha).', 'one'),
      chunk(4, 'https://d.example/guide.html', ['Guide'], 'Or [more](a.html#more).', 'two'),
      chunk(5, 'https://d.example/a.html', ['A', 'More'], 'See [alpha](a.html#alpha).', 'more'),
      // Two pages link to b.html, to sections other than the matching one: b.html has two.
      chunk(6, 'https://d.example/howto.html', ['Howto'], 'Read [b](b.html#intro).', 'howto'),
      chunk(7, 'https://d.example/faq.html', ['FAQ'], 'Read [b](b.html#notes).', 'faq'),
    ];
    // Equal scores: document order decides without the prior.
    expect(search(pages, 'return value', { pagePrior: 0 }).slice(0, 2)).toEqual([1, 2]);
    expect(search(pages, 'return value', { pagePrior: 1 }).slice(0, 2)).toEqual([2, 1]);
  });

  it('reads popularity in absolute counts: a few links lift an entry little, hundreds nearly by the whole weight', () => {
    const factor = linkPriorOf({ linkPrior: 3, pagePrior: 0 });
    expect(factor(0, 0)).toBe(1);
    // The few "see also" links of a small site are chance, not popularity.
    expect(factor(2, 0)).toBeLessThan(1.15);
    expect(factor(PRIOR_HALF_LINKS, 0)).toBeCloseTo(2.5, 12);
    expect(factor(600, 0)).toBeGreaterThan(3.8);
    // Never decreasing, and bounded by 1 + the weights: the pruning bound holds.
    const withPages = linkPriorOf({ linkPrior: 3, pagePrior: 2 });
    for (let links = 0; links < 1000; links += 7) {
      expect(factor(links + 7, 0)).toBeGreaterThan(factor(links, 0));
      expect(withPages(3, links + 7)).toBeGreaterThan(withPages(3, links));
    }
    expect(linkPriorOf({ linkPrior: 3, pagePrior: 2 })(65_535, 65_535)).toBeLessThan(6);
  });

  it("gives an entry the same prior whatever else the index holds: another library's most linked entry changes no score", () => {
    const small = [
      chunk(1, 'https://a.example/a.html', ['A', 'alpha()'], 'Return the value.', 'alpha'),
      chunk(2, 'https://a.example/guide.html', ['Guide'], 'Use [alpha](a.html#alpha).', 'guide'),
    ];
    // Another library whose entry 300 passages link to.
    const other = [chunk(3, 'https://b.example/b.html', ['B', 'gamma()'], 'Something else entirely.', 'gamma')];
    for (let row = 4; row < 304; row += 1) other.push(chunk(row, `https://b.example/p${row}.html`, ['P'], 'See [gamma](b.html#gamma).', `p${row}`));
    const scoreOfAlpha = (chunks: IndexedChunk[]) => {
      const segment = buildSegment(chunks);
      // The factor the scorer applied (explain), which once was relative to the index's most linked entry.
      const hit = scoreBm25f(segment, queryTerms('return value', isStopWord, 1), ranking({ linkPrior: 3, pagePrior: 2 }), 5, true).find((doc) => segment.docs.rowIds[doc.ordinal] === 1);
      return { prior: hit?.prior };
    };
    expect(scoreOfAlpha([...small, ...other]).prior).toBe(scoreOfAlpha(small).prior);
    expect(scoreOfAlpha(small).prior).toBeGreaterThan(1);
  });

  it('reports each field’s share of the score, summing to the score without the prior', () => {
    const segment = buildSegment(docs);
    const [best] = scoreBm25f(segment, queryTerms('join path components', isStopWord, 1), ranking(), 1, true);
    expect(best?.fields).toHaveLength(5);
    expect((best?.fields ?? []).reduce((sum, share) => sum + share, 0)).toBeCloseTo(best?.score ?? 0, 6);
  });

  it('returns the same order whatever the order of equal-scored documents in the query terms', () => {
    expect(search(docs, 'path join')).toEqual(search(docs, 'join path'));
  });

  it('round-trips postings through their stored bytes', () => {
    const list = buildSegment(docs).postings('path');
    expect(list).toBeDefined();
    const decoded = decodePostings(new Uint8Array(encodePostings(list as NonNullable<typeof list>)));
    expect([...decoded.docs]).toEqual([...(list?.docs ?? [])]);
    expect([...decoded.tfs]).toEqual([...(list?.tfs ?? [])]);
  });

  it("finds a C++ member by its declared name, and does not lift it by the member lists' links", () => {
    const qtimer = (text: string) => chunk(1, 'https://d.example/qtimer.html', ['QTimer Class', '[static] void QTimer::singleShot(int msec, const QObject *receiver, const char *member)'], text, 'singleShot');
    const qobject = (text: string) => chunk(2, 'https://d.example/qobject.html', ['QObject Class', '[virtual] int QObject::startTimer(int interval)'], text, 'startTimer');
    const lists = [
      chunk(3, 'https://d.example/qobject-members.html', ['List of All Members for QObject'], '[startTimer](qobject.html#startTimer)', 'members'),
      chunk(4, 'https://d.example/qtimer-members.html', ['List of All Members for QTimer'], '[startTimer](qobject.html#startTimer)', 'members'),
    ];
    // Each class page opens with its description (a link to a page's first anchor is to the page).
    const pages = (timer: string, object: string) => [
      chunk(11, 'https://d.example/qtimer.html', ['QTimer Class'], 'The QTimer class provides timers.', 'details'),
      qtimer(timer),
      chunk(12, 'https://d.example/qobject.html', ['QObject Class'], 'The QObject class is the base class of all Qt objects.', 'details'),
      qobject(object),
      ...lists,
    ];
    expect(search(pages('Calls a slot after a given time interval.', 'Starts a timer; `QTimer::singleShot()` is simpler.'), 'QTimer::singleShot')[0]).toBe(1);
    // Equal matches: without a prior from the member lists, document order decides.
    const same = 'Runs after the requested delay.';
    expect(search(pages(same, same), 'requested delay', { linkPrior: 3, pagePrior: 0 }).slice(0, 2)).toEqual([1, 2]);
  });
});
