import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../core/errors.js';
import type { Page, SourceItem } from '../../core/types.js';
import { extractHtml } from '../../extract/extract-html.js';
import { extractMarkdown } from '../../extract/extract-markdown.js';
import { readLocalFolder } from './local-source.js';

const extractors = { markdown: extractMarkdown, html: extractHtml };

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'citedocs-local-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

async function collect(items: AsyncIterable<SourceItem>): Promise<SourceItem[]> {
  const all: SourceItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const pages = (items: SourceItem[]): Page[] => items.flatMap((item) => (item.kind === 'page' ? [item.page] : []));

describe('readLocalFolder', () => {
  it('publishes every document at its canonical URL and rewrites links between documents', async () => {
    const root = folder({
      'index.md': '# Home\n\nStart with the [guide](guide/setup.md#install).',
      'guide/setup.md': '# Setup\n\n## Install\n\nRun it.',
      'guide/index.mdx': '---\ntitle: Guide\n---\nThe guide.',
      'api/page.html': '<html><body><main><h1 id="api">API</h1><p>Calls.</p></main></body></html>',
      'node_modules/x/readme.md': '# ignored',
      '.hidden/a.md': '# ignored',
    });
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/docs/', urlStyle: 'clean', extractors }));
    const byUrl = new Map(pages(items).map((page) => [page.url, page]));
    expect([...byUrl.keys()].sort()).toEqual([
      'https://d.example/docs/',
      'https://d.example/docs/api/page',
      'https://d.example/docs/guide',
      'https://d.example/docs/guide/setup',
    ]);
    expect(byUrl.get('https://d.example/docs/')?.markdown).toContain('[guide](https://d.example/docs/guide/setup#install)');
    expect(byUrl.get('https://d.example/docs/guide')?.title).toBe('Guide');
    expect(byUrl.get('https://d.example/docs/guide/setup')?.sourcePath).toBe('guide/setup.md');
    expect(byUrl.get('https://d.example/docs/api/page')?.headings[0]?.anchor).toBe('api');
  });

  it('reports a URL collision as an error item and keeps the folder index', async () => {
    const root = folder({ 'a/index.md': '# A index', 'a.md': '# A file' });
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/', urlStyle: 'clean', extractors }));
    expect(pages(items).map((page) => page.title)).toEqual(['A index']);
    expect(items).toContainEqual(expect.objectContaining({ kind: 'error', input: 'a.md' }));
  });

  it('decodes an HTML file in the charset its <meta> declares', async () => {
    const root = folder({});
    writeFileSync(join(root, 'index.html'), Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><main><h1>Café crème</h1><p>Texte.</p></main></body></html>', 'latin1'));
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/', urlStyle: 'clean', extractors }));
    expect(pages(items)[0]?.title).toBe('Café crème');
  });

  it('reports stored pages of the folder whose file is gone, once every file was read', async () => {
    const root = folder({ 'a.md': '# A', 'b/index.md': '# B' });
    const stored = ['https://d.example/docs/a', 'https://d.example/docs/old', 'https://d.example/docs/b'];
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/docs/', urlStyle: 'clean', extractors, knownUrls: (prefix) => stored.filter((url) => url.startsWith(prefix)) }));
    expect(items.filter((item) => item.kind === 'gone')).toEqual([{ kind: 'gone', url: 'https://d.example/docs/old', reason: `no file of ${root} is published at https://d.example/docs/old any more` }]);
  });

  it('refuses a folder with no documents, naming it', async () => {
    const root = folder({ 'notes.txt': 'x' });
    await expect(collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/', urlStyle: 'clean', extractors }))).rejects.toThrow(
      new SourceError(`No documents (.md, .mdx, .markdown, .html, .htm) found in ${root}. Point citedocs at the folder that holds your documentation.`, root),
    );
  });

  it('skips a binary file named .md with the reason, and reads a Latin-1 Markdown file without mojibake', async () => {
    const root = folder({ 'guide.md': '# Guide\n\nText.' });
    writeFileSync(join(root, 'logo.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    writeFileSync(join(root, 'notes.md'), Buffer.from('# Café crème\n\nLes élèves étudient à l\'école, où ils apprennent le français.\n', 'latin1'));
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/', urlStyle: 'clean', extractors }));
    expect(pages(items).map((page) => page.title).sort()).toEqual(['Café crème', 'Guide']);
    expect(items).toContainEqual({ kind: 'error', input: 'logo.md', message: 'logo.md is not a text document: it holds NUL bytes, so it is binary data, not text; skipped.' });
  });

  it('reads at most maxPages documents, then says how many files were left', async () => {
    const root = folder(Object.fromEntries(Array.from({ length: 7 }, (_, index) => [`p${index}.md`, `# Page ${index}`])));
    const items = await collect(readLocalFolder({ directory: root, baseUrl: 'https://d.example/', urlStyle: 'clean', extractors, maxPages: 3 }));
    expect(pages(items)).toHaveLength(3);
    expect(items.at(-1)).toEqual({ kind: 'limited', limit: 'maxPages', value: 3, remaining: 4 });
  });

  it('refuses a path that does not exist', async () => {
    await expect(collect(readLocalFolder({ directory: '/nonexistent/docs', baseUrl: 'https://d.example/', urlStyle: 'clean', extractors }))).rejects.toThrow(/does not exist/);
  });
});
