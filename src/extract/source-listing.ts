import type { CheerioAPI } from 'cheerio';
import { is, selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

/**
 * A documentation generator's listing of the library's source code, one page per file: Javadoc's
 * `src-html` pages (its SourceToHTMLConverter; `.sourceContainer` before Java 16), JSDoc's
 * `file.js.html`, Doxygen's `file_source.html`, GHC's hyperlinked Haskell source (a lone `<pre>` of `hs-` tokens, Haddock's
 * "Source" links), rustdoc's source view. Its doc comments are the documentation's pages again,
 * under one anchor at the top of a file of code: lodash's listing was 146k of its docs' 222k
 * tokens and came first for half the questions asked of them.
 */
export function isSourceListing($: CheerioAPI): boolean {
  const root = $.root().get(0)?.children ?? [];
  // Javadoc's page is its line-numbered <pre> alone (a doc comment may show the same markup
  // inside a page); JSDoc writes every code block as `pre.prettyprint.source`, its listings alone
  // with `linenums`.
  const listing = [
    'meta[name="generator" i][content*="SourceToHTMLConverter" i]',
    ':is(body, body > main) > :is(div.source-container, div.sourceContainer) > pre > :is(span.source-line-no, span.sourceLineNo)',
    'pre.prettyprint.source.linenums',
    'body.rustdoc.src',
    'body.rustdoc.source',
  ].join(', ');
  if (selectOne(listing, root) !== null) return true;
  // Doxygen's `file_source.html`: the contents are the file's code alone, each line a target
  // (`#l00042`, where "Definition at line 42" points; a[name] before 1.9.2), after at most its
  // "Go to the documentation".
  const contents = selectOne<AnyNode, Element>('div.contents', root);
  const parts = contents?.children.filter((child): child is Element => child.type === 'tag') ?? [];
  const fragment = parts.at(-1);
  if (fragment !== undefined && parts.length <= 2 && is(fragment, 'div.fragment') && parts.slice(0, -1).every((part) => part.name === 'a') && selectOne('div.line > a:is([id^="l0"], [name^="l0"])', fragment) !== null) return true;
  const body = selectOne<AnyNode, Element>('body', root);
  const blocks = body?.children.filter((child): child is Element => child.type === 'tag' && child.name !== 'script') ?? [];
  return blocks.length === 1 && blocks[0]?.name === 'pre' && selectOne('span[class^="hs-"]', blocks) !== null;
}
