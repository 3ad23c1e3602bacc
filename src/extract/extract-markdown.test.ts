import { describe, expect, it } from 'vitest';
import { extractMarkdown } from './extract-markdown.js';

describe('extractMarkdown', () => {
  it('gives headings GitHub-style slugs, with suffixes for repeated headings', () => {
    const { headings } = extractMarkdown('# Getting Started\n\n## Install `citedocs` now!\n\n## Usage\n\n### Usage\n', { fallbackTitle: 'f' });
    expect(headings).toEqual([
      { level: 1, text: 'Getting Started', anchor: 'getting-started' },
      { level: 2, text: 'Install citedocs now!', anchor: 'install-citedocs-now' },
      { level: 2, text: 'Usage', anchor: 'usage' },
      { level: 3, text: 'Usage', anchor: 'usage-1' },
    ]);
  });

  it('honours an explicit {#id} and removes it from the text', () => {
    const { headings, markdown } = extractMarkdown('## Create an index {#create-idx}\n\nBody', { fallbackTitle: 'f' });
    expect(headings).toEqual([{ level: 2, text: 'Create an index', anchor: 'create-idx' }]);
    expect(markdown).toBe('## Create an index\n\nBody');
  });

  it('takes the title from front matter, then the h1, then the fallback, and strips the front matter', () => {
    expect(extractMarkdown('---\ntitle: From Front\n---\n# H1\n', { fallbackTitle: 'f' }).title).toBe('From Front');
    expect(extractMarkdown('# H1 Title\n\ntext', { fallbackTitle: 'f' }).title).toBe('H1 Title');
    const plain = extractMarkdown('---\nslug: /x\n---\njust text', { fallbackTitle: 'file.md' });
    expect(plain.title).toBe('file.md');
    expect(plain.markdown).toBe('just text');
  });

  it('ignores # lines inside code fences', () => {
    const { headings } = extractMarkdown('# Real\n\n```sh\n# not a heading\n```\n', { fallbackTitle: 'f' });
    expect(headings.map((heading) => heading.text)).toEqual(['Real']);
  });

  it('rewrites relative links with the resolver and keeps absolute ones', () => {
    const resolveLink = (target: string) => (target.startsWith('http') ? undefined : `https://d.example/${target.replace('.md', '')}`);
    const { markdown } = extractMarkdown('See [the *guide*](guide.md#setup) and [site](https://x.example/).', { fallbackTitle: 'f', resolveLink });
    expect(markdown).toBe('See [the *guide*](https://d.example/guide#setup) and [site](https://x.example/).');
  });

  it('lists ids of raw HTML anchors as page anchors', () => {
    expect(extractMarkdown('<a id="legacy-anchor"></a>\n\n# T\n', { fallbackTitle: 'f' }).anchors).toEqual(expect.arrayContaining(['legacy-anchor', 't']));
  });
});
