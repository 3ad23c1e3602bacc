import { describe, expect, it } from 'vitest';
import { libraryNameFromHost, libraryNameFromTitle, libraryNameFromUrlPath, versionFromUrl } from './names.js';
import { librariesNamedIn } from './routing.js';

describe('default library names and versions', () => {
  it.each([
    ['https://docs.pytest.org/en/stable/', 'pytest'],
    ['https://www.libssh.org/documentation/', 'libssh'],
    ['https://django.readthedocs.io/en/5.2/', 'django'],
    ['http://127.0.0.1:8801/', undefined],
    ['http://localhost:3000/docs/', undefined],
  ])('names %s by its host: %s', (url, expected) => {
    expect(libraryNameFromHost(url)).toBe(expected);
  });

  it.each([
    ['pytest documentation', 'pytest'],
    ['libssh: The SSH Library', 'libssh'],
    ['Gnuplot 5.4 Manual', 'gnuplot'],
    ['git(1) Manual Page', 'git'],
    ['SQLite Home Page', 'sqlite'],
    ['Crate proc_macro2', 'proc-macro2'],
    ['package http', 'http'],
    ['Package Control Documentation', 'package-control'],
    ['JUnit 4.13.2 API', 'junit'],
    ['CMake 3.25.1 Documentation', 'cmake'],
    ['Flask Documentation (2.2.x)', 'flask'],
    ['Welcome to SymPy’s documentation!', 'sympy'],
    ['GNU Octave (version 7.3.0)', 'octave'],
    ['Docutils Project Documentation Overview', 'docutils'],
    ['release-it', 'release-it'],
    ['Semantic Release', 'semantic-release'],
    ['Version Control with Git', 'version-control-with'],
    ['Overview of Lua', 'overview-of-lua'],
    ['Project Jupyter Documentation', 'project-jupyter'],
    ['The GNU C Library', 'gnu-c-library'],
    ['GNU Scientific Library', 'gnu-scientific-library'],
    ['GNU Make Manual', 'make'],
    ["Let's Encrypt", 'let-s-encrypt'],
    ['Rack, a modular Ruby webserver interface', 'rack'],
    ['Foo, Bar and Baz', 'foo-bar-and'],
    ['Directory listing for /', undefined],
    ['Index of /docs/', undefined],
    ['http://127.0.0.1:8883/go_spec.html', undefined],
    // A kind of page names no library (JSDoc's titles, without their "JSDoc: ").
    ['Class: _', undefined],
    ['Global', undefined],
  ])('names a site on an address by its title %s: %s', (title, expected) => {
    expect(libraryNameFromTitle(title)).toBe(expected);
  });

  it.each([
    ['http://127.0.0.1:8080/widgetlib/', 'widgetlib'],
    ['http://127.0.0.1:8080/widgetlib/5.2/en/index.html', 'widgetlib'],
    ['http://127.0.0.1:8080/my%20lib/stable/', 'my-lib'],
    ['http://127.0.0.1:8080/docs/5.2/', undefined],
    ['http://127.0.0.1:8080/index.html', undefined],
    ['http://127.0.0.1:8080/latest/', undefined],
  ])('names a site on an address with no title to go by from its URL’s folders: %s → %s', (url, expected) => {
    expect(libraryNameFromUrlPath(url)).toBe(expected);
  });

  it.each([
    ['https://docs.djangoproject.com/en/5.2/', '5.2'],
    ['https://example.com/v4/guide/', '4'],
    ['https://www.postgresql.org/docs/15/index.html', '15'],
    ['https://example.com/docs/', undefined],
  ])('sniffs the version of %s: %s', (url, expected) => {
    expect(versionFromUrl(url)).toBe(expected);
  });
});

describe('libraries a question names', () => {
  it('finds a library named by a whole word, in any case, and no library named inside another word', () => {
    expect(librariesNamedIn('Pytest fixture teardown', ['pytest', 'libssh'])).toEqual(['pytest']);
    expect(librariesNamedIn('how does node postgres pool', ['node-postgres', 'pytest'])).toEqual(['node-postgres']);
    expect(librariesNamedIn('pytesting is fun', ['pytest'])).toEqual([]);
    expect(librariesNamedIn('plot a graph', ['gnuplot'])).toEqual([]);
  });
});
