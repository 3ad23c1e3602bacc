import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const page = (body: string, head = '<title>Doc Title — Site</title>') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('extractHtml heading anchors', () => {
  it('reads the heading’s own id', () => {
    const { headings } = extractHtml(page('<main><h1 id="top">Top</h1><p>x</p><h2 id="install">Install</h2><p>y</p></main>'), 'https://d.example/a.html');
    expect(headings).toEqual([
      { level: 1, text: 'Top', anchor: 'top' },
      { level: 2, text: 'Install', anchor: 'install' },
    ]);
  });

  it('reads an <a id> inside the heading (Node.js docs) and drops the # glyph from the text', () => {
    const html = page('<main><h2>Class: Buffer<span><a class="mark" href="#buffer_class" id="buffer_class">#</a></span></h2><p>x</p></main>');
    const { headings, markdown } = extractHtml(html, 'https://d.example/buffer.html');
    expect(headings).toEqual([{ level: 2, text: 'Class: Buffer', anchor: 'buffer_class' }]);
    expect(markdown).toContain('## Class: Buffer');
    expect(markdown).not.toContain('#buffer_class');
  });

  it('reads the id of the enclosing section whose first heading it is (Sphinx, DocBook)', () => {
    const html = page(`<div class="body" role="main"><section id="json-usage"><h2>Usage<a class="headerlink" href="#json-usage">¶</a></h2><p>Text long enough to be content.</p>
      <div class="sect1" id="INDEXES-INTRO"><div class="titlepage"><div><div><h3 class="title">11.1. Introduction</h3></div></div></div><p>Body.</p></div></section></div>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/json.html');
    expect(headings).toEqual([
      { level: 2, text: 'Usage', anchor: 'json-usage' },
      { level: 3, text: '11.1. Introduction', anchor: 'INDEXES-INTRO' },
    ]);
    expect(markdown).not.toContain('¶');
  });

  it('cites the id the heading’s own permalink links to, when several ids mark the section (Django’s theme, Python’s index targets)', () => {
    const html = page(`<div class="body" role="main"><div class="section" id="s-the-per-view-cache"><span id="the-per-view-cache"></span><h2>The per-view cache<a class="headerlink" href="#the-per-view-cache">¶</a></h2><p>Cache one view.</p></div>
      <section id="module-uuid"><span id="index-0"></span><h2>uuid — UUID objects<a class="headerlink" href="#module-uuid">¶</a></h2><p>Make UUIDs.</p></section>
      <section id="no-permalink"><span id="label"></span><h2>Without a permalink</h2><p>Text.</p></section>
      <section id="elsewhere"><h2>Permalink elsewhere<a class="headerlink" href="#the-per-view-cache">¶</a></h2><p>Text.</p></section>
      <section id="with-top-link"><span id="top"></span><h2>Back to top <a href="#top">↑</a></h2><p>Text.</p></section></div>`);
    const { headings } = extractHtml(html, 'https://d.example/cache.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['The per-view cache', 'the-per-view-cache'],
      ['uuid — UUID objects', 'module-uuid'],
      // Without a permalink, the section's own id, as before.
      ['Without a permalink', 'no-permalink'],
      // A permalink to an id that does not mark this section is not this section's anchor.
      ['Permalink elsewhere', 'elsewhere'],
      // "↑" goes back to the top: not the heading's own permalink.
      ['Back to top', 'with-top-link'],
    ]);
  });

  it('reads the id of a DocBook reference page whose name follows an empty title box and an index target', () => {
    const html = page(`<div class="body" role="main"><div class="refentry" id="SQL-INSERT"><div class="titlepage"></div><a id="id-1.9.3.152.1" class="indexterm"></a><div class="refnamediv"><h2><span class="refentrytitle">INSERT</span></h2><p>INSERT — create new rows in a table</p></div>
      <div class="refsect1" id="SQL-INSERT-DESCRIPTION"><h2>Description</h2><p>INSERT inserts new rows into a table.</p></div>
      <div class="refsect1" id="OTHER"><div class="titlepage"><img src="x.png" alt="logo"></div><h2>After an image</h2><p>Text.</p></div></div></div>`);
    const { headings } = extractHtml(html, 'https://d.example/sql-insert.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['INSERT', 'SQL-INSERT'],
      ['Description', 'SQL-INSERT-DESCRIPTION'],
      // A box that shows something is content: the heading after it is not the section's first.
      ['After an image', undefined],
    ]);
  });

  it('invents no anchor when the heading is not the first of the enclosing id-bearing element', () => {
    const html = page('<main><section id="s"><h2>First</h2><p>a</p><h3>Second</h3><p>b</p></section></main>');
    const { headings } = extractHtml(html, 'https://d.example/s.html');
    expect(headings).toEqual([
      { level: 2, text: 'First', anchor: 's' },
      { level: 3, text: 'Second' },
    ]);
  });

  it('reads an <a name> that an unclosed paragraph swallowed before the heading (hand-written pages: <p>… <a name><hr><h2>)', () => {
    const html = page('<main><h1>T</h1><p>Text of the section before.\n<a name="temp_db"></a>\n<hr><h2>Temporary Databases</h2><p>Body.</p></main>');
    expect(extractHtml(html, 'https://d.example/a.html').headings).toEqual([
      { level: 1, text: 'T' },
      { level: 2, text: 'Temporary Databases', anchor: 'temp_db' },
    ]);
  });

  it('makes an anchored syntax line an entry of its own, past a hidden title (SQLite: <a name><h style="display:none"><hr><p><b>PRAGMA x;</b>…)', () => {
    const html = page(`<main><h2 id="toc">List of PRAGMAs</h2><p>Intro.</p>
      <a name="pragma_busy_timeout"></a><h _id=pragma_busy_timeout style="display:none"> PRAGMA busy_timeout</h><hr>
      <p><b>PRAGMA busy_timeout;<br>PRAGMA busy_timeout = </b><i>milliseconds</i><b>;</b></p><p>Query or change the busy timeout.</p></main>`);
    const { headings } = extractHtml(html, 'https://d.example/pragma.html');
    expect(headings.at(-1)).toEqual({ level: 3, text: 'PRAGMA busy_timeout; PRAGMA busy_timeout = milliseconds;', anchor: 'pragma_busy_timeout' });
  });

  it('makes an anchored synopsis of several forms an entry of its own, however a stray tag left its keywords, and not a note that starts in bold (SQLite pragma.html)', () => {
    const forms = ['PASSIVE', 'FULL', 'RESTART', 'TRUNCATE'].map((mode) => `<br><b>PRAGMA </b><i>schema.</i><b>wal_checkpoint(${mode});</b>`).join('');
    const html = page(`<main><h2 id="toc">List of PRAGMAs</h2><p>Intro.</p>
      <a name="pragma_quick_check"></a><h _id=pragma_quick_check style="display:none"> PRAGMA quick_check</h><hr>
      <p><b>PRAGMA </b><i>schema.</i><b>quick_check;
      <br>PRAGMA </b><i>schema.</i><b>quick_check(</b><i>N</i><b>)</b>
      <br>PRAGMA </b><i>schema.</i><b>quick_check(</b><i>TABLENAME</i><b>)</b></p><p>Like integrity_check, but faster.</p>
      <a name="pragma_secure_delete"></a><hr><p><b>PRAGMA secure_delete = </b><i>boolean</i>|<b>FAST</b></p><p>Overwrites deleted content.</p>
      <a name="pragma_wal_checkpoint"></a><hr><p><b>PRAGMA </b><i>schema.</i><b>wal_checkpoint;</b>${forms}</p><p>Runs a checkpoint.</p>
      <a name="note"></a><p><b>Note:</b> the pragmas below are deprecated and may be removed in a later release of the library.</p><p>Kept for old code.</p></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/pragma.html');
    expect(headings.map((heading) => heading.anchor)).toEqual(['toc', 'pragma_quick_check', 'pragma_secure_delete', 'pragma_wal_checkpoint']);
    expect(headings[1]?.text).toBe('PRAGMA schema.quick_check; PRAGMA schema.quick_check(N) PRAGMA schema.quick_check(TABLENAME)');
    expect(headings[3]?.text).toMatch(/^PRAGMA schema\.wal_checkpoint; .*wal_checkpoint\(TRUNCATE\);$/);
    expect(markdown).toContain('Note:** the pragmas below');
  });

  it('reads what <meta name="robots"> asks: noindex marks the page, nofollow (or none) leaves no link to follow', () => {
    const body = '<main><h1>Print</h1><p>All chapters. <a href="ch1.html">One</a></p></main>';
    const read = (meta: string) => extractHtml(page(body, `<title>Print</title>${meta}`), 'https://d.example/print.html');
    expect(read('')).toMatchObject({ links: ['https://d.example/ch1.html'] });
    expect(read('').noindex).toBeUndefined();
    expect(read('<meta name="Robots" content="NOINDEX, follow">')).toMatchObject({ noindex: true, links: ['https://d.example/ch1.html'] });
    expect(read('<meta name="robots" content="index,nofollow">')).toMatchObject({ links: [] });
    expect(read('<meta name="robots" content="index,nofollow">').noindex).toBeUndefined();
    expect(read('<meta name="robots" content="none">')).toMatchObject({ noindex: true, links: [] });
    expect(read('<meta name="googlebot" content="noindex">').noindex).toBeUndefined();
  });

  it("marks a generator's listing of the source code (Javadoc, JSDoc, Doxygen, GHC's hyperlinked source, rustdoc), and no page of code that is documentation", () => {
    const listing = (html: string) => extractHtml(html, 'https://d.example/src/a.html').sourceListing === true;
    expect(listing('<html><head><title>Source code</title><meta name="generator" content="javadoc/SourceToHTMLConverter"></head><body class="source-page"><main role="main"><div class="source-container"><pre><span class="source-line-no">001</span><span id="line-1">/* Licensed */</span></pre></div></main></body></html>')).toBe(true);
    expect(listing('<html><head><title>Source code</title></head><body><div class="sourceContainer"><pre><span class="sourceLineNo">001</span>package org.widget;</pre></div></body></html>')).toBe(true);
    expect(listing('<html><head><title>Source code</title></head><body><main role="main"><div class="sourceContainer"><pre><span class="sourceLineNo">001</span><a id="line.1">package org.junit;</a></pre></div></main></body></html>')).toBe(true);
    expect(listing('<html><head><title>JSDoc: Source: lodash.js</title></head><body><div id="main"><h1 class="page-title">Source: lodash.js</h1><section><article><pre class="prettyprint source linenums"><code>function chunk(array, size) {}</code></pre></article></section></div></body></html>')).toBe(true);
    // JSDoc writes every code block of a README or a doc comment as pre.prettyprint.source too.
    expect(listing('<html><head><title>JSDoc: Home</title></head><body><div id="main"><h1 class="page-title">Home</h1><section><article><h1>widget</h1><pre class="prettyprint source lang-js"><code>npm install widget</code></pre></article></section></div></body></html>')).toBe(false);
    // Javadoc's classes in a page of another kind: a footer, a doc comment showing Javadoc's markup.
    expect(listing(page('<main><h1 id="a">Widgets</h1><p>Text.</p></main><footer><div class="source-container"><a href="https://git.example/widget">Source</a></div></footer>', '<title>Widgets</title>'))).toBe(false);
    expect(listing('<html><body class="package-declaration-page"><main role="main"><section class="package-description"><div class="block"><div class="source-container"><pre><span class="source-line-no">001</span>package org.widget;</pre></div></div></section></main></body></html>')).toBe(false);
    expect(listing('<html><head><link rel="stylesheet" href="style.css"><script src="highlight.js"></script></head><body><pre><span class="hs-comment">-- | Module: Data.Aeson</span><span>\n</span><span class="hs-keyword">module</span></pre></body></html>')).toBe(true);
    expect(listing('<html><body class="rustdoc src"><main><pre class="rust"><code>pub struct Vec;</code></pre></main></body></html>')).toBe(true);
    expect(listing('<html><body class="rustdoc source"><main><pre class="rust"><code>pub fn shuffle() {}</code></pre></main></body></html>')).toBe(true);
    const doxygen = (contents: string) => `<html><head><meta name="generator" content="Doxygen 1.9.4"><title>libssh: agent.h Source File</title></head><body><div class="header"><div class="headertitle"><div class="title">agent.h</div></div></div><div class="contents">${contents}</div></body></html>`;
    expect(listing(doxygen('<div class="fragment"><div class="line"><a id="l00001" name="l00001"></a><span class="lineno">    1</span><span class="comment">/* agent */</span></div></div>'))).toBe(true);
    expect(listing(doxygen('<a href="agent_8h.html">Go to the documentation of this file.</a><div class="fragment"><div class="line"><a id="l00001" name="l00001"></a><span class="lineno">    1</span>#include &lt;stdio.h&gt;</div></div>'))).toBe(true);
    // Doxygen before 1.9.2 names its line targets without ids.
    expect(listing(doxygen('<div class="fragment"><div class="line"><a name="l00001"></a><span class="lineno">    1</span><span class="comment">/* hwloc */</span></div></div>'))).toBe(true);
    // Code that is the documentation: an RFC in one <pre>, an example, JSDoc's own entries.
    expect(listing('<html><head><title>RFC 9110</title></head><body><pre>Internet Engineering Task Force (IETF)\n\n1.  Introduction</pre></body></html>')).toBe(false);
    expect(listing(doxygen('<div class="textblock"><p>Connects and runs a command.</p></div><div class="fragment"><div class="line"><span class="lineno">    1</span>ssh_connect(session);</div></div>'))).toBe(false);
    expect(listing(doxygen('<div class="fragment"><div class="line"><span class="lineno">    1</span>ssh_connect(session);</div></div>'))).toBe(false);
    expect(listing(page('<main><h1 id="ex">Example</h1><pre><code class="language-c">int main(void) { return 0; }</code></pre></main>', '<title>Example</title>'))).toBe(false);
    expect(listing('<html><head><title>JSDoc: Class: _</title></head><body><div id="main"><h1 class="page-title">Class: _</h1><pre class="prettyprint"><code>_.chunk([1, 2, 3], 2);</code></pre></div></body></html>')).toBe(false);
  });

  it('reads a line break in a generator\'s title element as a space (Javadoc\'s "Uses of Class<br>org.widget.Pair")', () => {
    const html = page(`<div class="header"><h1 title="Uses of Class org.widget.Pair" class="title">Uses of Class<br>org.widget.Pair</h1></div><main role="main"><section class="class-uses"><h2>Uses of Pair in org.widget</h2><p>Methods that return Pair.</p></section></main>`, '<title>Uses of Class org.widget.Pair</title><meta name="generator" content="javadoc/ClassUseWriter">');
    expect(extractHtml(html, 'https://d.example/class-use/Pair.html').title).toBe('Uses of Class org.widget.Pair');
  });

  it('keeps the parts of a rustdoc item\'s doc ("Examples", "Panics") in the item\'s passage, and the page\'s own description\'s sections as sections', () => {
    const html = page(`<div id="rustdoc-vars" data-root-path="../"></div><section id="main-content" class="content"><h1 class="fqn">Struct <a class="struct" href="#">BTreeMap</a></h1>
      <details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>An ordered map.</p><h2 id="examples"><a href="#examples">Examples</a></h2><pre><code>let map = BTreeMap::new();</code></pre></div></details>
      <h2 id="implementations" class="small-section-header">Implementations</h2><div id="implementations-list"><details class="toggle implementors-toggle" open><summary><section id="impl-2" class="impl"><h3 class="code-header">impl&lt;K, V&gt; BTreeMap&lt;K, V&gt;</h3></section></summary><div class="impl-items">
      <details class="toggle method-toggle" open><summary><section id="method.range" class="method"><h4 class="code-header">pub fn range(&amp;self, range: R) -&gt; Range&lt;'_, K, V&gt;</h4></section></summary><div class="docblock"><p>Constructs a double-ended iterator over a sub-range of elements in the map.</p><h5 id="panics"><a href="#panics">Panics</a></h5><p>Panics if range start &gt; end.</p><h5 id="examples-20"><a href="#examples-20">Examples</a></h5><pre><code>for (key, value) in map.range(4..) {}</code></pre></div></details>
      </div></details></div></section>`, '<title>BTreeMap in std::collections - Rust</title><meta name="generator" content="rustdoc">');
    const { headings, markdown } = extractHtml(html, 'https://doc.example/std/collections/struct.BTreeMap.html');
    expect(headings.map((heading) => heading.anchor)).toEqual([undefined, 'examples', 'implementations', 'impl-2', 'method.range']);
    expect(markdown).toMatch(/#### pub fn range[^\n]*\n\nConstructs a double-ended iterator[^\n]*\n\nPanics:\n\nPanics if range start > end\.\n\nExamples:\n\n```[^\n]*\nfor \(key, value\) in map\.range\(4\.\.\) \{\}/);
  });

  it('gives a rustdoc item with a stability badge its own anchor, the badge as its first line, and drops Run links, notable-traits tooltips, blanket impls and trait summaries ("Read more")', () => {
    const item = (id: string, signature: string, badge: string, doc: string) =>
      `<details class="rustdoc-toggle method-toggle" open><summary><section id="${id}" class="method has-srclink"><span class="rightside"><a class="srclink" href="../src/map.rs.html#1">source</a></span><a href="#${id}" class="anchor"></a><h4 class="code-header">${signature}</h4></section>${badge}</summary><div class="docblock"><p>${doc}</p><div class="example-wrap"><pre class="rust rust-example-rendered"><code>map.pop_first();</code></pre><a class="test-arrow" target="_blank" href="https://play.rust-lang.org/?code=${'%23!%5Ballow(unused)%5D'.repeat(40)}">Run</a></div></div></details>`;
    const html = page(`<div id="rustdoc-vars" data-root-path="../"></div><section id="main-content" class="content"><h1 class="fqn">Struct <a class="struct" href="#">BTreeMap</a></h1>
      <h2 id="implementations" class="small-section-header">Implementations</h2><div id="implementations-list"><details class="implementors-toggle" open><summary><section id="impl-2" class="impl"><h3 class="code-header">impl&lt;K, V&gt; BTreeMap&lt;K, V&gt;</h3></section></summary><div class="impl-items">
      ${item('method.first_key_value', 'pub fn first_key_value(&amp;self) -&gt; Option&lt;(&amp;K, &amp;V)&gt;<span class="notable-traits" data-ty="Option"><span class="notable-traits-tooltip">ⓘ<div class="notable-traits-tooltiptext"><span class="docblock">Notable traits for Option</span></div></span></span>', '', 'Returns the first key-value pair in the map.')}
      ${item('method.pop_first', 'pub fn pop_first(&amp;mut self) -&gt; Option&lt;(K, V)&gt;', '<span class="item-info"><div class="stab unstable"><span class="emoji">🔬</span> This is a nightly-only experimental API.</div></span>', 'Removes and returns the first element in the map.')}
      </div></details></div>
      <h2 id="trait-implementations" class="small-section-header">Trait Implementations</h2><div id="trait-implementations-list"><details class="implementors-toggle" open><summary><section id="impl-Iterator" class="impl"><h3 class="code-header">impl Iterator for Iter</h3></section></summary><div class="impl-items">
      <details class="method-toggle" open><summary><section id="method.next" class="method trait-impl"><h4 class="code-header">fn next(&amp;mut self)</h4></section></summary><div class="docblock"><p>Advances the iterator and returns the next value. <a href="../iter/trait.Iterator.html#method.next">Read more</a></p></div></details>
      <details class="method-toggle" open><summary><section id="method.size_hint" class="method trait-impl"><h4 class="code-header">fn size_hint(&amp;self)</h4></section></summary><div class="docblock"><p>Exact: the map knows its length.</p></div></details>
      </div></details></div>
      <h2 id="blanket-implementations" class="small-section-header">Blanket Implementations</h2><div id="blanket-implementations-list"><details><summary><section id="impl-Any-for-BTreeMap" class="impl"><h3 class="code-header">impl&lt;T&gt; Any for T</h3></section></summary><div class="docblock"><p>Gets the TypeId of self. Read more</p></div></details></div></section>`, '<title>BTreeMap in std::collections - Rust</title><meta name="generator" content="rustdoc">');
    const { headings, markdown } = extractHtml(html, 'https://doc.example/std/collections/struct.BTreeMap.html');
    expect(headings.map((heading) => [heading.anchor, heading.text])).toEqual([
      [undefined, 'Struct BTreeMap'],
      ['implementations', 'Implementations'],
      ['impl-2', 'impl<K, V> BTreeMap<K, V>'],
      ['method.first_key_value', 'pub fn first_key_value(&self) -> Option<(&K, &V)>'],
      ['method.pop_first', 'pub fn pop_first(&mut self) -> Option<(K, V)>'],
      ['trait-implementations', 'Trait Implementations'],
      ['impl-Iterator', 'impl Iterator for Iter'],
      ['method.size_hint', 'fn size_hint(&self)'],
    ]);
    expect(markdown).toContain('#### pub fn pop\\_first(\\&mut self) -> Option<(K, V)>\n\n🔬 This is a nightly-only experimental API.\n\nRemoves and returns the first element in the map.');
    expect(markdown).not.toMatch(/play\.rust-lang|Notable traits|ⓘ|Any for T|Blanket|Read more/);
  });

  it('gives back the headings a list item outside any list swallowed (SQLite: <p><li>…</ul></p>), each a section at its anchor, as a real list\'s step heading is', () => {
    const html = page(`<h1>C API</h1><a name="fcntl"></a><h2>File Control Opcodes</h2>
      <p><li><a name="resetcache"></a>Purges the page cache.</ul></p>
      <hr><a name="constraint_eq"></a><h2>Constraint Operator Codes</h2><blockquote><pre>#define EQ 2</pre></blockquote><p>These macros define the allowed values.</p>
      <hr><a name="iocap"></a><h2>Device Characteristics</h2><p>Flags of the device.</p>
      <ol><li><h3 id="step-1">Install</h3><p>Run the installer.</p></li></ol>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/capi3ref.html');
    expect(headings.map(({ anchor }) => anchor)).toEqual([undefined, 'fcntl', 'constraint_eq', 'iocap', 'step-1']);
    expect(markdown).toMatch(/^## Constraint Operator Codes$/m);
    expect(markdown).toMatch(/^## Device Characteristics$/m);
    expect(markdown).toMatch(/^### Install$/m);
  });

  it('leaves the items of a real list where they are, however deeply a framework wraps them (<ul><div><li><h3>)', () => {
    const html = page(`<h1>Steps</h1><ul><div class="wrap"><li><h3 id="install">Install</h3><p>Run it.</p></li><li><h3 id="configure">Configure</h3><p>Edit it.</p></li></div></ul>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/steps.html');
    expect(headings.map(({ anchor }) => anchor)).toEqual([undefined, 'install', 'configure']);
    expect(markdown).toMatch(/^- +### Install\n\n +Run it\.\n\n- +### Configure/m);
  });

  it('makes each line of a preformatted document that holds an anchor target a section headed by that line, anchored at its first target (Vim help as HTML)', () => {
    const html = page(`<h1>Vim documentation: change</h1><pre>
This file describes commands that delete or change text.

1. Deleting text					*<a name="deleting"></a><b>deleting</b>* *<a name="E470"></a><b>E470</b>*

["x]x			Delete [count] characters under and after the cursor.
			Does the same as "dl".

							*<a name="X"></a><b>X</b>* *<a name="dh"></a><b>dh</b>*
["x]X			Delete [count] characters before the cursor.
</pre>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/change.html');
    expect(headings.map(({ level, anchor }) => [level, anchor])).toEqual([[1, undefined], [2, 'deleting'], [2, 'X']]);
    expect(headings[1]?.text).toBe('1. Deleting text *deleting* *E470*');
    expect(markdown).toContain('## 1. Deleting text');
    // The text under each line stays preformatted, in order, and nothing is lost.
    expect(markdown.indexOf('This file describes')).toBeLessThan(markdown.indexOf('## 1. Deleting'));
    expect(markdown).toMatch(/```\n\["x\]x\t+Delete \[count\] characters under and after the cursor\.\n\t+Does the same as "dl"\.\n```/);
    expect(markdown).toContain('["x]X');
  });

  it('anchors a preformatted line that names a command abbreviated and in full at the full name, and any other line at its first target (Vim\'s *:vim* *:vimgrep*)', () => {
    const target = (name: string) => `*<a name="${name}"></a><b>${name}</b>*`;
    const html = page(`<h1>Vim documentation: quickfix</h1><pre>
					${target(':vim')} ${target(':vimgrep')} ${target('E682')}
:vim[grep][!] /{pattern}/ {file} ...
					${target(':s')} ${target(':su')} ${target(':substitute')}
:s[ubstitute]		Substitute.
			Replace matches of a pattern.
4. Initialization	${target('initialization')} ${target('startup')}
At startup, Vim reads the vimrc.
					${target('Job')} ${target('Jobs')}
A job is a process.
					${target('ref')} ${target('ref-manual')}
The reference manual.
</pre>`);
    const { headings } = extractHtml(html, 'https://d.example/quickfix.html');
    // Not a fuller name: another word (startup), a plural (Jobs), a name with more than letters added (ref-manual).
    expect(headings.map(({ anchor }) => anchor)).toEqual([undefined, ':vimgrep', ':substitute', 'initialization', 'Job', 'ref']);
    expect(headings[1]?.text).toBe('*:vim* *:vimgrep* *E682*');
  });

  it('heads a preformatted document\'s sections one level below the page\'s own heading before it, however many such documents follow each other', () => {
    const target = (name: string) => `*<a name="${name}"></a><b>${name}</b>*`;
    const html = page(`<h1>Doc</h1><h3>Sub</h3><pre>A ${target('a1')}\nx\nB ${target('b1')}\ny</pre><pre>C ${target('c1')}\nz\nD ${target('d1')}\nw</pre><h4>Four</h4><pre>E ${target('e1')}\nv\nF ${target('f1')}\nu</pre>`);
    const { headings } = extractHtml(html, 'https://d.example/doc.html');
    expect(headings.map(({ level, anchor }) => `${level}:${anchor ?? ''}`)).toEqual(['1:', '3:', '4:a1', '4:b1', '4:c1', '4:d1', '4:', '5:e1', '5:f1']);
  });

  it('leaves as one block a listing whose lines are numbered by targets (Javadoc), one with callout marks (DocBook), and a code block with one target', () => {
    const numbered = Array.from({ length: 6 }, (_, index) => `<a name="l${index + 1}"></a>line ${index + 1} of code`).join('\n');
    const javadoc = ['package junit.framework;', '', 'public interface Test {', '', '    int countTestCases();', '}'].map((line, index) => `<span class="sourceLineNo">00${index + 1}</span><a id="line.${index + 1}">${line}</a>`).join('\n');
    const callouts = `BEGIN\n  RAISE EXCEPTION 'busy'; -- <span id="co.raise"></span>(1)\nEXCEPTION\n  WHEN unique_violation THEN -- <span id="co.exception"></span>(2)\nEND;`;
    const html = page(`<h1>Source</h1><pre>${numbered}</pre><pre>${javadoc}</pre><pre>${callouts}</pre><h2 id="ex">Example</h2><pre><a name="only"></a>x = 1\ny = 2\nz = 3</pre>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/source.html');
    expect(headings.map(({ anchor }) => anchor)).toEqual([undefined, 'ex']);
    expect(markdown).toContain('line 1 of code\nline 2 of code');
    expect(markdown).toContain('public interface Test {\n');
    expect(markdown).toContain("RAISE EXCEPTION 'busy'; -- (1)\nEXCEPTION");
    expect(markdown).toContain('x = 1\ny = 2\nz = 3');
  });

  it('makes an anchored bold question of two sentences an entry of its own, not text of the question before (SQLite FAQ: <a name="q24"><p><b>(24) …</b>)', () => {
    const question = '(24) My WHERE clause expression <tt>column1="column1"</tt> does not work. It causes every row of the table to be returned, not just the rows where column1 has the value "column1".';
    const html = page(`<main><h1>FAQ</h1><a name="q23"></a><p><b>(23) I get a compiler error.</b></p><blockquote>Rebuild from the canonical sources.</blockquote>
      <a name="q24"></a><p><b>${question}</b></p><blockquote>Use single-quotes, not double-quotes, around string literals in SQL.</blockquote>
      <p><b>${'A bold paragraph that is no heading because it has no anchor of its own, however long it is. '.repeat(2)}</b></p><p>After.</p>
      <div id="note-1"><p><strong>${'A long bold warning in an anchored wrapper is a warning, not the heading of what follows it. '.repeat(2)}</strong></p><p>More.</p></div>
      <p><strong>${'A long bold line that holds a footnote target is no heading either, though the target is an anchor. '.repeat(2)}<a id="fnref1"></a></strong></p><p>Text.</p></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/faq.html');
    expect(headings.map((heading) => heading.anchor)).toEqual([undefined, 'q23', 'q24']);
    expect(headings.at(-1)?.text).toMatch(/^\(24\) My WHERE clause .* has the value "column1"\.$/);
    expect(markdown.indexOf('Use single-quotes')).toBeGreaterThan(markdown.indexOf('(24) My WHERE'));
  });

  it('does not take an <a id> ending the paragraph before a heading for its anchor (a footnote’s back-reference)', () => {
    const html = page('<main><h2 id="one">One</h2><p>Text.<a id="fnref1"></a></p><h3>Next</h3><p>Body.</p></main>');
    expect(extractHtml(html, 'https://d.example/a.html').headings).toEqual([
      { level: 2, text: 'One', anchor: 'one' },
      { level: 3, text: 'Next' },
    ]);
  });

  it('does not take an index target ending the paragraph before a term for the term’s anchor (texinfo’s <span id="index-…">)', () => {
    const html = page('<main><h2 id="named">Named objects</h2><p>These macros <span id="index-MAYBE_005fSHARED"></span></p><dl><dt><span><code>MAYBE_SHARED(x)</code></span></dt><dd>Whether shared.</dd></dl></main>');
    expect(extractHtml(html, 'https://d.example/r-exts.html').headings).toEqual([{ level: 2, text: 'Named objects', anchor: 'named' }]);
  });

  it('lists every id and a[name] of the page as a valid anchor, chrome included', () => {
    const html = page('<nav id="sidebar"><a href="/x">x</a></nav><main><h1>T</h1><p id="para">p</p><a name="legacy"></a></main>');
    expect(extractHtml(html, 'https://d.example/').anchors.sort()).toEqual(['legacy', 'para', 'sidebar']);
  });

  it("cites the page's first heading at the page, not at the id of the element that holds the whole content (YARD's div#content, rustdoc's section#main-content)", () => {
    const html = page(`<div id="content"><h1>Class: Rack::Static</h1><p>Serves static files.</p><h2 id="details">Details</h2><p>More.</p></div><div id="footer"><a href="/">Home</a></div>`);
    const { headings } = extractHtml(html, 'https://d.example/Rack/Static.html');
    expect(headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['Class: Rack::Static', undefined],
      ['Details', 'details'],
    ]);
  });
});

describe('extractHtml main content', () => {
  it('keeps the documentation body and drops nav, header, footer and DocBook prev/next chrome', () => {
    const html = page(`<header><a href="/">Site banner</a></header><nav><a href="/a">Sidebar link</a></nav>
      <div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td></tr></table></div>
      <main><h1>Real Title</h1><p>The real content of the page.</p></main>
      <div class="navfooter"><a href="next.html">Next chapter</a></div><footer>Copyright Corp</footer>`);
    const { markdown, title } = extractHtml(html, 'https://d.example/p.html');
    expect(title).toBe('Real Title');
    expect(markdown).toContain('The real content of the page.');
    for (const chrome of ['Site banner', 'Sidebar link', 'Prev', 'Next chapter', 'Copyright Corp']) expect(markdown).not.toContain(chrome);
  });

  it('falls back to <title> when there is no h1, and collects every link for the crawler', () => {
    const html = page('<nav><a href="../other.html#frag">o</a></nav><div><h2>Sub</h2><p>Body</p><a href="mailto:x@y.z">m</a></div>', '<title>From Title</title>');
    const result = extractHtml(html, 'https://d.example/docs/p.html');
    expect(result.title).toBe('From Title');
    expect(result.links).toEqual(['https://d.example/other.html']);
  });

  it.each([
    ['Hash Tables: GLib Reference Manual', 'Hash Tables', 'GLib Reference Manual'],
    ['libssh: The SSH library', 'libssh: The SSH library', undefined],
    ['Tutorial: First steps', 'Tutorial: First steps', undefined],
    ['GTK+ 3 Reference Manual: GtkWindow', 'GTK+ 3 Reference Manual: GtkWindow', undefined],
    ['Installation: how to use this guide', 'Installation: how to use this guide', undefined],
    ['Eigen: Quick reference guide', 'Eigen: Quick reference guide', undefined],
  ])('reads a site after a colon in <title> only where it names a book (gtk-doc): %s', (title, expected, site) => {
    const result = extractHtml(page('<div><h2>Sub</h2><p>Body</p></div>', `<title>${title}</title>`), 'https://d.example/docs/p.html');
    expect([result.title, result.siteName]).toEqual([expected, site]);
  });

  it.each([
    ['Gtk &ndash; 4.0: Migrating from GTK 3.x to GTK 4', 'Migrating from GTK 3.x to GTK 4', 'Gtk 4.0'],
    ['Pango &ndash; 1.0: Rendering with Pango', 'Rendering with Pango', 'Pango 1.0'],
    ['Gtk &ndash; 4.0', 'Gtk', 'Gtk 4.0'],
  ])('reads the page after "site – version:" in <title> (gi-docgen): %s', (title, expected, site) => {
    const result = extractHtml(page('<div><h2>Sub</h2><p>Body</p></div>', `<title>${title}</title>`), 'https://d.example/docs/p.html');
    expect([result.title, result.siteName]).toEqual([expected, site]);
  });

  it('reads the manual in parentheses after a Texinfo node\'s name as the site, and its version', () => {
    const html = `<html><head><meta name="Generator" content="makeinfo"><title>Basic Vectorization (GNU Octave (version 7.3.0))</title></head><body><div class="section" id="Basic-Vectorization"><h3 class="section">19.1 Basic Vectorization</h3><p>Replace loops.</p></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/Basic-Vectorization.html');
    expect([result.title, result.siteName, result.siteVersion]).toEqual(['19.1 Basic Vectorization', 'GNU Octave (version 7.3.0)', '7.3.0']);
    const glibc = extractHtml(html.replace('Basic Vectorization (GNU Octave (version 7.3.0))', 'Top (The GNU C Library)'), 'https://d.example/index.html');
    expect(glibc.siteName).toBe('The GNU C Library');
    const plain = extractHtml(page('<div><h2>Sub</h2><p>Body</p></div>', '<title>Installation (Windows)</title>'), 'https://d.example/docs/p.html');
    expect([plain.title, plain.siteName]).toEqual(['Installation (Windows)', undefined]);
  });

  it('reads an empty separator the style sheet draws as a space between the words it separates (gi-docgen)', () => {
    const html = page('<section id="main"><h1><a href="index.html">Gtk</a><span class="sep"></span><a href="class.Widget.html">Widget</a><span class="sep"></span>grab_focus</h1><p>Causes widget to have the keyboard focus.</p><p>One<span class="x"></span>word.</p></section>', '<title>Gtk.Widget.grab_focus</title>');
    const { title, headings, markdown } = extractHtml(html, 'https://d.example/method.Widget.grab_focus.html');
    expect(headings[0]?.text).toBe('Gtk Widget grab_focus');
    expect(title).toBe('Gtk.Widget.grab_focus');
    expect(markdown).toContain('Oneword.');
  });

  it.each([
    ['<h1>Class Type</h1>', 'petsc4py.PETSc.KSP.Type', 'petsc4py.PETSc.KSP.Type'],
    ['<h1><a href="index.html">Gtk</a><span class="sep"></span><a href="class.Window.html">Window</a>:hide-on-close</h1>', 'Gtk.Window:hide-on-close', 'Gtk.Window:hide-on-close'],
    ['<h1><a href="index.html">Gtk</a><span class="sep"></span><a href="class.Entry.html">Entry</a>::activate</h1>', 'Gtk.Entry::activate', 'Gtk.Entry::activate'],
    ['<h1>Class Type</h1>', 'Tutorial: Type', 'Class Type'],
  ])('titles the page by the qualified name in <title> that its h1 ends with: %s, <title> %s', (h1, documentTitle, expected) => {
    const { title } = extractHtml(page(`<main>${h1}<p>Body.</p></main>`, `<title>${documentTitle}</title>`), 'https://d.example/p.html');
    expect(title).toBe(expected);
  });

  it('keeps an anchored h1 that repeats the part of <title> with a site word as the page title and heading ("Writing Your Docs - MkDocs")', () => {
    const html = page('<div role="main"><h1 id="writing-your-docs">Writing your docs</h1><p>How to lay out your files.</p><h2 id="file-layout">File layout</h2><p>Body.</p></div>', '<title>Writing Your Docs - MkDocs</title>');
    const { title, headings, markdown } = extractHtml(html, 'https://d.example/user-guide/writing-your-docs.html');
    expect(title).toBe('Writing your docs');
    expect(headings[0]).toEqual({ level: 1, text: 'Writing your docs', anchor: 'writing-your-docs' });
    expect(markdown).toContain('Writing your docs');
  });

  it('still drops a banner h1 without an anchor that only names the site', () => {
    const html = page('<main><h1>Widgetlib documentation</h1><h2 id="install">Install</h2><p>Body.</p></main>', '<title>Install — Widgetlib documentation</title>');
    const { title, headings } = extractHtml(html, 'https://d.example/install.html');
    expect(title).toBe('Install');
    expect(headings.map((heading) => heading.text)).toEqual(['Install']);
  });

  it('keeps the first h1 when the page has several and <title> names only the site or nothing', () => {
    for (const head of ['<title>Documentation</title>', '<title>Widget Manual</title>']) {
      const html = page('<main><h1 id="a">Installing</h1><p>A.</p><h1 id="b">Upgrading</h1><p>B.</p></main>', head);
      expect(extractHtml(html, 'https://d.example/install.html').title).toBe('Installing');
    }
  });

  it('takes <title> when the page has several h1s: they are its sections, not its name', () => {
    const html = page('<main><h1 id="overview"><span>1. </span>Overview</h1><p>A.</p><h1 id="syntax"><span>2. </span>Syntax</h1><p>B.</p></main>', '<title>SQLite FTS5 Extension</title>');
    const { title, headings } = extractHtml(html, 'https://d.example/fts5.html');
    expect(title).toBe('SQLite FTS5 Extension');
    expect(headings.map((heading) => heading.anchor)).toEqual(['overview', 'syntax']);
  });

  it('turns code into fenced blocks with their language, tables into GFM, links absolute, images into alt text', () => {
    const html = page(`<main><h1>T</h1>
      <pre><code class="language-sql">CREATE INDEX i ON t (c);</code></pre>
      <div class="highlight-python3 notranslate"><div class="highlight"><pre>import json
print(json.dumps({}))</pre></div></div>
      <table><thead><tr><th>Name</th><th>Default</th></tr></thead><tbody><tr><td><code>timeout</code></td><td>30 | s</td></tr></tbody></table>
      <p>See <a href="../ref/api.html#connect">connect</a>. <img src="x.png" alt="diagram of flow"></p></main>`);
    const { markdown } = extractHtml(html, 'https://d.example/docs/guide/p.html');
    expect(markdown).toContain('```sql\nCREATE INDEX i ON t (c);\n```');
    expect(markdown).toContain('```python\nimport json\nprint(json.dumps({}))\n```');
    expect(markdown).toContain('| Name | Default |\n| --- | --- |\n| `timeout` | 30 \\| s |');
    expect(markdown).toContain('[connect](https://d.example/docs/ref/api.html#connect)');
    expect(markdown).toContain('diagram of flow');
  });

  it('uses a fence longer than any backtick run inside the code', () => {
    const html = page('<main><h1>T</h1><pre>a ``` b</pre></main>');
    expect(extractHtml(html, 'https://d.example/').markdown).toContain('````\na ``` b\n````');
  });
});

describe('extractHtml links', () => {
  it('drops link tooltips, which only repeat text and cost tokens', () => {
    const html = page('<main><h1>T</h1><p>Use <a href="json.html#module-json" title="json: Encode and decode the JSON format.">json</a>.</p></main>');
    expect(extractHtml(html, 'https://d.example/lib/x.html').markdown).toContain('Use [json](https://d.example/lib/json.html#module-json).');
  });
});

describe('extractHtml API entries', () => {
  it('makes each <dt id> API entry a heading below its section, nested methods one level deeper', () => {
    const html = page(`<div class="body" role="main"><section id="json"><h1>json</h1><section id="basic-usage"><h2>Basic Usage</h2>
      <dl class="py function"><dt class="sig" id="json.dumps"><span class="sig-prename">json.</span><span class="sig-name">dumps</span>(<em>obj</em>)<a class="headerlink" href="#json.dumps">¶</a></dt>
      <dd><p>Serialize <em>obj</em> to a JSON formatted str.</p></dd></dl>
      <dl class="py class"><dt id="json.JSONDecoder">class json.JSONDecoder</dt><dd><p>Simple decoder.</p>
        <dl class="py method"><dt id="json.JSONDecoder.decode">decode(s)</dt><dd><p>Return the Python representation.</p></dd></dl></dd></dl>
      </section></section></div>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/library/json.html');
    expect(headings).toEqual([
      { level: 1, text: 'json', anchor: 'json' },
      { level: 2, text: 'Basic Usage', anchor: 'basic-usage' },
      { level: 3, text: 'json.dumps(obj)', anchor: 'json.dumps' },
      { level: 3, text: 'class json.JSONDecoder', anchor: 'json.JSONDecoder' },
      { level: 4, text: 'decode(s)', anchor: 'json.JSONDecoder.decode' },
    ]);
    expect(markdown).toContain('### json.dumps(obj)\n\nSerialize *obj* to a JSON formatted str.');
  });

  it('makes consecutive terms of one namespace that share a description one entry, at the first name (operator.xor / operator.__xor__)', () => {
    const html = page(`<main><h1 id="operator">operator</h1><dl class="py function"><dt class="sig" id="operator.xor">operator.xor(a, b)</dt>
      <dt class="sig" id="operator.__xor__">operator.__xor__(a, b)</dt><dd><p>Return the bitwise exclusive or of a and b.</p></dd></dl></main>`);
    const { headings, markdown, anchors } = extractHtml(html, 'https://d.example/library/operator.html');
    expect(headings.at(-1)).toEqual({ level: 2, text: 'operator.xor(a, b); operator.__xor__(a, b)', anchor: 'operator.xor' });
    expect(markdown).toContain('Return the bitwise exclusive or of a and b.');
    expect(anchors).toContain('operator.__xor__');
  });

  it("makes pod2html's forms of one function, each with an empty description, one entry at the first form, where the page's links point (chomp VARIABLE / chomp( LIST ) / chomp)", () => {
    const html = page(`<main><h1 id="NAME">perlfunc</h1><dl><dt id="chomp-VARIABLE">chomp VARIABLE     </dt>\n<dd>\n\n</dd>\n<dt id="chomp-LIST">chomp( LIST )</dt>\n<dd>\n\n</dd>\n<dt id="chomp">chomp</dt>\n<dd>\n<p>This safer version of chop removes any trailing newline.</p></dd>
      <dt id="do-BLOCK">do BLOCK</dt><dd><p>Not really a function.</p></dd><dt id="do-EXPR">do EXPR</dt><dd><p>Uses the value of EXPR as a filename.</p></dd>
      <dt id="undef-EXPR">undef EXPR</dt><dd></dd><dt id="unlink-LIST">unlink LIST</dt><dd><p>Deletes a list of files.</p></dd>
      <dt id="a-lookahead-assertion">a lookahead assertion;</dt><dd></dd><dt id="a-name-in-angle-brackets">a name in angle brackets</dt><dd><p>Both start a group.</p></dd></dl></main>`);
    const { headings, markdown, anchors } = extractHtml(html, 'https://d.example/perlfunc.html');
    expect(headings.slice(1).map(({ text, anchor }) => [text, anchor])).toEqual([
      ['chomp VARIABLE; chomp( LIST ); chomp', 'chomp-VARIABLE'],
      ['do BLOCK', 'do-BLOCK'],
      ['do EXPR', 'do-EXPR'],
      // Another name after an empty description is another entry.
      ['undef EXPR', 'undef-EXPR'],
      ['unlink LIST', 'unlink-LIST'],
      // Items of prose that start with one word are no forms of a signature.
      ['a lookahead assertion;', 'a-lookahead-assertion'],
      ['a name in angle brackets', 'a-name-in-angle-brackets'],
    ]);
    expect(markdown).toContain('## chomp VARIABLE; chomp( LIST ); chomp\n\nThis safer version of chop');
    expect(anchors).toEqual(expect.arrayContaining(['chomp-LIST', 'chomp']));
  });

  it('makes the lines of a Texinfo definition block one entry, at the first line', () => {
    const html = page(`<main><h1 id="Manipulating-Structures">Manipulating Structures</h1><dl class="def">
      <dt id="index-isfield"><span><strong>isfield</strong> <em>(x, "name")</em></span></dt>
      <dt id="index-isfield-1"><span><strong>isfield</strong> <em>(x, name)</em></span></dt>
      <dd><p>Return true if x is a structure and it includes an element named name.</p></dd></dl></main>`);
    const { headings, anchors } = extractHtml(html, 'https://d.example/Manipulating-Structures.html');
    expect(headings.at(-1)).toEqual({ level: 2, text: 'isfield (x, "name"); isfield (x, name)', anchor: 'index-isfield' });
    expect(anchors).toContain('index-isfield-1');
  });

  it('keeps the terms of an index apart: they are not names of one namespace', () => {
    const html = page(`<main><h1 id="index">Index</h1><dl><dt id="ientry-1">abs, Mathematical Functions</dt><dt id="ientry-2">ACL, Privileges</dt><dd><p>see also GRANT</p></dd></dl></main>`);
    const { headings } = extractHtml(html, 'https://d.example/bookindex.html');
    expect(headings.map((heading) => heading.anchor)).toEqual(['index', 'ientry-1', 'ientry-2']);
  });

  it('names an anchored summary row by its linked name, not by the type in the cell before it (Javadoc)', () => {
    const html = page(`<main><h1>Class Assert</h1><section id="method.summary"><h2>Method Summary</h2><table>
      <tr><th>Modifier and Type</th><th>Method</th><th>Description</th></tr>
      <tr id="i0"><td class="colFirst"><code>static void</code></td><th class="colSecond" scope="row"><code><span class="memberNameLink"><a href="#assertTrue(boolean)">assertTrue</a></span>(boolean condition)</code></th><td class="colLast"><div class="block">Asserts that a condition is true.</div></td></tr>
      </table></section></main>`);
    const { headings } = extractHtml(html, 'https://d.example/org/junit/Assert.html');
    expect(headings.at(-1)).toEqual({ level: 3, text: 'assertTrue(boolean condition)', anchor: 'i0' });
  });
});

describe('extractHtml, where an entry ends', () => {
  it('gives the prose after a list of entries back to the section (repeated, continues: true), not to the last entry', () => {
    const html = page(`<div class="body" role="main"><section id="fd-ops"><h2>File Descriptor Operations</h2><p>These functions operate on descriptors.</p>
      <dl class="py function"><dt id="os.close">os.close(fd)</dt><dd><p>Close file descriptor fd.</p></dd></dl>
      <dl class="py function"><dt id="os.open">os.open(path, flags)</dt><dd><p>Open the file path.</p></dd></dl>
      <p>The following constants are options for the flags parameter.</p>
      </section><section id="files"><h2>Files and Directories</h2><p>Other text.</p></section></div>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/library/os.html');
    expect(headings).toEqual([
      { level: 2, text: 'File Descriptor Operations', anchor: 'fd-ops' },
      { level: 3, text: 'os.close(fd)', anchor: 'os.close' },
      { level: 3, text: 'os.open(path, flags)', anchor: 'os.open' },
      { level: 2, text: 'File Descriptor Operations', anchor: 'fd-ops', continues: true },
      { level: 2, text: 'Files and Directories', anchor: 'files' },
    ]);
    expect(markdown).toContain('### os.open(path, flags)\n\nOpen the file path.\n\n## File Descriptor Operations\n\nThe following constants are options for the flags parameter.');
  });

  it('gives the text after a quoted note with a heading of its own back to the section around the note (mdBook: <blockquote><h3>…</h3>…</blockquote>)', () => {
    const html = page(`<main><h1 id="panic">Unrecoverable Errors with panic!</h1><p>Intro.</p>
      <blockquote><h3 id="unwinding">Unwinding the Stack or Aborting</h3><p>A panic unwinds by default.</p></blockquote>
      <p>Let's try calling panic! in a simple program.</p>
      <blockquote><p>Note: a quote without a heading stays a quote.</p></blockquote>
      <h2 id="backtrace">Using a panic! Backtrace</h2><blockquote><h3 id="last">A note that ends the page</h3><p>Nothing after it.</p></blockquote></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/ch09.html');
    expect(headings).toEqual([
      { level: 1, text: 'Unrecoverable Errors with panic!', anchor: 'panic' },
      { level: 3, text: 'Unwinding the Stack or Aborting', anchor: 'unwinding' },
      { level: 1, text: 'Unrecoverable Errors with panic!', anchor: 'panic', continues: true },
      { level: 2, text: 'Using a panic! Backtrace', anchor: 'backtrace' },
      { level: 3, text: 'A note that ends the page', anchor: 'last' },
    ]);
    expect(markdown).toContain("### Unwinding the Stack or Aborting\n\nA panic unwinds by default.\n\n# Unrecoverable Errors with panic!\n\nLet's try calling panic!");
    expect(markdown).toContain('> Note: a quote without a heading stays a quote.');
  });

  it('keeps a section\'s own <header> heading, nests a heading of an entry\'s description under that entry, and drops the "back to top" arrow (RDoc 6.4)', () => {
    const method = (id: string, callseq: string, body: string) =>
      `<div id="${id}" class="method-detail"><div class="method-heading"><span class="method-callseq">${callseq}</span></div><div class="method-description">${body}</div></div>`;
    const html = page(`<main role="main"><h1 id="class-Object">class Object</h1><p>The root of classes.</p>
      <section id="public-instance-method-details" class="method-section"><header><h3>Public Instance Methods</h3></header>
      ${method('method-i-dup', 'dup → an_object', '<p>Produces a shallow copy.</p><h3 id="method-i-dup-label-on+dup+vs+clone">on dup vs clone<span><a href="#method-i-dup-label-on+dup+vs+clone">&para;</a> <a href="#top">&uarr;</a></span></h3><p>clone copies the frozen state.</p>')}
      ${method('method-i-enum_for', 'enum_for(method = :each) → enum', '<p>Creates an enumerator.</p>')}
      </section></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/Object.html');
    expect(headings).toEqual([
      { level: 1, text: 'class Object', anchor: 'class-Object' },
      { level: 3, text: 'Public Instance Methods', anchor: 'public-instance-method-details' },
      { level: 4, text: 'dup → an_object', anchor: 'method-i-dup' },
      { level: 5, text: 'on dup vs clone', anchor: 'method-i-dup-label-on+dup+vs+clone' },
      { level: 4, text: 'enum_for(method = :each) → enum', anchor: 'method-i-enum_for' },
    ]);
    expect(markdown).not.toContain('↑');
  });

  it("gives the prose after a class's methods back to the class, one level up from the methods", () => {
    const html = page(`<main><h2 id="stat">Stat</h2><dl class="py class"><dt id="os.stat_result">class os.stat_result</dt><dd><p>An object.</p>
      <dl class="py attribute"><dt id="os.stat_result.st_mode">st_mode</dt><dd><p>File mode.</p></dd></dl>
      <p>On some Unix systems the following attributes may also be available:</p>
      <dl class="py attribute"><dt id="os.stat_result.st_blocks">st_blocks</dt><dd><p>Blocks allocated.</p></dd></dl>
      </dd></dl><h2 id="next">Next</h2></main>`);
    const { headings } = extractHtml(html, 'https://d.example/library/os.html');
    expect(headings.map(({ level, anchor, continues }) => [level, anchor, continues === true])).toEqual([
      [2, 'stat', false],
      [3, 'os.stat_result', false],
      [4, 'os.stat_result.st_mode', false],
      [3, 'os.stat_result', true],
      [4, 'os.stat_result.st_blocks', false],
      [2, 'next', false],
    ]);
  });

  it('leaves the text after an entry with an empty body to that entry (its description stands after the list)', () => {
    const html = page(`<main><h2 id="env">Environment Variables</h2><dl class="std envvar"><dt id="envvar-PYTEST_ADDOPTS">PYTEST_ADDOPTS</dt><dd></dd></dl>
      <p>This contains a command line that will be prepended.</p><h2 id="next">Next</h2></main>`);
    const { headings } = extractHtml(html, 'https://d.example/reference.html');
    expect(headings.some((heading) => heading.continues)).toBe(false);
  });

  it('resumes a section whose entries stand in a list item as a heading, not list text, so a later heading keeps its own anchor', () => {
    const html = page(`<main><h2 id="s">Files</h2><ul><li><dl><dt id="a">open()</dt><dd><p>Opens.</p></dd></dl><p>Prose of the section.</p></li></ul>
      <h2 id="s2">Files</h2><p>Second section.</p></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/p.html');
    expect(markdown).not.toMatch(/^[-*>]\s+#/m);
    expect(headings.filter((heading) => heading.text === 'Files').map(({ anchor, continues }) => [anchor, continues === true])).toEqual([
      ['s', false],
      ['s', true],
      ['s2', false],
    ]);
  });

  it("resumes the section, never a heading inside an earlier entry's body, and reads HTML5 term groups (<dl><div><dt>)", () => {
    const html = page(`<main><h2 id="sec">Calls</h2><dl><dt id="a">a()</dt><dd><h4 id="ex">Example</h4><p>Use a.</p></dd></dl><p>Between.</p>
      <dl><div><dt id="b">b()</dt><dd><p>Does b.</p></dd></div></dl><p>After b.</p></main>`);
    const { headings } = extractHtml(html, 'https://d.example/p.html');
    expect(headings.filter((heading) => heading.continues).map(({ level, anchor }) => [level, anchor])).toEqual([
      [2, 'sec'],
      [2, 'sec'],
    ]);
  });

  it('gives the rows after a table of anchored rows back to the section (gnuplot: a second table of functions)', () => {
    const html = page(`<main><h2 id="SECTION01">Functions</h2><table><tr><td><a id="1233"></a>word("string",n)</td><td>returns the nth word</td></tr>
      <tr><td><a id="1234"></a>words("string")</td><td>returns the number of words</td></tr></table>
      <table><tr><td colspan="2">other functions</td></tr><tr><td>timecolumn(N,"timeformat")</td><td>column N parsed as time</td></tr></table></main>`);
    const { headings, markdown } = extractHtml(html, 'https://d.example/node44.html');
    expect(headings.at(-1)).toEqual({ level: 2, text: 'Functions', anchor: 'SECTION01', continues: true });
    expect(markdown.indexOf('timecolumn')).toBeGreaterThan(markdown.lastIndexOf('## Functions'));
  });
});

describe('extractHtml layout tables', () => {
  it('turns a layout table (no header cells, cells holding lists) into its content, the lists of its columns one list, not one endless row', () => {
    const html = page('<main><h1>Index – A</h1><table class="indextable"><tr><td><ul><li><a href="a.html#x">abs()</a></li><li>all()</li></ul></td><td><ul><li>any()</li></ul></td></tr></table></main>');
    const { markdown } = extractHtml(html, 'https://d.example/genindex-A.html');
    expect(markdown).toBe('# Index – A\n\n-   [abs()](https://d.example/a.html#x)\n-   all()\n-   any()');
  });
});
