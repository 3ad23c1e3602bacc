import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

/**
 * Page shapes of the documentation generators people use, reduced to their structure: where
 * the content sits, where the ids sit, and the chrome around them (which must not survive).
 */
const CHROME = ['Sidebar item', 'On this page', 'Edit this page', 'Previous', 'Next', 'Copyright', 'Search docs', 'source'];

function expectClean(markdown: string) {
  for (const word of CHROME) expect(markdown, word).not.toContain(word);
  expect(markdown).not.toMatch(/\[\s*\u200b?\s*\]\(/);
}

describe('extraction per documentation generator', () => {
  it('Haddock\'s profile claims no page another generator tags, whatever its ids', () => {
    const body = `<div id="package-header"><ul class="links"><li><a href="index.html">Contents</a></li></ul></div><div id="content"><div id="interface"><div class="top"><p class="src">A paragraph</p><div class="doc"><p>Text.</p></div></div></div></div>`;
    const tagged = extractHtml(`<html><head><meta name="generator" content="Hugo 0.110"></head><body>${body}</body></html>`, 'https://d.example/a.html');
    const haddock = extractHtml(`<html><head></head><body>${body}</body></html>`, 'https://d.example/a.html');
    // Haddock's transform makes a declaration a heading below the page's groups (h5); a Hugo page is read as Hugo's.
    expect(haddock.headings.find((heading) => heading.text === 'A paragraph')?.level).toBe(5);
    expect(tagged.headings.find((heading) => heading.text === 'A paragraph')?.level).not.toBe(5);
  });


  it('Scaladoc: a member is cited at a target before it, not at a type its signature links and names', () => {
    const member = (first: string, second: string, name: string, comment: string) => `<li name="scala.collection.TraversableLike#${name}" visbl="pub">
      <a id="${first}"></a>
      <a id="${second}"></a>
      <h4 class="signature"><span class="modifier_kind"><span class="kind">def</span></span>
      <span class="symbol"><span class="name">${name}</span><span class="params">(<span name="p">p: (<span class="extype" name="scala.collection.immutable.List.A">A</span>) ⇒ <a href="../../Boolean.html" class="extype" name="scala.Boolean">Boolean</a></span>)</span><span class="result">: <a href="" class="extype" name="scala.collection.immutable.List">List</a>[A]</span></span></h4>
      <span class="permalink"><a href="../../../index.html#scala.collection.immutable.List@${first}" title="Permalink" target="_top"><img src="../../../lib/permalink.png" alt="Permalink" /></a></span>
      <p class="shortcomment cmt">${comment}</p></li>`;
    const html = `<html><head><title>List</title></head><body><div id="definition"><h1>List</h1></div><div id="template"><div id="allMembers"><div id="values" class="values members"><h3>Concrete Value Members</h3><ol>
      ${member('partition(p:A=&gt;Boolean):(Repr,Repr)', 'partition((A)⇒Boolean):(List[A],List[A])', 'partition', 'Partitions this collection in two according to a predicate.')}
      ${member('filter(p:A=&gt;Boolean):Repr', 'filter((A)⇒Boolean):List[A]', 'filter', 'Selects all elements which satisfy a predicate.')}
      </ol></div></div></div></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/scala/collection/immutable/List.html');
    const anchors = headings.filter((heading) => heading.text.startsWith('def')).map((heading) => heading.anchor);
    expect(anchors).toEqual(['partition((A)⇒Boolean):(List[A],List[A])', 'filter((A)⇒Boolean):List[A]']);
  });

  it('Scaladoc: a member\'s first sentence once, no member filter, companion toggle, related links or inherited-through list', () => {
    const html = `<html><head><title>List - Scala Standard Library 2.11.12 - scala.collection.immutable.List</title><script type="text/javascript" src="../../../lib/template.js"></script></head><body class="type">
      <div id="definition"><a href="List$.html" title="See companion object"><img alt="Class/Object" src="../../../lib/class_to_object_big.png" /></a>
      <p id="owner"><a href="../../package.html" class="extype" name="scala">scala</a>.<a href="package.html" class="extype" name="scala.collection.immutable">immutable</a></p>
      <h1><a href="List$.html" title="See companion object">List</a></h1><h3><span class="morelinks"><div>Related Docs: <a href="List$.html">object List</a> | <a href="package.html">package immutable</a></div></span></h3></div>
      <h4 id="signature" class="signature"><span class="kind">class</span> <span class="name">List</span></h4>
      <div id="comment" class="fullcommenttop"><div class="comment cmt"><p>A class for immutable linked lists.</p></div>
      <div class="toggleContainer block"><span class="toggle">Linear Supertypes</span><div class="superTypes hiddenContent"><a href="../Seq.html">Seq</a></div></div>
      <div class="toggleContainer block"><span class="toggle">Known Subclasses</span><div class="subClasses hiddenContent"><a href="Nil$.html">Nil</a></div></div></div>
      <div id="mbrsel"><div id="order"><span class="filtertype">Ordering</span><ol><li class="alpha in"><span>Alphabetic</span></li><li class="inherit out"><span>By Inheritance</span></li></ol></div></div>
      <div id="template"><div id="allMembers"><div id="values" class="values members"><h3>Concrete Value Members</h3><ol>
      <li name="scala.collection.TraversableLike#partition" visbl="pub"><a id="partition(p:A=&gt;Boolean):(Repr,Repr)"></a><a id="partition((A)⇒Boolean):(List[A],List[A])"></a>
      <h4 class="signature"><span class="kind">def</span> <span class="name">partition</span></h4>
      <p class="shortcomment cmt">Partitions this traversable collection in two according to a predicate.</p><div class="fullcomment"><div class="comment cmt"><p>Partitions this traversable collection in two according to a predicate.</p></div>
      <dl class="attributes block"><dt>Definition Classes</dt><dd><a href="../TraversableLike.html">TraversableLike</a> → <a href="../GenTraversableLike.html">GenTraversableLike</a></dd><dt>Since</dt><dd><p>2.8</p></dd></dl></div></li>
      </ol></div></div><div id="inheritedMembers"><div class="parent" name="scala.Product"><h3>Inherited from <a href="../../Product.html" class="extype" name="scala.Product">Product</a></h3></div></div></div></body></html>`;
    const { markdown, title, siteVersion, headings } = extractHtml(html, 'https://d.example/scala/collection/immutable/List.html');
    expect(headings.map((heading) => heading.anchor)).not.toContain('scala.Product');
    expect(title).toBe('scala.collection.immutable.List');
    expect(siteVersion).toBe('2.11.12');
    expect(markdown.match(/Partitions this traversable collection/g)).toHaveLength(1);
    expect(markdown).toContain('A class for immutable linked lists.');
    expect(markdown).toContain('Since');
    expect(markdown).toContain('Known Subclasses');
    for (const control of ['Alphabetic', 'Ordering', 'Related Docs', 'Definition Classes', 'TraversableLike', 'Class/Object', 'Linear Supertypes', 'Inherited from']) expect(markdown).not.toContain(control);
  });

  it('Scaladoc 2.13: the same profile where #definition sits inside #content', () => {
    const html = `<html><head><title>Option - Scala Standard Library 2.13.12 - scala.Option</title><script type="text/javascript" src="../lib/template.js"></script></head><body class="abstract type">
      <div id="search"></div><div id="content-container"><div id="content"><div id="definition"><p id="owner"><a href="../scala/index.html" class="extype" name="scala">scala</a></p><h1>Option</h1></div>
      <h4 id="signature" class="signature"><span class="kind">class</span> <span class="name">Option</span></h4><div id="comment" class="fullcommenttop"><div class="comment cmt"><p>Represents optional values.</p></div></div>
      <div id="mbrsel"><div id="memberfilter"><span class="filtertype">Ordering</span><ol><li class="alpha in"><span>Alphabetic</span></li></ol></div></div>
      <div id="template"><div id="allMembers"><div id="values" class="values members"><h3>Value Members</h3><ol>
      <li name="scala.Option#getOrElse" visbl="pub"><a id="getOrElse[B&gt;:A](default:=&gt;B):B"></a><a id="getOrElse[B&gt;:A](⇒B):B"></a><h4 class="signature"><span class="kind">def</span> <span class="name">getOrElse</span></h4>
      <p class="shortcomment cmt">Returns the option's value if the option is nonempty, otherwise return the result of evaluating default.</p><div class="fullcomment"><div class="comment cmt"><p>Returns the option's value if the option is nonempty, otherwise return the result of evaluating default.</p></div></div></li>
      </ol></div></div></div></div></div></body></html>`;
    const { markdown } = extractHtml(html, 'https://d.example/scala/Option.html');
    expect(markdown.match(/Returns the option's value/g)).toHaveLength(1);
    expect(markdown).not.toContain('Alphabetic');
  });

  it('Texinfo: a definition without a category starts with its name, one with a category keeps it', () => {
    const html = `<html><head><meta name="Generator" content="makeinfo"><title>Finding Elements (GNU Octave (version 7.3.0))</title></head><body>
      <div class="section" id="Finding-Elements"><h3 class="section">16.1 Finding Elements</h3><p>The functions below test a matrix.</p>
      <dl class="def"><dt id="index-any"><span class="category">: </span><span><strong>any</strong> <em>(<var>x</var>)</em><a href='#index-any' class='copiable-anchor'> &para;</a></span></dt><dd><p>Return true if any element is nonzero.</p></dd></dl>
      <dl class="def"><dt id="index-gammafn"><span class="category">Function: </span><span><em>double</em> <strong>gammafn</strong> <em>(double <var>x</var>)</em></span></dt><dd><p>The gamma function.</p></dd></dl></div></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/Finding-Elements.html');
    expect(headings.map((heading) => [heading.text, heading.anchor]).slice(1)).toEqual([
      ['any (x)', 'index-any'],
      ['Function: double gammafn (double x)', 'index-gammafn'],
    ]);
  });

  it('Texinfo 7 (texi2any): a definition block is one entry at its first line, without an empty category', () => {
    const html = `<html><head><meta name="Generator" content="texi2any"><title>Manipulating Structures (GNU Octave (version 9.2.0))</title></head><body>
      <div class="subsection-level-extent" id="Manipulating-Structures"><h4 class="subsection">6.1.4 Manipulating Structures</h4><p>Functions on structures.</p>
      <dl class="first-deftypefn def-block"><dt class="deftypefn def-line" id="index-isfield"><span class="category-def">: </span><span><code class="def-type"><var class="var">tf</var> =</code> <strong class="def-name">isfield</strong> <code class="def-code-arguments">(<var class="var">x</var>, "<var class="var">name</var>")</code></span></dt>
      <dt class="deftypefnx def-cmd-deftypefn def-line" id="index-isfield-1"><span class="category-def">: </span><span><code class="def-type"><var class="var">tf</var> =</code> <strong class="def-name">isfield</strong> <code class="def-code-arguments">(<var class="var">x</var>, <var class="var">name</var>)</code></span></dt>
      <dd><p>Return true if x is a structure and it includes an element named name.</p></dd></dl></div></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/Manipulating-Structures.html');
    expect(headings.at(-1)).toEqual({ level: 5, text: 'tf = isfield (x, "name"); tf = isfield (x, name)', anchor: 'index-isfield' });
  });

  it('cites a heading with a run of targets before it at the nearest: an older name or the whole list comes first (SQLite, GLib\'s index)', () => {
    const html = `<html><head><title>Download</title></head><body><h1>Download</h1><p>Get the code.</p>
      <a name="cvs"></a><a name="srctree"></a><h2>Source Code Repositories</h2><p>The repository is Fossil.</p>
      <a name="idx"></a><a name="idxA"></a><h3>A</h3><p>Entries.</p></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/download.html');
    expect(headings.slice(1).map((heading) => heading.anchor)).toEqual(['srctree', 'idxA']);
  });

  it('a heading that is only a named link to another page is still cited at its name (hand-written pages)', () => {
    const html = `<html><head><title>Links</title></head><body><h1>Links</h1><p>Libraries we use.</p>
      <h2><a name="libfoo" href="https://libfoo.example/">libfoo</a></h2><p>Parses foo.</p>
      <h2><a name="bar" href="bar.html">Bar</a></h2><p>Bars.</p></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/links.html');
    expect(headings.slice(1).map((heading) => heading.anchor)).toEqual(['libfoo', 'bar']);
  });

  it('an id on a link to another page stays a target (Apache\'s module index marks each letter so)', () => {
    const html = `<html><head><title>Modules</title></head><body><div id="page-content"><h1>Modules</h1><p>All modules.</p><dl>
      <dt><a id="A" name="A" href="mod_access_compat.html">mod_access_compat</a></dt><dd>Group authorizations based on host.</dd>
      <dt><a id="B" name="B" href="mod_brotli.html">mod_brotli</a></dt><dd>Compress content with Brotli.</dd></dl></div></body></html>`;
    const { headings } = extractHtml(html, 'https://d.example/mod/index.html');
    expect(headings.filter((heading) => heading.text.startsWith('mod_')).map((heading) => heading.anchor)).toEqual(['A', 'B']);
  });

  it('Docusaurus: content in .theme-doc-markdown, ids on headings, zero-width hash links dropped', () => {
    const html = `<html><body><nav class="navbar"><a href="/">Search docs</a></nav><div class="main-wrapper"><aside class="theme-doc-sidebar-container"><ul class="menu"><li><a href="/docs/a">Sidebar item</a></li></ul></aside>
      <main class="docMainContainer"><div class="row"><div class="col docItemCol"><article><nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><a href="/">Home</a></nav>
      <div class="theme-doc-markdown markdown"><header><h1>Installation</h1></header><p>Install the package.</p>
      <h2 class="anchor anchorWithStickyNavbar_abc" id="requirements">Requirements<a href="#requirements" class="hash-link" aria-label="Direct link to Requirements" title="Direct link to Requirements">\u200b</a></h2><p>Node 20 or later.</p></div>
      <footer class="theme-doc-footer"><a href="https://git.example/x/edit/main/docs/a.md">Edit this page</a></footer></article>
      <nav class="pagination-nav"><a class="pagination-nav__link--prev" href="/docs/x">Previous</a><a href="/docs/y">Next</a></nav></div>
      <div class="col col--3"><div class="tableOfContents theme-doc-toc-desktop"><ul class="table-of-contents"><li><a href="#requirements">On this page</a></li></ul></div></div></div></main></div>
      <footer class="footer">Copyright 2026</footer></body></html>`;
    const result = extractHtml(html, 'https://d.example/docs/installation');
    expect(result.title).toBe('Installation');
    expect(result.headings).toEqual([{ level: 1, text: 'Installation' }, { level: 2, text: 'Requirements', anchor: 'requirements' }]);
    expect(result.markdown).toBe('# Installation\n\nInstall the package.\n\n## Requirements\n\nNode 20 or later.');
    expectClean(result.markdown);
  });

  it('MkDocs Material: content in article.md-content__inner, ¶ header links dropped', () => {
    const html = `<html><body><header class="md-header"><a>Search docs</a></header><div class="md-container"><main class="md-main"><div class="md-main__inner">
      <div class="md-sidebar md-sidebar--primary"><nav class="md-nav"><a href="a/">Sidebar item</a></nav></div>
      <div class="md-sidebar md-sidebar--secondary"><nav class="md-nav md-nav--secondary"><label>On this page</label></nav></div>
      <div class="md-content"><article class="md-content__inner md-typeset"><a href="https://git.example/x/edit/main/docs/index.md" title="Edit this page" class="md-content__button md-icon">e</a>
      <h1 id="configuration">Configuration</h1><p>Settings live in <code>mkdocs.yml</code>.</p>
      <h2 id="theme">Theme<a class="headerlink" href="#theme" title="Permanent link">¶</a></h2><p>Pick a theme.</p></article></div></div></main>
      <footer class="md-footer"><nav class="md-footer__inner"><a class="md-footer__link--prev">Previous</a></nav><div class="md-copyright">Copyright</div></footer></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/config/');
    expect(result.headings).toEqual([{ level: 1, text: 'Configuration', anchor: 'configuration' }, { level: 2, text: 'Theme', anchor: 'theme' }]);
    expect(result.markdown).toBe('# Configuration\n\nSettings live in `mkdocs.yml`.\n\n## Theme\n\nPick a theme.');
    expectClean(result.markdown);
  });

  it('VitePress: content in .vp-doc, header anchors dropped, aside outline, doc footer and the language label above code gone', () => {
    const html = `<html><body><div id="app"><div class="Layout"><header class="VPNav"><a>Search docs</a></header><aside class="VPSidebar"><a href="/guide/">Sidebar item</a></aside>
      <div class="VPContent"><div class="VPDoc"><div class="aside"><div class="VPDocAside"><nav class="VPDocAsideOutline"><div class="outline-title">On this page</div></nav></div></div>
      <div class="content"><main class="main"><div class="vp-doc _guide_getting-started"><div>
      <h1 id="getting-started" tabindex="-1">Getting Started <a class="header-anchor" href="#getting-started" aria-label="Permalink to &quot;Getting Started&quot;">\u200b</a></h1>
      <div class="language-sh vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">sh</span><pre class="shiki"><code><span class="line">npm add -D vitepress</span></code></pre></div>
      </div></div></main><footer class="VPDocFooter"><div class="edit-link"><a href="https://git.example/x/edit">Edit this page on GitHub</a></div><nav class="prev-next"><a>Previous</a><a>Next</a></nav></footer></div></div></div></div></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/guide/getting-started');
    expect(result.headings).toEqual([{ level: 1, text: 'Getting Started', anchor: 'getting-started' }]);
    expect(result.markdown).toBe('# Getting Started\n\n```sh\nnpm add -D vitepress\n```');
    expectClean(result.markdown);
  });

  it('TypeDoc: a function page is one passage with its signature as code; its parts and block tags are lines of it', () => {
    const icon = '<a href="#Name" aria-label="Permalink" class="tsd-anchor-icon"><svg viewBox="0 0 24 24"><use href="../assets/icons.svg#icon-anchor"></use></svg></a>';
    const html = `<html><head><title>addBusinessDays | date-fns</title></head><body><header class="tsd-page-toolbar"><a href="../index.html" class="title">Search docs</a></header>
      <div class="container container-main"><div class="col-content"><div class="tsd-page-title"><ul class="tsd-breadcrumb"><li><a href="../modules.html">date-fns</a></li><li><a href="addBusinessDays.html">addBusinessDays</a></li></ul><h1>Function addBusinessDays</h1></div>
      <section class="tsd-panel"><ul class="tsd-signatures"><li class="tsd-signature tsd-anchor-link"><a id="addBusinessDays" class="tsd-anchor"></a><span class="tsd-kind-call-signature">add<wbr/>Business<wbr/>Days</span><span class="tsd-signature-symbol">(</span><span class="tsd-kind-parameter">date</span>, <span class="tsd-kind-parameter">amount</span><span class="tsd-signature-symbol">)</span><span class="tsd-signature-symbol">: </span><span class="tsd-signature-type">Date</span><a href="#addBusinessDays" aria-label="Permalink" class="tsd-anchor-icon"><svg></svg></a></li>
      <li class="tsd-description"><div class="tsd-parameters"><h4 class="tsd-parameters-title">Parameters</h4><ul class="tsd-parameter-list"><li><span><span class="tsd-kind-parameter">amount</span>: <span class="tsd-signature-type">number</span></span><div class="tsd-comment tsd-typography"><p>The amount of business days to be added.</p></div></li></ul></div>
      <h4 class="tsd-returns-title">Returns <span class="tsd-signature-type">Date</span></h4><p>The new date</p>
      <div class="tsd-comment tsd-typography"><div class="tsd-tag-Description"><h4 class="tsd-anchor-link"><a id="Description" class="tsd-anchor"></a>Description${icon}</h4><p>Add business days, ignoring weekends.</p></div>
      <div class="tsd-tag-Example"><h4 class="tsd-anchor-link"><a id="Example" class="tsd-anchor"></a>Example${icon}</h4><pre><code class="ts"><span class="hl-7">// Add 10 business days:</span><br/><span class="hl-5">const</span><span> r = addBusinessDays(d, 10)</span><br/><span>//=&gt; Mon</span>\n</code><button type="button">Copy</button></pre></div></div>
      <aside class="tsd-sources"><ul><li>Defined in addBusinessDays.d.ts:21</li></ul></aside></li></ul></section></div>
      <div class="col-sidebar"><div class="page-menu"><details class="tsd-accordion"><summary><h3>Settings</h3></summary><span>Member Visibility</span></details></div><div class="site-menu"><nav class="tsd-navigation"><a href="#">Sidebar item</a></nav></div></div></div>
      <footer><p class="tsd-generator">Generated using <a href="https://typedoc.org/">TypeDoc</a></p></footer></body></html>`;
    const result = extractHtml(html, 'https://d.example/functions/addBusinessDays.html');
    expect(result.generator).toBe('typedoc');
    expect(result.headings).toEqual([{ level: 1, text: 'Function addBusinessDays' }]);
    expect(result.anchors).toEqual(expect.arrayContaining(['addBusinessDays', 'Description', 'Example']));
    expect(result.markdown).toBe([
      '# Function addBusinessDays',
      '```ts\naddBusinessDays(date, amount): Date\n```',
      'Parameters:',
      '-   amount: number\n\n    The amount of business days to be added.',
      'Returns Date:',
      'The new date',
      'Description:',
      'Add business days, ignoring weekends.',
      'Example:',
      '```ts\n// Add 10 business days:\nconst r = addBusinessDays(d, 10)\n//=> Mon\n```',
    ].join('\n\n'));
    expectClean(result.markdown);
    expect(result.markdown).not.toMatch(/Defined in|Settings|Member Visibility|Copy/);
  });

  it('TypeDoc: a class member is a passage at its id, its flag beside its name; the class\'s own headings stay sections; the member index goes', () => {
    const html = `<html><head><title>Observable | rxjs</title></head><body><div class="container container-main"><div class="col-content"><div class="tsd-page-title"><ul class="tsd-breadcrumb"><li><a href="../modules.html">rxjs</a></li></ul><h1>Class Observable&lt;T&gt;</h1></div>
      <section class="tsd-panel tsd-comment"><div class="tsd-comment tsd-typography"><p>A representation of any set of values over any amount of time.</p><a id="md:compared-with-promises" class="tsd-anchor"></a><h3 class="tsd-anchor-link">Compared with promises</h3><p>An Observable can emit many values.</p></div></section>
      <section class="tsd-panel"><h4>Type Parameters</h4><ul class="tsd-type-parameter-list"><li><span><a id="T" class="tsd-anchor"></a><span class="tsd-kind-type-parameter">T</span></span></li></ul></section>
      <section class="tsd-panel-group tsd-index-group"><section class="tsd-panel tsd-index-panel"><details class="tsd-index-content tsd-accordion" open><summary><h5 class="tsd-index-heading">Index</h5></summary><section class="tsd-index-section"><h3 class="tsd-index-heading">Methods</h3><div class="tsd-index-list"><a href="#pipe" class="tsd-index-link">pipe</a></div></section></details></section></section>
      <section class="tsd-panel-group tsd-member-group"><h2>Methods</h2>
      <section class="tsd-panel tsd-member"><a id="create" class="tsd-anchor"></a><h3 class="tsd-anchor-link"><code class="tsd-tag">Static</code><span>create</span><a href="#create" aria-label="Permalink" class="tsd-anchor-icon"><svg></svg></a></h3><div class="tsd-signature"><span class="tsd-kind-property">create</span><span class="tsd-signature-symbol">:</span> <span class="tsd-signature-type">Function</span></div><div class="tsd-comment tsd-typography"><p>Creates a new Observable.</p></div></section>
      <section class="tsd-panel tsd-member"><a id="pipe" class="tsd-anchor"></a><h3 class="tsd-anchor-link"><span>pipe</span></h3><ul class="tsd-signatures"><li class="tsd-signature tsd-anchor-link"><a id="pipe.pipe-1" class="tsd-anchor"></a><span class="tsd-kind-call-signature">pipe</span><span class="tsd-signature-symbol">()</span></li>
      <li class="tsd-description"><div class="tsd-comment tsd-typography"><p>Used to stitch together operators.</p><a id="md:example" class="tsd-anchor"></a><h4 class="tsd-anchor-link">Example</h4><pre><code class="ts">source.pipe(map(x =&gt; x * 2))</code></pre></div>
      <div class="tsd-parameters"><h4 class="tsd-parameters-title">Parameters</h4><ul class="tsd-parameter-list"><li><span><code class="tsd-tag">Optional</code><span class="tsd-kind-parameter">op1</span></span></li></ul></div></li></ul></section></section></div></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/classes/Observable.html');
    expect(result.headings).toEqual([
      { level: 1, text: 'Class Observable<T>' },
      { level: 3, text: 'Compared with promises', anchor: 'md:compared-with-promises' },
      { level: 2, text: 'Methods' },
      { level: 3, text: 'create', anchor: 'create' },
      { level: 3, text: 'pipe', anchor: 'pipe' },
    ]);
    expect(result.markdown).toContain('### create\n\n```ts\ncreate: Function\n```\n\nCreates a new Observable.');
    expect(result.markdown).toContain('Used to stitch together operators.\n\nExample:\n\n```ts\nsource.pipe(map(x => x * 2))\n```\n\nParameters:\n\n-   `Optional` op1');
    expect(result.markdown).toContain('Type Parameters:\n\n-   T');
    expect(result.markdown).not.toContain('Index');
  });

  it('TypeDoc 0.22: the title above the content, a flag beside its name or out of a member\'s heading, each parameter a line, "Defined in" gone', () => {
    const html = `<html><head><title>Observable | rxjs</title></head><body><header><div class="tsd-page-toolbar"><a href="../index.html" class="title">Search docs</a></div><div class="tsd-page-title"><div class="container"><ul class="tsd-breadcrumb"><li><a href="../modules.html">rxjs</a></li></ul><h1>Class Observable&lt;T&gt;</h1></div></div></header>
      <div class="container container-main"><div class="row"><div class="col-8 col-content">
      <section class="tsd-panel tsd-comment"><div class="tsd-comment tsd-typography"><div class="lead"><p>A representation of values over time.</p></div></div></section>
      <section class="tsd-panel-group tsd-member-group"><h2>Methods</h2>
      <section class="tsd-panel tsd-member tsd-kind-method"><a name="pipe" class="tsd-anchor"></a><h3>pipe</h3><ul class="tsd-signatures tsd-kind-method"><li class="tsd-signature tsd-kind-icon">pipe<span class="tsd-signature-symbol">(</span>op1<span class="tsd-signature-symbol">?: </span><span class="tsd-signature-type">OperatorFunction</span><span class="tsd-signature-symbol">)</span></li></ul>
      <ul class="tsd-descriptions"><li class="tsd-description"><aside class="tsd-sources"><p>Inherited from <a href="Subscribable.html">Subscribable</a>.<a href="Subscribable.html#pipe">pipe</a></p><ul><li>Defined in internal/Observable.d.ts:30</li></ul></aside><div class="tsd-comment tsd-typography"><div class="lead"><p>Stitches operators together.</p></div></div>
      <h4 class="tsd-parameters-title">Parameters</h4><ul class="tsd-parameters"><li><h5><span class="tsd-flag ts-flagOptional">Optional</span>op1: <span class="tsd-signature-type">OperatorFunction</span></h5><div class="tsd-comment tsd-typography"><p>The first operator.</p></div></li></ul>
      <h4 class="tsd-returns-title">Returns <span class="tsd-signature-type">Observable</span></h4></li></ul></section>
      <section class="tsd-panel tsd-member tsd-kind-method"><a name="create" class="tsd-anchor"></a><h3><span class="tsd-flag ts-flagStatic">Static</span> create</h3><div class="tsd-comment tsd-typography"><p>Creates an Observable.</p></div></section>
      </section></div><div class="col-4 col-menu menu-sticky-wrap"><nav class="tsd-navigation primary"><a href="#">Sidebar item</a></nav></div></div></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/classes/Observable.html');
    expect(result.title).toBe('Class Observable<T>');
    expect(result.headings).toEqual([{ level: 2, text: 'Methods' }, { level: 3, text: 'pipe', anchor: 'pipe' }, { level: 3, text: 'create', anchor: 'create' }]);
    expect(result.markdown).toContain('Parameters:\n\n-   Optional op1: OperatorFunction\n\n    The first operator.\n\nReturns Observable:');
    expect(result.markdown).not.toMatch(/Defined in|Sidebar item/);
  });

  it('TypeDoc 0.28: a signature laid out on lines keeps them, and a signature with its description in one list item is no list', () => {
    const html = `<html><head><title>debounceTime | rxjs</title></head><body><div class="container container-main"><div class="col-content"><div class="tsd-page-title"><ul class="tsd-breadcrumb" aria-label="Breadcrumb"><li><a href="" aria-current="page">debounceTime</a></li></ul><h1>Function debounceTime</h1></div>
      <section class="tsd-panel"><ul class="tsd-signatures tsd-is-external"><li class="tsd-is-external"><div class="tsd-signature tsd-anchor-link" id="debouncetime"><span class="tsd-kind-call-signature">debounceTime</span><span class="tsd-signature-symbol">(</span><br/>    <span class="tsd-kind-parameter">dueTime</span><span class="tsd-signature-symbol">:</span> <span class="tsd-signature-type">number</span><span class="tsd-signature-symbol">,</span><br/><span class="tsd-signature-symbol">)</span><span class="tsd-signature-symbol">:</span> <a href="../interfaces/MonoTypeOperatorFunction.html" class="tsd-signature-type">MonoTypeOperatorFunction</a><a href="#debouncetime" aria-label="Permalink" class="tsd-anchor-icon"><svg></svg></a></div>
      <div class="tsd-description"><div class="tsd-comment tsd-typography"><p>Emits a notification only after a time span has passed without another emission.</p></div></div></li></ul></section></div></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/functions/debounceTime.html');
    expect(result.markdown).toBe('# Function debounceTime\n\n```ts\ndebounceTime(\n    dueTime: number,\n): MonoTypeOperatorFunction\n```\n\nEmits a notification only after a time span has passed without another emission.');
  });

  it('JSDoc: an entry is cited at its id, its parts are lines of its passage, its scope and its source line go, its title is the page\'s without "JSDoc:"', () => {
    const html = `<html><head><title>JSDoc: Class: _</title><script src="scripts/prettify/prettify.js"> </script></head><body><div id="main"><h1 class="page-title">Class: _</h1><section><article>
      <h3 class="subsection-title">Methods</h3>
      <h4 class="name" id=".debounce"><span class="type-signature">(static) </span>debounce<span class="signature">(func, wait<span class="signature-attributes">opt</span>)</span><span class="type-signature"> &rarr; {function}</span></h4>
      <div class="description">Creates a debounced function.</div>
      <h5>Parameters:</h5><table class="params"><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td class="name"><code>func</code></td><td class="type"><span class="param-type">function</span></td></tr></tbody></table>
      <dl class="details"><dt class="tag-since">Since:</dt><dd class="tag-since"><ul class="dummy"><li>0.1.0</li></ul></dd><dt class="tag-source">Source:</dt><dd class="tag-source"><ul class="dummy"><li><a href="lodash.js.html">lodash.js</a>, <a href="lodash.js.html#line10377">line 10377</a></li></ul></dd></dl>
      <h5>Example</h5><pre class="prettyprint"><code>_.debounce(calculateLayout, 150);</code></pre>
      </article></section></div><nav><h2><a href="index.html">Home</a></h2><h3>Classes</h3><ul><li><a href="-_.html">Sidebar item</a></li></ul></nav><br class="clear"><footer>Documentation generated by <a href="https://github.com/jsdoc/jsdoc">JSDoc 4.0.4</a></footer>
      <script> prettyPrint(); </script><script src="scripts/linenumber.js"> </script></body></html>`;
    const result = extractHtml(html, 'https://d.example/-_.html');
    expect(result.generator).toBe('jsdoc');
    expect(result.headings.slice(-1)).toEqual([{ level: 4, text: 'debounce(func, wait?) → {function}', anchor: '.debounce' }]);
    expect(result.markdown).toContain('Creates a debounced function.\n\nParameters:\n\n| Name | Type |');
    expect(result.markdown).toContain('Example:\n\n```\n_.debounce(calculateLayout, 150);\n```');
    expect(result.markdown).not.toMatch(/line 10377|Source:|Documentation generated/);
    expect(result.title).toBe('Class: _');
    // A README's own <h5> is its section, not an entry's part.
    const readme = extractHtml('<html><head><title>JSDoc: Home</title></head><body><div id="main"><h1 class="page-title">Home</h1><section><article><h1 id="widget">widget</h1><h5 id="install">Install with npm</h5><p>npm install widget</p></article></section></div><script src="scripts/linenumber.js"></script></body></html>', 'https://d.example/index.html');
    expect(readme.headings.map((heading) => heading.text)).toContain('Install with npm');
  });

  it('rustdoc: methods anchored on their <section id>, § anchors and "source" links dropped', () => {
    const html = `<html><body><nav class="sidebar"><a href="#">Sidebar item</a></nav><main><div class="width-limiter"><rustdoc-search></rustdoc-search>
      <section id="main-content" class="content"><div class="main-heading"><h1>Struct <a class="mod" href="../index.html">std</a>::<a class="struct" href="#">Vec</a><button id="copy-path">Copy item path</button></h1>
      <span class="out-of-band"><a class="src" href="../src/vec.rs.html">source</a></span></div>
      <details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>A contiguous growable array type.</p></div></details>
      <h2 id="implementations" class="section-header">Implementations<a href="#implementations" class="anchor">§</a></h2>
      <details class="toggle method-toggle" open><summary><section id="method.new" class="method"><a class="src rightside" href="../src/vec.rs.html#1">source</a><h4 class="code-header">pub const fn <a href="#method.new" class="fn">new</a>() -&gt; Vec&lt;T&gt;</h4></section></summary>
      <div class="docblock"><p>Constructs a new, empty <code>Vec&lt;T&gt;</code>.</p></div></details></section></div></main></body></html>`;
    const result = extractHtml(html, 'https://doc.example/std/vec/struct.Vec.html');
    expect(result.headings).toEqual([
      { level: 1, text: 'Struct std::Vec' },
      { level: 2, text: 'Implementations', anchor: 'implementations' },
      { level: 4, text: 'pub const fn new() -> Vec<T>', anchor: 'method.new' },
    ]);
    expect(result.markdown).toContain('Constructs a new, empty `Vec<T>`.');
    expect(result.markdown).not.toContain('§');
    expectClean(result.markdown);
  });

  it('Javadoc: member details anchored on <section id="add(E)">, navigation bars gone', () => {
    const html = `<html><body><header role="banner"><nav role="navigation"><div class="top-nav"><a href="#">Sidebar item</a></div><div class="sub-nav"><a>Search docs</a></div></nav></header>
      <div class="flex-content"><main role="main"><div class="header"><div class="sub-title">Package java.util</div><h1 title="Class ArrayList" class="title">Class ArrayList&lt;E&gt;</h1></div>
      <section class="method-details" id="method-detail"><h2>Method Details</h2><ul class="member-list"><li><section class="detail" id="add(E)"><h3>add</h3>
      <div class="member-signature"><span class="modifiers">public</span> boolean add(E e)</div><div class="block">Appends the specified element to the end of this list.</div></section></li></ul></section></main>
      <footer role="contentinfo"><p>Copyright 1993, 2026</p></footer></div></body></html>`;
    const result = extractHtml(html, 'https://docs.example/api/java/util/ArrayList.html');
    expect(result.title).toBe('Class ArrayList<E>');
    expect(result.headings).toEqual([
      { level: 1, text: 'Class ArrayList<E>' },
      { level: 2, text: 'Method Details', anchor: 'method-detail' },
      { level: 3, text: 'add', anchor: 'add(E)' },
    ]);
    expect(result.markdown).toContain('Appends the specified element to the end of this list.');
    expectClean(result.markdown);
  });

  it("gtk-doc: a function's Parameters and Returns are part of its passage, not sections of their own (their anchors stay on the page); navigation and footer gone", () => {
    const html = `<html><head><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"><meta name="generator" content="GTK-Doc V1.33.1 (XML mode)"><title>Hash Tables: GLib Reference Manual</title></head><body>
      <table class="navigation" id="top"><tr><td><a href="index.html">Home</a></td></tr></table>
      <div class="refentry"><div class="refnamediv"><h2><span class="refentrytitle"><a name="glib-Hash-Tables.top_of_page"></a>Hash Tables</span></h2></div>
      <div class="refsect1"><a name="glib-Hash-Tables.functions_details"></a><h2>Functions</h2>
      <div class="refsect2"><a name="g-hash-table-insert"></a><h3>g_hash_table_insert ()</h3><pre class="programlisting">gboolean g_hash_table_insert (GHashTable *hash_table, gpointer key, gpointer value);</pre>
      <p>Inserts a new key and value into a GHashTable.</p>
      <div class="refsect3"><a name="g-hash-table-insert.parameters"></a><h4>Parameters</h4><table><tr><td><p>key</p></td><td><p>a key to insert</p></td></tr></table></div>
      <div class="refsect3"><a name="g-hash-table-insert.returns"></a><h4>Returns</h4><p>TRUE if the key did not exist yet</p></div></div></div></div>
      <div class="footer"><hr>Generated by GTK-Doc V1.33.1</div></body></html>`;
    const result = extractHtml(html, 'https://gnome.example/glib/glib-Hash-Tables.html');
    expect(result.title).toBe('Hash Tables');
    expect(result.headings.map((heading) => heading.anchor)).toEqual(['glib-Hash-Tables.top_of_page', 'glib-Hash-Tables.functions_details', 'g-hash-table-insert']);
    expect(result.markdown).toMatch(/### g\\_hash\\_table\\_insert \(\)[\s\S]*Parameters:[\s\S]*a key to insert[\s\S]*Returns:\n\nTRUE if the key did not exist yet/);
    expect(result.markdown).not.toMatch(/Home|Generated by/);
    expect(result.anchors).toContain('g-hash-table-insert.parameters');
  });

  it('Sphinx without a role=main body (Django’s theme): the element holding the page’s section is the content, not the banner or the sidebar', () => {
    const html = `<html><head><title>Django’s cache framework — Django 3.2 documentation</title></head><body><div class="document"><div id="custom-doc" class="yui-t6">
      <div id="hd"><h1><a href="../index.html">Django 3.2 documentation</a></h1><div id="global-nav"><a href="../index.html">Home</a> | <a href="../contents.html">Table of contents</a></div><div class="nav">« <a href="a.html">previous</a> | <a href="b.html">next</a> »</div></div>
      <div id="bd"><div id="yui-main"><div class="yui-b"><div class="yui-g" id="topics-cache">
      <div class="section" id="s-django-s-cache-framework"><span id="django-s-cache-framework"></span><h1>Django’s cache framework<a class="headerlink" href="#django-s-cache-framework">¶</a></h1><p>${'Caching saves the result of an expensive calculation. '.repeat(6)}</p>
      <div class="section" id="s-the-per-view-cache"><span id="the-per-view-cache"></span><h2>The per-view cache<a class="headerlink" href="#the-per-view-cache">¶</a></h2><p>Cache the output of one view.</p></div></div>
      </div></div></div><div class="yui-b" id="sidebar"><div class="sphinxsidebar" role="navigation"><h3>Table of contents</h3></div><h3>Last update:</h3><p>Nov 28, 2026</p></div></div>
      <div id="ft"><div class="nav">« <a href="a.html">previous</a> | <a href="b.html">next</a> »</div></div></div></div></body></html>`;
    const result = extractHtml(html, 'https://docs.example/topics/cache.html');
    expect(result.title).toBe('Django’s cache framework');
    expect(result.headings).toEqual([
      { level: 1, text: 'Django’s cache framework', anchor: 'django-s-cache-framework' },
      { level: 2, text: 'The per-view cache', anchor: 'the-per-view-cache' },
    ]);
    for (const chrome of ['Django 3.2 documentation', 'Table of contents', 'previous', 'Last update']) expect(result.markdown).not.toContain(chrome);
  });

  it('Sphinx with the Read the Docs theme: .rst-content, breadcrumbs and footer buttons gone', () => {
    const html = `<html><body><nav class="wy-nav-side"><div class="wy-side-scroll"><a>Search docs</a><a href="a.html">Sidebar item</a></div></nav>
      <section class="wy-nav-content-wrap"><div class="wy-nav-content"><div class="rst-content"><div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs"><li><a href="index.html">Docs</a></li></ul></div>
      <div role="main" class="document"><div class="section" id="quickstart"><h1>Quickstart<a class="headerlink" href="#quickstart" title="Permalink to this heading">¶</a></h1><p>Run the tool.</p></div></div>
      <footer><div class="rst-footer-buttons" role="navigation"><a href="prev.html" class="btn">Previous</a><a href="next.html">Next</a></div><div role="contentinfo"><p>Copyright 2026.</p></div></footer></div></div></section></body></html>`;
    const result = extractHtml(html, 'https://proj.example/en/latest/quickstart.html');
    expect(result.headings).toEqual([{ level: 1, text: 'Quickstart', anchor: 'quickstart' }]);
    expect(result.markdown).toBe('# Quickstart\n\nRun the tool.');
    expectClean(result.markdown);
  });
});

describe('extraction of a page of no known generator', () => {
  it('finds the article with Readability, keeping heading ids, dropping menus and footers', () => {
    const html = `<html><head><title>Widgets</title></head><body><div class="topbar">${['Home', 'A', 'B', 'C', 'D', 'E', 'F', 'G'].map((name) => `<a href="/${name}">${name}</a>`).join(' ')}</div>
      <div class="wrap"><div class="left"><ul><li><a href="/x">Sidebar item one</a></li><li><a href="/y">Sidebar item two</a></li></ul></div>
      <div class="post"><h1 id="widgets">Configuring widgets</h1><p>${'Widgets are configured in the widgets file. '.repeat(10)}</p>
      <h2 id="timeouts">Timeouts</h2><p>${'Set the timeout option to change how long a widget waits. '.repeat(8)}</p><pre><code class="language-js">widget.timeout = 30;</code></pre></div></div>
      <div class="bottom">Copyright Widgets Inc</div></body></html>`;
    const result = extractHtml(html, 'https://w.example/widgets.html');
    expect(result.title).toBe('Configuring widgets');
    expect(result.headings).toEqual([{ level: 1, text: 'Configuring widgets', anchor: 'widgets' }, { level: 2, text: 'Timeouts', anchor: 'timeouts' }]);
    expect(result.markdown).toContain('```js\nwidget.timeout = 30;\n```');
    expectClean(result.markdown);
    expect(result.markdown).not.toContain('Sidebar item');
  });

  it('Starlight: a heading’s permalink (“Section titled …” for screen readers) and the page’s tables of contents are not text; each code line is a line; the site is what follows " | "', () => {
    const line = (code: string) => `<div class="ec-line"><div class="code">${code}</div></div>`;
    const html = `<!doctype html><html><head><title>MockAgent | undici</title><meta name="generator" content="Astro v5.18.2"><meta name="generator" content="Starlight v0.37.7"></head><body>
      <header><a href="/">undici</a><div class="search">Search docs</div></header><nav><a href="/api/client/">Sidebar item</a></nav>
      <aside><mobile-starlight-toc><nav><h2>On this page</h2><ul><li><a href="#mockagentclose">mockAgent.close()</a></li></ul></nav></mobile-starlight-toc></aside>
      <main><div class="sl-container"><h1 id="_top">MockAgent</h1></div><div class="sl-container"><div class="sl-markdown-content"><p>A MockAgent intercepts HTTP requests made through undici.</p>
      <div class="sl-heading-wrapper level-h3"><h3 id="mockagentclose"><code dir="auto">mockAgent.close()</code></h3><a class="sl-anchor-link" href="#mockagentclose"><span aria-hidden="true" class="sl-anchor-icon"></span><span class="sr-only">Section titled “mockAgent.close()”</span></a></div>
      <p>Closes the mock agent and waits for registered mock pools and clients to also close.</p>
      <div class="expressive-code"><figure class="frame"><pre data-language="js"><code>${line('<span>const agent = new MockAgent()</span>')}${line('\n')}${line('<span>await agent.close()</span>')}</code></pre></figure></div>
      </div></div><footer><div class="pagination-links"><a href="/api/mockclient/">Next MockClient</a></div><p>Copyright</p></footer></main></body></html>`;
    const result = extractHtml(html, 'https://d.example/api/mockagent/');
    expect(result.title).toBe('MockAgent');
    expect(result.siteName).toBe('undici');
    expect(result.headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['MockAgent', '_top'],
      ['mockAgent.close()', 'mockagentclose'],
    ]);
    expect(result.markdown).not.toContain('Section titled');
    expect(result.markdown).toContain('```js\nconst agent = new MockAgent()\n\nawait agent.close()\n```');
    expectClean(result.markdown);
  });

  it('YARD: a class page without its method summary, "included from" lists, hidden source listings and ancestry; its default title names no site and no version', () => {
    const html = `<!DOCTYPE html><html><head><title>
  Class: Rack::Static
    &mdash; Documentation by YARD 0.9.28
</title><script type="text/javascript" charset="utf-8" src="../js/app.js"></script></head><body>
      <div class="nav_wrap"><iframe id="nav" src="../class_list.html?1"></iframe></div>
      <div id="main" tabindex="-1"><div id="header"><div id="menu"><a href="../_index.html">Index (S)</a> &raquo; <span class="title">Static</span></div><div id="search"><a class="full_list_link" href="../class_list.html">Search docs</a></div></div>
      <div id="content"><h1>Class: Rack::Static</h1>
      <div class="box_info"><dl><dt>Inherits:</dt><dd><span class="inheritName">Object</span><ul class="fullTree"><li>Object</li><li class="next">Rack::Static</li></ul><a href="#" class="inheritanceTree">show all</a></dd></dl><dl><dt>Defined in:</dt><dd>lib/rack/static.rb</dd></dl></div>
      <h2>Overview</h2><div class="docstring"><div class="discussion"><p>The Rack::Static middleware intercepts requests for static files.</p></div></div>
      <h2>Instance Method Summary <small><a href="#" class="summary_toggle">collapse</a></small></h2>
      <ul class="summary"><li class="public "><span class="summary_signature"><a href="#call-instance_method" title="#call (instance method)">#<strong>call</strong>(env) &#x21d2; Object </a></span><span class="summary_desc"><div class='inline'><p>Serves the file the request asks for.</p></div></span></li></ul>
      <h3 class="inherited">Methods included from <span class='object_link'><a href="Utils.html" title="Rack::Utils (module)">Utils</a></span></h3><p class="inherited"><span class='object_link'><a href="Utils.html#escape-instance_method">#escape</a></span></p>
      <div id="instance_method_details" class="method_details_list"><h2>Instance Method Details</h2><div class="method_details first"><h3 class="signature first" id="call-instance_method">#<strong>call</strong>(env) &#x21d2; <tt>Object</tt></h3>
      <div class="docstring"><div class="discussion"><p>Serves the file the request asks for, or passes the request on.</p></div></div>
      <table class="source_code"><tr><td><pre class="lines">123\n124</pre></td><td><pre class="code"><span class="info file"># File 'lib/rack/static.rb', line 123</span>\ndef call(env)\nend</pre></td></tr></table></div></div></div>
      <div id="footer">Generated on Sun Nov 29 by <a href="https://yardoc.org" title="Yay! A Ruby Documentation Tool" target="_parent">yard</a> 0.9.28 (ruby-3.1.2).</div></div></body></html>`;
    const result = extractHtml(html, 'https://d.example/Rack/Static.html');
    expect(result.generator).toBe('yard');
    expect(result.title).toBe('Class: Rack::Static');
    expect(result.siteName).toBeUndefined();
    expect(result.siteVersion).toBeUndefined();
    expect(result.headings.map(({ text, anchor }) => [text, anchor])).toEqual([
      ['Class: Rack::Static', undefined],
      ['Overview', undefined],
      ['Instance Method Details', 'instance_method_details'],
      ['#call(env) ⇒ Object', 'call-instance_method'],
    ]);
    expect(result.markdown).toContain('Serves the file the request asks for, or passes the request on.');
    expect(result.markdown).not.toMatch(/Serves the file the request asks for\.|included from|show all|lib\/rack\/static\.rb', line|def call|Index \(S\)|Generated on/);
    expectClean(result.markdown);
  });
});
