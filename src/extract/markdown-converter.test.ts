import { describe, expect, it } from 'vitest';
import { createMarkdownConverter } from './markdown-converter.js';

const convert = createMarkdownConverter();

describe('createMarkdownConverter blocks', () => {
  it('writes ATX headings, - bullets, * emphasis, ** strong and * * * rules', () => {
    expect(convert('<h2>Options</h2><ul><li>one <em>two</em></li><li><strong>three</strong></li></ul><hr><p>end</p>')).toBe('## Options\n\n-   one *two*\n-   **three**\n\n* * *\n\nend');
  });

  it('escapes underscores in text as turndown did, but not in code', () => {
    expect(convert('<p>preexec_fn and <code>close_fds</code></p>')).toBe('preexec\\_fn and `close_fds`');
  });

  it('keeps a definition list as blocks (term, then description), not a bullet list', () => {
    expect(convert('<dl><dt>timeout</dt><dd><p>Seconds to wait.</p></dd></dl>')).toBe('timeout\n\nSeconds to wait.');
  });

  it('drops HTML comments and keeps the text of MathML and struck-out text', () => {
    expect(convert('<p>a<!--End of Navigation Panel--> <del>old</del> <math><mi>x</mi></math></p>')).toBe('a old x');
  });

  it('writes a line break as two trailing spaces, not a backslash', () => {
    expect(convert('<p>first<br>second</p>')).toBe('first  \nsecond');
  });

  it('moves spaces at the edges of emphasis outside it instead of writing &#x20;', () => {
    expect(convert('<p><em>Union</em><em>[str, </em><em>PathLike</em>]</p>')).not.toContain('&#x20;');
    expect(convert('<p><strong>voxel(x) = </strong>command</p>')).toBe('**voxel(x) =** command');
  });

  it('leaves URLs and www. in text unescaped', () => {
    expect(convert('<p>See http://www.gnuplot.info/demo/ and w.r.t. it</p>')).toBe('See http://www.gnuplot.info/demo/ and w.r.t. it');
  });
});

describe('createMarkdownConverter inline elements', () => {
  it('keeps only the text of a link whose URL carries a whole document (a playground\'s "Run" link)', () => {
    const code = encodeURIComponent('fn main() {\n    let mut map = BTreeMap::new();\n}\n'.repeat(12));
    expect(convert(`<p><a href="https://play.example/?code=${code}">Run</a> and <a href="https://d.example/a.html">A</a></p>`)).toBe('Run and [A](https://d.example/a.html)');
  });

  it('drops a word-break opportunity (<wbr>) instead of leaving a zero-width space inside a name', () => {
    expect(convert('<p><a href="https://d.example/S.html#abbreviate(java.lang.String,int)">abbreviate</a><wbr>(String str, int maxWidth), Pair&lt;L,<wbr>R&gt;</p>')).toBe('[abbreviate](https://d.example/S.html#abbreviate\\(java.lang.String,int\\))(String str, int maxWidth), Pair\\<L,R>');
  });

  it('writes a superscript as a power, never run into the number before it (2<sup>7</sup> is 2^7, not 27)', () => {
    expect(convert('<p>From -(2<sup>7</sup>) to 2<sup>7</sup> - 1, x<sup>n+1</sup>, a note<sup><a href="#fn1">1</a></sup><sup> </sup>.</p>')).toBe('From -(2^7) to 2^7 - 1, x^(n+1), a note^[1](#fn1) .');
  });

  it('turns an image into its alt text, and drops one without', () => {
    expect(convert('<p>A <img src="a.png" alt=" diagram ">, <img src="b.png">and more</p>')).toBe('A diagram, and more');
  });

  it('keeps the text of an anchor without href, and links one with href', () => {
    expect(convert('<p><a name="x">Target</a> and <a href="https://d.example/p.html#y">link</a></p>')).toBe('Target and [link](https://d.example/p.html#y)');
    expect(convert('<p><a href="">empty</a>, <a href="javascript:void(0)">script</a></p>')).toBe('empty, script');
  });

  it('turns no-break spaces in inline code into spaces, as in code blocks', () => {
    expect(convert('<p><code>T&nbsp;object,&nbsp;int&nbsp;n</code></p>')).toBe('`T object, int n`');
  });

  it('turns inline code of only spaces into a space and drops empty inline code', () => {
    expect(convert('<p>a<code> </code>b<code></code>c</p>')).toBe('a bc');
  });
});

