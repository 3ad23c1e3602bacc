import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const page = (body: string) => `<!doctype html><html><head><title>Erlang -- lists</title></head><body>${body}</body></html>`;
/** One function entry as Erlang's erl_docgen writes it: an `<article>`, its signature an `<h4>`, a "Types" `<h3>` inside. */
const entry = (id: string, signature: string, description: string, since = '') =>
  `<article class="func"><h4 id="${id}" class="func-head"><span class="title-name">${signature}</span>${since === '' ? '' : `<div class="title-since"><span class="since">${since}</span></div>`}</h4>` +
  `<div class="REFBODY fun-types"><h3 id="types" class="func-types-title">Types</h3><div class="REFTYPES"><span class="bold_code">Key = term()</span></div></div>` +
  `<div class="REFBODY description"><p>${description}</p></div></article>`;
const erlangPage = (entries: string) =>
  page(`<aside id="leftnav"><ul><li><a href="lists.html">lists</a></li></ul></aside><div id="content"><div class="innertube"><h1>lists</h1><h3 id="description">Description</h3><p>List processing functions, each documented below.</p>${entries}</div><div class="footer"><hr><p>Copyright © 1997-2026 Ericsson AB. All Rights Reserved.</p></div></div>`);

describe('entries of a page written as one <article> each (Erlang)', () => {
  it('reads every article, not the first: the content is what holds them all', () => {
    const { headings, markdown } = extractHtml(erlangPage(entry('keyfind-3', 'keyfind(Key, N, TupleList) -> Tuple | false', 'Searches the list of tuples for a tuple whose Nth element compares equal to Key, long enough to be content.') + entry('keymember-3', 'keymember(Key, N, TupleList) -> boolean()', 'Returns true if there is a tuple in TupleList whose Nth element compares equal to Key.')), 'https://d.example/lists.html');
    expect(headings.filter((heading) => heading.level === 4).map((heading) => heading.anchor)).toEqual(['keyfind-3', 'keymember-3']);
    expect(markdown).toContain('Returns true if there is a tuple');
  });

  it('keeps a heading whose id recurs in every entry (a template label) as a line of the entry, so the signature heads its types and description', () => {
    const entries = ['a-1', 'b-1', 'c-1'].map((id) => entry(id, `${id.slice(0, 1)}(Key) -> term()`, `What ${id} does.`)).join('');
    const { headings, markdown } = extractHtml(erlangPage(entries), 'https://d.example/lists.html');
    expect(headings.map((heading) => heading.text)).not.toContain('Types');
    expect(markdown).toMatch(/#### a\(Key\) -> term\(\)\n\nTypes:\n\nKey = term\(\)\n\nWhat a-1 does\./);
  });

  it('reads the title of a note, tip or warning box (DocBook’s div.note > h3.title) as a line of the section it is in, not a section', () => {
    const html = page(`<main><div class="sect2" id="DDL-PARTITIONING-OVERVIEW"><div class="titlepage"><h3 class="title">5.11.1. Overview</h3></div><p>Partitioning splits a table.</p>
      <div class="note"><h3 class="title">Note</h3><p>Only for large tables.</p></div><p>More about partitions.</p></div>
      <div class="sect2" id="DDL-PARTITIONING-DECLARATIVE"><div class="titlepage"><h3 class="title">5.11.2. Declarative Partitioning</h3></div>
      <div class="warning"><h3 id="own-id">Warning</h3><p>A box that heads its own section keeps it.</p></div>
      <div class="admonition tip"><h4>A much longer heading inside a tip box</h4><p>Long titles are sections.</p></div>
      <div class="note" id="setup"><h3>Setup</h3><p>Install it.</p><h4 id="requirements">Requirements</h4><p>Node 20.</p></div></div></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/ddl-partitioning.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['5.11.1. Overview', 'DDL-PARTITIONING-OVERVIEW'],
      ['5.11.2. Declarative Partitioning', 'DDL-PARTITIONING-DECLARATIVE'],
      ['Warning', 'own-id'],
      ['A much longer heading inside a tip box', undefined],
      // A box with headings of its own inside is a section, not a note.
      ['Setup', 'setup'],
      ['Requirements', 'requirements'],
    ]);
    expect(markdown).toMatch(/Partitioning splits a table\.\n\nNote:\n\nOnly for large tables\.\n\nMore about partitions\./);
  });

  it('labels a box title that already ends with a colon once ("Warning:", as Apache writes it), not "Warning::"', () => {
    const html = page(`<main><h2 id="intro">Introduction</h2><p>Access control.</p><div class="warning"><h3>Warning:</h3><p>Order matters.</p></div></main>`);
    expect(extractHtml(html, 'https://d.example/access.html').markdown).toMatch(/Access control\.\n\nWarning:\n\nOrder matters\./);
  });

  it('reads an empty entry right under a heading as a line of that section, not an entry that takes its body (Django’s placeholders)', () => {
    const html = page(`<main><section id="the-per-view-cache"><h2>The per-view cache</h2><dl class="py function"><dt class="sig" id="cache.cache_page"><code>cache.cache_page</code>()</dt><dd></dd></dl>
      <p>A more granular way to use the caching framework is by caching the output of individual views.</p>
      <dl class="py function"><dt class="sig" id="cache.never_cache"><code>cache.never_cache</code>()</dt><dd></dd></dl>
      <section id="low-level"><h2>The low-level cache API</h2><dl class="py function"><dt class="sig" id="cache.get">cache.get(key)</dt><dd><p>Fetch a key.</p></dd></dl></section></section></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/cache.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['The per-view cache', 'the-per-view-cache'],
      // An empty entry after other text is still an entry; a documented one too.
      ['cache.never_cache()', 'cache.never_cache'],
      ['The low-level cache API', 'low-level'],
      ['cache.get(key)', 'cache.get'],
    ]);
    expect(markdown).toMatch(/## The per-view cache\n\n`cache.cache_page\(\)`\n\nA more granular way/);
  });

  it('keeps an empty entry under a heading that has no anchor: the entry’s is the only one the section has', () => {
    const html = page(`<main><h2>The per-view cache</h2><dl class="py function"><dt class="sig" id="cache.cache_page"><code>cache.cache_page</code>()</dt><dd></dd></dl><p>Cache the output of one view.</p></main>`);
    const { headings } = extractHtml(html, 'https://d.example/cache.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['The per-view cache', undefined],
      ['cache.cache_page()', 'cache.cache_page'],
    ]);
  });

  it('reads a heading whose id an earlier element has as part of the section before it (a link to the id goes there)', () => {
    const html = page('<main><h1>QByteArray</h1><h3 id="QByteArray">QByteArray::QByteArray(const QByteArray &amp;other)</h3><p>Constructs a copy of other.</p><h3 id="QByteArray">QByteArray::QByteArray()</h3><p>Constructs an empty byte array.</p></main>');
    const { headings, markdown } = extractHtml(html, 'https://d.example/qbytearray.html');
    expect(headings.filter((heading) => heading.level === 3)).toEqual([{ level: 3, text: 'QByteArray::QByteArray(const QByteArray &other)', anchor: 'QByteArray' }]);
    expect(markdown).toContain('QByteArray::QByteArray():');
  });

  it('joins signatures documented together (headings with nothing between them) into one heading at the first anchor', () => {
    const html = erlangPage('<article class="func"><h4 id="trim-1"><span>trim(String) -> unicode:chardata()</span></h4><h4 id="trim-2"><span>trim(String, Dir) -> unicode:chardata()</span></h4><div class="REFBODY description"><p>Returns a string where the leading or trailing, or both, Characters have been removed.</p></div></article>');
    const { headings } = extractHtml(html, 'https://d.example/string.html');
    expect(headings.filter((heading) => heading.level === 4)).toEqual([{ level: 4, text: 'trim(String) -> unicode:chardata(); trim(String, Dir) -> unicode:chardata()', anchor: 'trim-1' }]);
  });

  it('keeps adjacent headings of two names apart: prose with brackets, or two entries (rustdoc variants)', () => {
    const { headings } = extractHtml(page('<main><h1>Guide</h1><h2 id="a">Windows (64-bit)</h2><h2 id="b">macOS (Apple silicon)</h2><p>Run the installer.</p><h3 id="variant.Trait">Trait(TraitBound)</h3><h3 id="variant.Lifetime">Lifetime(Lifetime)</h3><p>A bound.</p></main>'), 'https://d.example/guide.html');
    expect(headings.filter((heading) => heading.level > 1)).toEqual([
      { level: 2, text: 'Windows (64-bit)', anchor: 'a' },
      { level: 2, text: 'macOS (Apple silicon)', anchor: 'b' },
      { level: 3, text: 'Trait(TraitBound)', anchor: 'variant.Trait' },
      { level: 3, text: 'Lifetime(Lifetime)', anchor: 'variant.Lifetime' },
    ]);
  });

  it("keeps a heading's permalink out of the label it becomes, and a heading that is only a permalink goes", () => {
    const html = page('<main><h1>CSV</h1><h2 id="parsing">Options for Parsing</h2><h3 id="option-sep">Option row_sep<a href="#option-sep">¶</a> <a href="#top">↑</a></h3><p>Sets the row separator for parsing.</p><h2 id="generating">Options for Generating</h2><h3 id="option-sep">Option row_sep<a href="#option-sep">¶</a> <a href="#top">↑</a></h3><p>Sets the row separator for generating.</p><h3 id="quote">Option quote_char</h3><p>Sets the quote character.</p><h3 id="quote"><a href="#quote">¶</a></h3><p>More.</p></main>');
    const { headings, markdown } = extractHtml(html, 'https://d.example/CSV.html');
    expect(headings.filter((heading) => heading.level === 3)).toEqual([
      { level: 3, text: 'Option row_sep', anchor: 'option-sep' },
      { level: 3, text: 'Option quote_char', anchor: 'quote' },
    ]);
    expect(markdown).toMatch(/## Options for Generating\n\nOption row\\_sep:\n\nSets the row separator for generating\./);
    expect(markdown).not.toMatch(/^\s*:\s*$/m);
  });

  it('reads a block inside a heading as a word of its own', () => {
    const { headings } = extractHtml(erlangPage(entry('lowercase-1', 'lowercase(String) -> unicode:chardata()', 'Converts String to lowercase, long enough to be content.', 'OTP 20.0')), 'https://d.example/string.html');
    expect(headings.map((heading) => heading.text)).toContain('lowercase(String) -> unicode:chardata() OTP 20.0');
  });

  it('leaves a footer of copyright out of the content it ends', () => {
    const { markdown } = extractHtml(page('<div><h1>Overview</h1><p>What the library does, in words long enough to be the content.</p><div class="footer"><hr><p>Copyright © 1997-2026 Ericsson AB. All Rights Reserved.</p></div></div>'), 'https://d.example/index.html');
    expect(markdown).toContain('What the library does');
    expect(markdown).not.toContain('Copyright');
  });

  it('keeps one article that holds most of the text as the content, without the small ones around it', () => {
    const html = page(`<div class="layout"><div class="menu"><a href="/">Home</a> <a href="/blog">Blog</a></div><article><h1>Release notes</h1><p>${'What changed in this release, at length. '.repeat(20)}</p></article><div class="related"><article><h2>Older post</h2><p>Teaser.</p></article></div></div>`);
    const { markdown } = extractHtml(html, 'https://d.example/post.html');
    expect(markdown).toContain('What changed in this release');
    expect(markdown).not.toMatch(/Older post|Teaser|Home/);
  });
});

describe("code laid out as a table of lines (Racket's Scribble)", () => {
  const row = (cells: string) => `<tr><td>${cells}</td></tr>`;
  const scribblePage = (main: string) =>
    `<!doctype html><html><head><title>11 Iterations and Comprehensions</title><script type="text/javascript" src="../scribble-common.js"></script></head><body>` +
    `<div class="tocset"><div class="tocview">The Racket Guide</div></div><div class="maincolumn"><div class="main"><div class="versionbox">8.7</div>` +
    `<div class="navsettop"><a href="index.html">← prev</a> <a href="index.html">up</a> <a href="index.html">next →</a></div>${main}<div class="navsetbottom"><a href="index.html">← prev</a></div></div></div></body></html>`;

  it('reads it as the code block it shows: one line per row, its indentation, a REPL result under its input; the navigation bars are not text', () => {
    const interaction = `<table class="RktBlk">${row('<span class="stt">&gt; </span><span class="RktPn">(</span><a href="x.html">for</a><span class="hspace">&nbsp;</span>([i 3])')}${row('<span class="hspace">&nbsp;&nbsp;&nbsp;&nbsp;</span>(display i))')}</table>`;
    const html = scribblePage(`<h3><a name="(part._for)"></a>11 Iterations and Comprehensions</h3><p>The for family of syntactic forms support iteration over sequences.</p><p>Examples:</p><blockquote class="SCodeFlow"><table class="RktBlk">${row(interaction)}${row('<p><span class="RktOut">012</span></p>')}</table></blockquote>`);
    const { markdown } = extractHtml(html, 'https://d.example/guide/for.html');
    expect(markdown).toContain('```\n> (for ([i 3])\n    (display i))\n012\n```');
    expect(markdown).not.toMatch(/prev|next →|\| ---|8\.7/);
  });

  it('reads a code block of one paragraph and no rows as its line', () => {
    const html = scribblePage('<h3><a name="(part._test)"></a>Testing</h3><p>The test forms check an expression against the value it should have.</p><blockquote class="SCodeFlow"><p><span class="RktPn">(</span>test/exn<span class="hspace">&nbsp;</span>(error "by zero"))</p></blockquote>');
    expect(extractHtml(html, 'https://d.example/guide/test.html').markdown).toContain('```\n(test/exn (error "by zero"))\n```');
  });
});

describe("Nim's nim doc pages", () => {
  it('take the title above the content, and leave out each entry\'s Source and Edit links and the "..." that folds its pragma', () => {
    const html =
      '<!doctype html><html><head><title>std/strutils</title><script type="text/javascript" src="dochack.js"></script></head><body><div class="document" id="documentId"><div class="container"><h1 class="title">std/strutils</h1>' +
      '<div class="row"><div class="three columns"><div id="global-links"><a href="theindex.html">Index</a></div><input id="searchInput"></div><div class="nine columns" id="content"><div class="section" id="12"><h1><a class="toc-backref" href="#12">Procs</a></h1><dl class="item">' +
      '<div id="strip,string,set[char]"><dt><pre><span class="Keyword">func</span> <a href="#strip%2Cstring%2Cset%5Bchar%5D"><span class="Identifier">strip</span></a>(s: string): string {.<span><span class="Other pragmadots">...</span></span><span class="pragmawrap">gcsafe, raises: [].</span>}</pre></dt>' +
      '<dd><p>Strips leading or trailing chars from s and returns the resulting string.</p>' +
      '<a href="https://github.com/nim-lang/Nim/tree/devel/lib/pure/strutils.nim#L2478" class="link-seesrc" target="_blank">Source</a>  <a href="https://github.com/nim-lang/Nim/edit/devel/lib/pure/strutils.nim#L2478" class="link-seesrc" target="_blank">Edit</a></dd></div>' +
      '</dl></div></div></div></div></div></body></html>';
    const { title, markdown } = extractHtml(html, 'https://d.example/strutils.html');
    expect(title).toBe('std/strutils');
    expect(markdown).toContain('{.gcsafe, raises: [].}'.replace(/\[/g, '\\['));
    expect(markdown).not.toMatch(/\.\.\.|github\.com|Source|Edit/);
  });
});

describe("CMake's signature blocks (Sphinx code blocks that carry an id)", () => {
  const cmakePage = (body: string) =>
    `<!doctype html><html><head><title>list — CMake 3.25.1 Documentation</title></head><body><div class="body" role="main"><section id="list"><h1>list</h1><p>List operations.</p>${body}</section></div></body></html>`;
  const block = (id: string, code: string) => `<div class="highlight-cmake notranslate" id="${id}"><div class="highlight"><pre><span></span><span class="nf">list(</span>${code}<span class="nf">)</span>\n</pre></div>\n</div>`;

  it('reads each signature followed by its description as an entry cited at the block’s id, not one section of every signature', () => {
    const html = cmakePage(
      `<section id="reading"><h2>Reading</h2>${block('length', 'LENGTH &lt;list&gt; &lt;out-var&gt;')}<p>Returns the list's length.</p>${block('get', 'GET &lt;list&gt; &lt;index&gt; &lt;out-var&gt;')}<p>Returns the list of elements specified by indices.</p></section>`,
    );
    const { headings, markdown } = extractHtml(html, 'https://d.example/command/list.html');
    expect(headings.map(({ level, text, anchor }) => [level, text, anchor])).toEqual([
      [1, 'list', 'list'],
      [2, 'Reading', 'reading'],
      [3, 'list(LENGTH <list> <out-var>)', 'length'],
      [3, 'list(GET <list> <index> <out-var>)', 'get'],
    ]);
    expect(markdown).toMatch(/### list\(LENGTH \\<list> \\<out-var>\)\n\nReturns the list's length\./);
  });

  it('cites a block of two forms at the first form’s id, the name its heading starts with', () => {
    const html = cmakePage(
      `<section id="filesystem"><h2>Filesystem</h2><div class="highlight-cmake notranslate" id="glob-recurse"><span id="glob"></span><div class="highlight"><pre>file(GLOB &lt;variable&gt; [&lt;globbing-expressions&gt;...])\nfile(GLOB_RECURSE &lt;variable&gt; [FOLLOW_SYMLINKS])\n</pre></div></div><p>Generate a list of files that match the globbing expressions.</p></section>`,
    );
    const { headings } = extractHtml(html, 'https://d.example/command/file.html');
    expect(headings.at(-1)).toEqual({ level: 3, text: 'file(GLOB <variable> [<globbing-expressions>...]) file(GLOB_RECURSE <variable> [FOLLOW_SYMLINKS])', anchor: 'glob' });
  });

  it('leaves a code block as code when its id is an index target, an example\'s label that names no word of its first line, or nothing follows it', () => {
    const html = cmakePage(
      `<section id="example"><h2>Example</h2><p>Sum a sequence:</p>${block('index-3', 'LENGTH x n')}<p>The loop reads every item.</p>` +
        `<div class="highlight-py notranslate" id="custom-functions-versin-eval-example"><div class="highlight"><pre>&gt;&gt;&gt; from sympy import Function\n&gt;&gt;&gt; class versin(Function):\n...     pass\n</pre></div></div><p>The class evaluates itself.</p>${block('last', 'GET x 0 y')}</section>`,
    );
    const { headings, markdown } = extractHtml(html, 'https://d.example/command/list.html');
    expect(headings.map(({ anchor }) => anchor)).toEqual(['list', 'example']);
    expect(markdown).toContain('>>> class versin(Function):');
    expect(markdown).toContain('```cmake\nlist(LENGTH x n)\n```');
    expect(markdown).toContain('```cmake\nlist(GET x 0 y)\n```');
  });
});
