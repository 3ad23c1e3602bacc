import { describe, expect, it } from 'vitest';
import { createMemoryLinkIndex, directoryPrefix, linkIndexOfStore, urlVariants, type LinkIndex, type MemoryPage, type PageLookup } from './link-index.js';

const pages: MemoryPage[] = [
  { url: 'https://d.example/', anchors: ['welcome'] },
  { url: 'https://d.example/docs/guide/setup.html', anchors: ['install', 'json.dumps', 'with space'] },
  { url: 'https://d.example/docs/guide/usage.html', anchors: ['run', 'install'] },
  { url: 'https://d.example/docs/api', anchors: ['client'], aliases: ['https://d.example/reference/api'] },
  { url: 'https://d.example/docs/caf%C3%A9/', anchors: [] },
];

/** A store's exact lookups over the same pages, as the SQLite store answers them. */
function fakeStore(stored: readonly MemoryPage[]): PageLookup & { lookups: string[] } {
  const lookups: string[] = [];
  const byUrl = new Map(stored.flatMap((page) => [[page.url, page.url] as const, ...(page.aliases ?? []).map((alias) => [alias, page.url] as const)]));
  const urls = stored.map((page) => page.url).sort();
  return {
    lookups,
    resolveFirstPageUrl: async (candidates) => {
      for (const url of candidates) {
        lookups.push(url);
        const hit = byUrl.get(url);
        if (hit !== undefined) return hit;
      }
      return undefined;
    },
    anchorsOf: async (url) => new Set(stored.find((page) => page.url === url)?.anchors ?? []),
    pagesWithAnchor: async (anchor) => urls.filter((url) => stored.find((page) => page.url === url)?.anchors.includes(anchor) === true),
    pageUrlsUnder: async (prefix) => urls.filter((url) => url.startsWith(prefix)),
  };
}

const implementations: [string, () => LinkIndex][] = [
  ['createMemoryLinkIndex', () => createMemoryLinkIndex(pages)],
  ['linkIndexOfStore', () => linkIndexOfStore(fakeStore(pages))],
];

describe.each(implementations)('LinkIndex contract: %s', (_name, create) => {
  const index = create();

  it('resolves a stored URL to itself, ignoring the fragment', async () => {
    expect(await index.resolvePage('https://d.example/docs/guide/setup.html')).toBe('https://d.example/docs/guide/setup.html');
    expect(await index.resolvePage('https://d.example/docs/guide/setup.html#install')).toBe('https://d.example/docs/guide/setup.html');
  });

  it('resolves extension, trailing-slash and index variants to the stored URL', async () => {
    for (const variant of ['https://d.example/docs/guide/setup', 'https://d.example/docs/guide/setup.md', 'https://d.example/docs/guide/setup.mdx', 'https://d.example/docs/guide/setup/', 'https://d.example/docs/guide/setup/index.html']) {
      expect(await index.resolvePage(variant), variant).toBe('https://d.example/docs/guide/setup.html');
    }
    expect(await index.resolvePage('https://d.example/docs/api.md')).toBe('https://d.example/docs/api');
    expect(await index.resolvePage('https://d.example/docs/api/')).toBe('https://d.example/docs/api');
    expect(await index.resolvePage('https://d.example/docs/api/README.md')).toBe('https://d.example/docs/api');
    expect(await index.resolvePage('https://d.example/index.html')).toBe('https://d.example/');
    expect(await index.resolvePage('https://d.example')).toBe('https://d.example/');
  });

  it('resolves percent-encoding, host case and default port variants', async () => {
    expect(await index.resolvePage('https://d.example/docs/café')).toBe('https://d.example/docs/caf%C3%A9/');
    expect(await index.resolvePage('https://d.example/docs/caf%c3%a9/index.md')).toBe('https://d.example/docs/caf%C3%A9/');
    expect(await index.resolvePage('https://D.Example:443/docs/api')).toBe('https://d.example/docs/api');
  });

  it('resolves a recorded alias to its page', async () => {
    expect(await index.resolvePage('https://d.example/reference/api.html')).toBe('https://d.example/docs/api');
  });

  it('resolves nothing for an unknown page, a folder that is no page, or text that is no URL', async () => {
    expect(await index.resolvePage('https://d.example/docs/guide/')).toBeUndefined();
    expect(await index.resolvePage('https://d.example/docs/guide/setup-old')).toBeUndefined();
    expect(await index.resolvePage('http://d.example/docs/api')).toBeUndefined();
    expect(await index.resolvePage('not a url')).toBeUndefined();
  });

  it('lists anchors, pages with an anchor and pages under a prefix', async () => {
    expect([...await index.anchorsOf('https://d.example/docs/api')]).toEqual(['client']);
    expect((await index.anchorsOf('https://d.example/missing')).size).toBe(0);
    expect(await index.pagesWithAnchor('install')).toEqual(['https://d.example/docs/guide/setup.html', 'https://d.example/docs/guide/usage.html']);
    expect(await index.pagesUnder('https://d.example/docs/guide/')).toEqual(['https://d.example/docs/guide/setup.html', 'https://d.example/docs/guide/usage.html']);
  });
});

describe('urlVariants', () => {
  it('starts with the URL as given, without its fragment, then its WHATWG form', async () => {
    expect(urlVariants('https://D.example:443/a/b.md#x').slice(0, 2)).toEqual(['https://D.example:443/a/b.md', 'https://d.example/a/b.md']);
  });

  it('covers the stem, trailing slash, document extensions and index files', async () => {
    const variants = urlVariants('https://d.example/a/b/index.html');
    for (const expected of ['https://d.example/a/b', 'https://d.example/a/b/', 'https://d.example/a/b.md', 'https://d.example/a/b.html', 'https://d.example/a/b/index.md', 'https://d.example/a/b/README.md']) {
      expect(variants).toContain(expected);
    }
  });

  it('keeps the query string and gives the URL alone when it does not parse', async () => {
    expect(urlVariants('https://d.example/a.md?v=2')).toContain('https://d.example/a?v=2');
    expect(urlVariants('/relative/a.md#x')).toEqual(['/relative/a.md']);
  });

  it('lets a store-backed index stop at the first exact hit', async () => {
    const store = fakeStore(pages);
    await linkIndexOfStore(store).resolvePage('https://d.example/docs/api#client');
    expect(store.lookups).toEqual(['https://d.example/docs/api']);
  });
});

describe('directoryPrefix', () => {
  it('names the folder a URL stands for, whatever its spelling', async () => {
    for (const url of ['https://d.example/docs/guide', 'https://d.example/docs/guide/', 'https://d.example/docs/guide.md#x', 'https://d.example/docs/guide/index.html']) {
      expect(directoryPrefix(url), url).toBe('https://d.example/docs/guide/');
    }
    expect(directoryPrefix('https://d.example')).toBe('https://d.example/');
    expect(directoryPrefix('nope')).toBeUndefined();
  });
});