describe('createMarkdownConverter code blocks', () => {
  it('fences code with the language of its pre, its code, or a data-language', () => {
    expect(convert('<pre class="lang-c">int x;</pre>')).toBe('```c\nint x;\n```');
    expect(convert('<pre data-language="rust">let x = 1;</pre>')).toBe('```rust\nlet x = 1;\n```');
    expect(convert('<div class="highlight-default"><pre>plain</pre></div>')).toBe('```\nplain\n```');
  });

  it('reads a block inside a pre as a line of its own, as a browser shows it, keeping empty lines (Expressive Code)', () => {
    const line = (code: string) => `<div class="ec-line"><div class="code">${code}</div></div>`;
    expect(convert(`<pre><code>${line('<span>const a = 1</span>')}${line('\n')}${line('<span>a</span><span>()</span>')}</code></pre>`)).toBe('```\nconst a = 1\n\na()\n```');
    // Newlines already in the source between the blocks end those lines, not more.
    expect(convert('<pre><div>one</div>\n<div>two</div>\n</pre>')).toBe('```\none\ntwo\n```');
  });

  it('turns no-break spaces in code into spaces and drops trailing blank lines', () => {
    expect(convert('<pre>public&nbsp;boolean add(E e)\n\n</pre>')).toBe('```\npublic boolean add(E e)\n```');
  });

  it('keeps the code as written: markup inside it is text, not Markdown', () => {
    expect(convert('<pre><code class="language-sh">echo <b>*</b> # not_emphasis</code></pre>')).toBe('```sh\necho * # not_emphasis\n```');
  });

  it('reads a <br> inside code as the line break a browser draws (TypeDoc ends each highlighted line with one)', () => {
    const typedoc = '<pre><code class="ts"><span class="hl-7">// Add 10 days:</span><br/><span class="hl-5">const</span><span> r = add(d, 10)</span><br/><span>//=&gt; Mon</span>\n</code></pre>';
    expect(convert(typedoc)).toBe('```\n// Add 10 days:\nconst r = add(d, 10)\n//=> Mon\n```');
  });

  it('reads a <br> the source follows with a newline as one line break, not a blank line (Apache\'s hand-written examples)', () => {
    expect(convert('<pre>&lt;!--#config timefmt="%A" --&gt;<br>\nToday is &lt;!--#echo var="DATE_LOCAL" --&gt;</pre>')).toBe('```\n<!--#config timefmt="%A" -->\nToday is <!--#echo var="DATE_LOCAL" -->\n```');
    // And one with nothing after it is a line break all the same.
    expect(convert('<pre>first<br>second</pre>')).toBe('```\nfirst\nsecond\n```');
  });
});

describe('createMarkdownConverter tables', () => {
  it('writes rows as they are, not padded to the column count, and empty cells empty', () => {
    expect(convert('<table><tr><th colspan="2">Head</th></tr><tr><td>a</td><td></td></tr></table>')).toBe('| Head |\n| --- | --- |\n| a |  |');
  });

  it('makes the first row the header even without th, one line per row, pipes escaped', () => {
    expect(convert('<table><tr><td>Key</td><td>Value</td></tr><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr></table>')).toBe('| Key | Value |\n| --- | --- |\n| a\\|b | one two |');
  });

  it('writes the caption above the table and drops rows without cells', () => {
    expect(convert('<table><caption> Key  words </caption><tr><th>Word</th></tr><tr></tr><tr><td>ALL</td></tr></table>')).toBe('Key words\n\n| Word |\n| --- |\n| ALL |');
  });

  it('keeps a table nested in a data cell as the text of that cell', () => {
    expect(convert('<table><tr><th>A</th><th>B</th></tr><tr><td><table><tr><th>x</th></tr><tr><td>y</td></tr></table></td><td>z</td></tr></table>')).toBe('| A | B |\n| --- | --- |\n| x y | z |');
  });

  it('turns code blocks and lists inside a data cell into one line', () => {
    expect(convert('<table><tr><th>Option</th></tr><tr><td><ul><li>a</li><li>b</li></ul><pre>x\ny</pre></td></tr></table>')).toBe('| Option |\n| --- |\n| a b `x y` |');
  });
});
