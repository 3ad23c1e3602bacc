import { describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { extractiveAnswer } from './extractive.js';

// Passages shaped as the extractor stores real pages: a Sphinx API entry (docs.python.org), a
// Doxygen function (libssh), a PostgreSQL reference section, a pytest how-to section with code.
const PY = 'https://docs.python.org/3/library/';
const readlines = candidate({
  url: `${PY}io.html`, anchor: 'io.IOBase.readlines', title: 'io — Core tools for working with streams',
  headingPath: ['io — Core tools for working with streams', 'I/O Base Classes', 'class io.IOBase', 'readlines(hint=-1, /)'],
  text: '##### readlines(hint=-1, /)\n\nRead and return a list of lines from the stream. *hint* can be specified to control the number of lines read: no more lines will be read if the total size (in bytes/characters) of all lines so far exceeds *hint*.\n\n*hint* values of `0` or less, as well as `None`, are treated as no hint.\n\nNote that it’s already possible to iterate on file objects using `for line in file: ...` without calling `file.readlines()`.',
});
const glob = candidate({
  url: `${PY}glob.html`, anchor: 'glob.glob', title: 'glob — Unix style pathname pattern expansion',
  headingPath: ['glob — Unix style pathname pattern expansion', 'glob.glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False)'],
  text: '### glob.glob(pathname, \\*, root\\_dir=None, dir\\_fd=None, recursive=False, include\\_hidden=False)\n\nReturn a possibly empty list of path names that match *pathname*, which must be a string containing a path specification.\n\nRaises an [auditing event](https://docs.python.org/3/library/sys.html#auditing) `glob.glob` with arguments `pathname`, `recursive`.\n\nIf *recursive* is true, the pattern “`**`” will match any files and zero or more directories, subdirectories and symbolic links to directories.\n\nChanged in version 3.5: Support for recursive globs using “`**`”.\n\nChanged in version 3.11: Added the *include\\_hidden* parameter.',
});
const channelRead = candidate({
  url: 'https://api.libssh.org/stable/group__libssh__channel.html', anchor: 'gac92381c4c5d4a7eab35f6e84686f033d', title: 'The SSH channel functions',
  headingPath: ['ssh_channel_read()'],
  text: '## ssh\\_channel\\_read()\n\n```c\nint ssh_channel_read (ssh_channel channel, void * dest, uint32_t count, int is_stderr)\n```\n\nReads data from a channel.\n\nParameters\n\n| \\[in\\] | channel | The channel to read from. |\n| --- | --- | --- |\n| \\[in\\] | count | The count of bytes to be read. |\n\nReturns\n\nThe number of bytes read, 0 on end of file or SSH\\_ERROR on error. In nonblocking mode it can return 0 if no data is available or SSH\\_AGAIN.\n\nSee also\n\n[ssh\\_channel\\_read\\_timeout()](https://api.libssh.org/stable/group__libssh__channel.html#ga2f4e02cb3b3adbc30a534623164068fd)',
});
const statementTimeout = candidate({
  url: 'https://www.postgresql.org/docs/16/runtime-config-client.html', anchor: 'GUC-STATEMENT-TIMEOUT', title: '20.11. Client Connection Defaults',
  headingPath: ['20.11. Client Connection Defaults', 'statement_timeout (integer)'],
  text: '#### `statement_timeout` (`integer`)\n\nAbort any statement that takes more than the specified amount of time. If `log_min_error_statement` is set to `ERROR` or lower, the statement that timed out will also be logged. If this value is specified without units, it is taken as milliseconds. A value of zero (the default) disables the timeout.\n\nSetting `statement_timeout` in `postgresql.conf` is not recommended because it would affect all sessions.',
});
const lockTimeout = candidate({
  url: 'https://www.postgresql.org/docs/16/runtime-config-client.html', anchor: 'GUC-LOCK-TIMEOUT', title: '20.11. Client Connection Defaults',
  headingPath: ['20.11. Client Connection Defaults', 'lock_timeout (integer)'],
  text: '#### `lock_timeout` (`integer`)\n\nAbort any statement that waits longer than the specified amount of time while attempting to acquire a lock on a table, index, row, or other database object. A value of zero (the default) disables the timeout.',
});
const raises = candidate({
  url: 'https://docs.pytest.org/en/stable/how-to/assert.html', anchor: 'assertions-about-expected-exceptions', title: 'How to write and report assertions in tests',
  headingPath: ['How to write and report assertions in tests', 'Assertions about expected exceptions'],
  text: '## Assertions about expected exceptions\n\nIn order to write assertions about raised exceptions, you can use `pytest.raises()` as a context manager like this:\n\n```python\nimport pytest\n\n\ndef test_zero_division():\n    with pytest.raises(ZeroDivisionError):\n        1 / 0\n```\n\nYou can pass a `match` keyword parameter to the context-manager to test that a regular expression matches on the string representation of an exception:\n\n```python\ndef test_match():\n    with pytest.raises(ValueError, match=r".* 123 .*"):\n        myfunc()\n```',
});
const argparse = candidate({
  url: `${PY}argparse.html`, anchor: 'argparse.ArgumentParser.convert_arg_line_to_args', title: 'argparse',
  headingPath: ['argparse', 'ArgumentParser.convert_arg_line_to_args(arg_line)'],
  text: '#### ArgumentParser.convert\\_arg\\_line\\_to\\_args(arg\\_line)\n\nArguments that are read from a file are read one argument per line.',
});

const BOILERPLATE = [/Raises an auditing event/, /Changed in version/, /New in version/, /See also/, /\[ssh\\_channel\\_read\\_timeout\(\)\]/];

function answer(question: string, sources: Candidate[], maxSentences = 5): string {
  return extractiveAnswer(question, sources, { maxSentences }).text;
}

/** Text outside fenced blocks and inline code, with quoted strings left in, to look for marks inside either. */
function assertMarksOutsideCodeAndQuotes(text: string): void {
  const fences = [...text.matchAll(/```[\s\S]*?```/g)].map((match) => match[0]);
  for (const fence of fences) expect(fence).not.toMatch(/\[\d+\]/);
  const prose = text.replace(/```[\s\S]*?```/g, '');
  for (const span of prose.match(/`[^`]*`/g) ?? []) expect(span).not.toMatch(/\[\d+\]/);
  for (const quoted of prose.replace(/`[^`]*`/g, '').match(/"[^"]*"|“[^”]*”/g) ?? []) expect(quoted).not.toMatch(/\[\d+\]/);
}

describe('extractive answers on passages shaped like real pages', () => {
  it('opens a Python API entry with its qualified signature and first sentence', () => {
    const text = answer('how do I read a file line by line', [readlines, argparse]);
    expect(text.startsWith('`io.IOBase.readlines(hint=-1, /)`: Read and return a list of lines from the stream.')).toBe(true);
    expect(text).toContain('for line in file:');
    assertMarksOutsideCodeAndQuotes(text);
  });

  it('quotes what the entry says about the asked parameter, never its audit event or version notes', () => {
    const text = answer('glob recursive match subdirectories', [glob]);
    expect(text).toContain('`glob.glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False)`');
    expect(text).toContain('If *recursive* is true, the pattern “`**`” will match any files and zero or more directories');
    for (const noise of BOILERPLATE) expect(text).not.toMatch(noise);
    assertMarksOutsideCodeAndQuotes(text);
  });

  it('quotes version notes when the question is about versions', () => {
    expect(answer('in which version was include_hidden added to glob', [glob])).toContain('Changed in version 3.11: Added the *include\\_hidden* parameter.');
  });

  it('gives a Doxygen function its prototype and the return value the section states, labelled, without the See also links', () => {
    const text = answer('ssh_channel_read returns 0', [channelRead]);
    expect(text.startsWith('`int ssh_channel_read (ssh_channel channel, void * dest, uint32_t count, int is_stderr)`: Reads data from a channel. [1]')).toBe(true);
    expect(text).toContain('Returns: The number of bytes read, 0 on end of file or SSH\\_ERROR on error. [1]');
    for (const noise of BOILERPLATE) expect(text).not.toMatch(noise);
  });

  it('states the key value of a PostgreSQL setting from the best section before what a second source adds', () => {
    const text = answer('what is the default statement_timeout and its unit', [statementTimeout, lockTimeout]);
    expect(text.startsWith('`statement_timeout (integer)`: Abort any statement that takes more than the specified amount of time.')).toBe(true);
    expect(text).toContain('it is taken as milliseconds');
    expect(text).toContain('A value of zero (the default) disables the timeout. [1]');
    expect(text.indexOf('[1]')).toBeLessThan(text.indexOf('[2]') === -1 ? Number.POSITIVE_INFINITY : text.indexOf('[2]'));
  });

  it('shows the code example that answers, kept whole, after the sentence that introduces it, with the mark after the block', () => {
    const text = answer('pytest.raises match a regular expression', [raises]);
    expect(text).toContain('You can pass a `match` keyword parameter to the context-manager to test that a regular expression matches on the string representation of an exception: [1]\n\n```python\ndef test_match():\n    with pytest.raises(ValueError, match=r".* 123 .*"):\n        myfunc()\n```\n[1]');
    assertMarksOutsideCodeAndQuotes(text);
  });

  it('cites the best-ranked source first even when a lower one repeats more question words', () => {
    const verbose = candidate({ url: 'https://d.example/faq.html', text: 'To read a file line by line, read the file line by line.' });
    const text = answer('read a file line by line', [readlines, verbose]);
    expect(text.startsWith('`io.IOBase.readlines')).toBe(true);
    expect(extractiveAnswer('read a file line by line', [readlines, verbose], { maxSentences: 5 }).citations[0]?.url).toBe(`${PY}io.html#io.IOBase.readlines`);
  });

  it('names the question words no passage states when the passages only partly answer', () => {
    const text = answer('statement_timeout per transaction in kubernetes', [statementTimeout]);
    expect(text).toMatch(/Not covered by the passages found: “transaction”, “kubernetes”\.$/);
  });

  it('keeps a sentence holding a quoted string whole, so its mark comes after the closing quote', () => {
    const quoted = candidate({ url: 'https://d.example/q.html', text: 'The separator is "a. b" by default. Set sep to change the separator.' });
    const text = answer('default separator', [quoted]);
    expect(text).toContain('The separator is "a. b" by default. [1]');
    assertMarksOutsideCodeAndQuotes(text);
  });

  it('quotes a table that states what is asked, whole, after the sentence that introduces it', () => {
    const specifiers = candidate({
      url: 'http://gnuplot.example/node304.html', anchor: 'SECTION0302928200000000000000', title: 'Format specifiers', headingPath: ['Format specifiers'],
      text: '### Format specifiers\n\nThe acceptable formats (if not in time/date mode) are:\n\n| Tic-mark label numerical format specifiers |\n| --- | --- |\n| Format | Explanation |\n| `%f` | floating point notation |\n| `%e` or `%E` | exponential notation |\n| `%g` or `%G` | the shorter of `%e` (or `%E`) and `%f` |\n| `%L` | power to base of current logscale |',
    });
    const text = answer('set format y tic label specifiers %g %e %L', [specifiers]);
    expect(text).toContain('The acceptable formats (if not in time/date mode) are: [1]\n\n| Tic-mark label numerical format specifiers |');
    expect(text).toContain('| `%L` | power to base of current logscale |\n\n[1]');
  });

  it('leads with the best section even when it is a contents page, naming its links that hold words of the question', () => {
    const contents = candidate({
      url: 'http://gnuplot.example/node70.html', anchor: 'styles', title: 'Linetypes, colors, and styles', headingPath: ['Linetypes, colors, and styles'],
      text: '# Linetypes, colors, and styles\n\n-   [Colorspec](http://gnuplot.example/node71.html)\n-   [Dashtype](http://gnuplot.example/node75.html)\n-   [Linestyles vs linetypes](http://gnuplot.example/node76.html)',
    });
    const versus = candidate({ url: 'http://gnuplot.example/node76.html', anchor: 'vs', title: 'Linestyles vs linetypes', text: 'Whereas **linetypes** are permanent, **linestyles** last until the next reset of the graphics state.' });
    const result = extractiveAnswer('linestyle vs linetype, what is the difference', [contents, versus], { maxSentences: 5 });
    expect(result.text.startsWith('The best-matching section, Linetypes, colors, and styles [1], links to [Linestyles vs linetypes](http://gnuplot.example/node76.html).')).toBe(true);
    expect(result.text).toContain('**linestyles** last until the next reset of the graphics state. [2]');
    expect(result.citations.map((citation) => citation.url)).toEqual(['http://gnuplot.example/node70.html#styles', 'http://gnuplot.example/node76.html#vs']);
  });

  it('stays within the token budget, dropping what does not fit rather than cutting code', () => {
    const words = (text: string) => text.split(/\s+/).length;
    const text = extractiveAnswer('pytest.raises match a regular expression context manager', [raises, readlines], { maxSentences: 5, maxTokens: 110, countTokens: words }).text;
    expect(words(text)).toBeLessThanOrEqual(110);
    expect((text.match(/```/g) ?? []).length % 2).toBe(0);
  });
});
