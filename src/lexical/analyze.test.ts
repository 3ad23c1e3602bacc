import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord } from './stop-words.js';
import { codeTerms, dottedTerms, expandContractions, indexForm, mayHoldTerm, queryTerms, termsHeld, wordTerms } from './analyze.js';
import { operatorTerms } from './operators.js';

const terms = (text: string, quotedWeight = 1) => Object.fromEntries(queryTerms(text, isStopWord, quotedWeight).map(({ term, weight }) => [term, weight]));

describe('lexical analysis', () => {
  it('stems words the Porter way, so "sorting" and "sorted" meet "sort"', () => {
    expect(wordTerms('Sorting sorted sort')).toEqual(['sort', 'sort', 'sort']);
  });

  it('keeps a compound word whole and adds its stemmed parts: snake_case and camelCase', () => {
    expect(wordTerms('add_argument')).toEqual(['add_argument', 'add', 'argument']);
    expect(wordTerms('readFileSync')).toEqual(['readfilesync', 'read', 'file', 'sync']);
    expect(wordTerms('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
  });

  it('turns a dotted name into itself and its shorter suffixes', () => {
    expect(dottedTerms('see os.path.join and std::vector')).toEqual(['os.path.join', 'path.join', 'std.vector']);
    expect(codeTerms('json.dumps(obj)')).toEqual(['json', 'dump', 'obj', 'json.dumps']);
  });

  it('gives a word its index form, for term statistics', () => {
    expect(indexForm('Indexes')).toBe('index');
  });

  it('tells which of some index terms a text holds, as its full term list would: stems, compound parts, dotted names, :: and -> names, flags', () => {
    const text = 'Run `ls -l` on the server: ssh_channel_request_exec() sends it; readFile and os.path.join read days of logs; std::vector, obj->next, --verbose; blue-eyed.';
    const wanted = ['run', 'ls', 'server', 'channel', 'ssh_channel_request_exec', 'file', 'os.path.join', 'path.join', 'std.vector', 'obj.next', '--verbose', 'dai', 'log', 'ei', 'window', 'tabl', 'os.getcwd'];
    const all = new Set(codeTerms(text));
    const held = termsHeld(text, new Set(wanted));
    expect(wanted.filter((term) => held.has(term))).toEqual(wanted.filter((term) => all.has(term)));
    expect([...held].sort()).toEqual(['--verbose', 'channel', 'dai', 'ei', 'file', 'log', 'ls', 'obj.next', 'os.path.join', 'path.join', 'run', 'server', 'ssh_channel_request_exec', 'std.vector']);
  });

  it('finds the same words whether it reads every word or only where their letters occur, in any text', () => {
    const vocabulary = ['days', 'eyed', 'hoping', 'relational', 'relabel', 'conditional', 'sensibility', 'server', 'serve', 'readFile', 'check_pending', 'HTTPServer', 'tables', 'table', 'output', 'outputs', 'set', 'a', 'it', 'éclair', 'naïve', 'İstanbul', 'x1', '$var', 'os.path.join', 'std::vector'];
    const separators = [' ', '\n', ', ', '(', ') ', '`', '. ', '\u00a0', '-', '_'];
    const text = fc.array(fc.tuple(fc.constantFrom(...vocabulary), fc.constantFrom(...separators)), { maxLength: 30 }).map((parts) => parts.map(([word, separator]) => word + separator).join(''));
    const wanted = fc.uniqueArray(fc.constantFrom(...vocabulary.flatMap((word) => wordTerms(word)), 'window', 'xyz'), { maxLength: 8 });
    fc.assert(
      fc.property(text, wanted, (written, terms) => {
        const all = new Set(wordTerms(written));
        const held = termsHeld(written, new Set(terms));
        for (const term of terms) expect(held.has(term)).toBe(all.has(term));
      }),
      { numRuns: 500 },
    );
  });

  it('reads every place a wanted word’s letters occur, not only the first', () => {
    expect([...termsHeld('the server can serve files', new Set(['serv']))]).toEqual(['serv']);
  });

  it('reads every word of a text whose length lower-casing changes, where places in the lower-cased text are not places in the text', () => {
    const text = `${'İ'.repeat(12)} relational is here`;
    expect(text.toLowerCase().length).not.toBe(text.length);
    expect([...termsHeld(text, new Set(['relat', 'here']))].sort()).toEqual(['here', 'relat']);
  });

  it('never rules out a word whose stem changed its last letter ("days" → "dai", "eyed" → "ei", "hoping" → "hope"), and rules out one whose letters are absent', () => {
    expect(mayHoldTerm('three days', indexForm('days'))).toBe(true);
    expect(mayHoldTerm('blue eyed', indexForm('eyed'))).toBe(true);
    expect(mayHoldTerm('hoping for', indexForm('hoping'))).toBe(true);
    expect(mayHoldTerm('three weeks', indexForm('days'))).toBe(false);
  });

  it('keeps a function word the question writes in capitals as a keyword (OR, IS NULL, ON CONFLICT), not in a question all in capitals', () => {
    expect(Object.keys(terms('filter rows with OR between two conditions'))).toContain('or');
    expect(Object.keys(terms('insert a row ON CONFLICT do nothing'))).toEqual(expect.arrayContaining(['on', 'conflict']));
    expect(Object.keys(terms('find rows where the column IS NULL'))).toEqual(expect.arrayContaining(['is', 'null']));
    expect(Object.keys(terms('filter rows with or without a value'))).not.toContain('or');
    expect(Object.keys(terms('HOW DO I CREATE AN INDEX'))).toEqual(['creat', 'index']);
    // The first word in capitals is emphasis.
    expect(Object.keys(terms('WHY is this query so slow'))).toEqual(['queri', 'slow']);
  });

  it('drops stop-words and question boilerplate from a question, unless nothing else is left', () => {
    expect(Object.keys(terms('How do I create an index?'))).toEqual(['creat', 'index']);
    expect(Object.keys(terms('how to use it'))).toEqual(['how', 'to', 'us', 'it']);
  });

  it('keeps a dotted or called API name whole, at full weight, even in backticks', () => {
    expect(terms('what does `os.path.join()` return', 0.25)).toMatchObject({ 'os.path.join': 1, 'path.join': 1, join: 1, return: 1 });
  });

  it("weighs the asker's own names and values in quotes at quotedWeight, without splitting them", () => {
    const weights = terms("sort dictionary `my_dict` by 'value'", 0.25);
    expect(weights).toEqual({ sort: 1, dictionari: 1, my_dict: 0.25, valu: 0.25 });
  });

  it('keeps an identifier whole and split in the index and in the question alike: snake_case, SCREAMING_CASE, a->b, --flags', () => {
    expect(codeTerms('ssh_options_set(SSH_OPTIONS_TIMEOUT) and node->next with --max-tokens')).toEqual(expect.arrayContaining(['ssh_options_set', 'ssh_options_timeout', 'option', 'timeout', 'node.next', '--max-tokens', 'max', 'token']));
    expect(Object.keys(terms('ssh_options_set SSH_OPTIONS_TIMEOUT'))).toEqual(expect.arrayContaining(['ssh_options_set', 'ssh_options_timeout', 'ssh', 'option', 'set', 'timeout']));
    expect(Object.keys(terms('how do I use --max-tokens'))).toEqual(expect.arrayContaining(['--max-tokens', 'max', 'token']));
    expect(Object.keys(terms('get_thing_or_404 returns what'))).toContain('get_thing_or_404');
  });

  it('searches an operator the question names, alone or quoted (||, ==, :=, ??), and finds it where it stands alone in code, not inside a URL, a name or an ellipsis', () => {
    expect(terms('an operator that gives a fallback only when undefined, like || does?')).toMatchObject({ '||': 1, fallback: 1 });
    expect(Object.keys(terms('what is the difference between ==, eql? and equal?'))).toContain('==');
    expect(Object.keys(terms('can I use := when the variable is declared'))).toContain(':=');
    expect(terms('what does `??` do', 0.25)).toMatchObject({ '??': 1 });
    // An arrow or a dash in prose is punctuation; quoted, it is the operator asked about.
    expect(Object.keys(terms('convert bytes -> str, sort by value -- largest first => done'))).not.toEqual(expect.arrayContaining(['->']));
    expect(Object.keys(terms('convert bytes -> str, sort by value -- largest first => done')).filter((term) => /^[-=<>]+$/.test(term))).toEqual([]);
    expect(Object.keys(terms('what does `->` do in PHP'))).toContain('->');
    expect(operatorTerms('EXPR1 // EXPR2, $a ||= 1, (a <=> b)')).toEqual(['//', '||=', '<=>']);
    expect(operatorTerms('see http://x.org/a, a->b, i++ and wait...')).toEqual([]);
    expect(termsHeld('returns `EXPR1 // EXPR2` when defined', new Set(['//', 'defin']))).toEqual(new Set(['//', 'defin']));
  });

  it('never drops a quoted single word as a stop-word: it is a name', () => {
    expect(terms('what does the "it" fixture do', 0.25)).toMatchObject({ it: 0.25, fixtur: 1 });
  });

  it('writes contractions out, so the pieces an apostrophe leaves ("don", "t", "s") are never searched for', () => {
    expect(expandContractions("don't doesn't can't won't")).toBe('do not does not can not will not');
    expect(expandContractions("the server's key, it's here, we'll see, they've gone, I'm in, you'd know")).toBe('the server key, it here, we will see, they have gone, I am in, you would know');
    expect(expandContractions('it\u2019s the server\u2019s key')).toBe('it the server key');
    expect(Object.keys(terms("don't run this test when on windows"))).toEqual(['run', 'test', 'window']);
    expect(Object.keys(terms("what's yesterday's date"))).toEqual(['yesterdai', 'date']);
  });

  it("does not take a contraction's apostrophe, or a plural's, for the start of a quoted span", () => {
    expect(terms("why doesn't 'my_value' change", 0.25)).toEqual({ my_value: 0.25, chang: 1 });
    expect(terms("where are the users' files and the admins' keys", 0.25)).toEqual({ user: 1, file: 1, admin: 1, kei: 1 });
  });

  it('leaves code in backticks as the asker wrote it', () => {
    expect(expandContractions("why does `b's'` differ from `r'd'` when it's raw")).toBe("why does `b's'` differ from `r'd'` when it raw");
  });
});
