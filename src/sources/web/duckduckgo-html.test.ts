import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ParsedHit, type ParsedResultsPage, parseDuckDuckGoHtml, resultTarget } from './duckduckgo-html.js';

// Every page below is a real DuckDuckGo answer, captured by others (see fixtures/README.md).
const PAGE_URL = 'https://html.duckduckgo.com/html/';

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

function parse(name: string): ParsedResultsPage {
  return parseDuckDuckGoHtml(fixture(name), PAGE_URL);
}

function results(name: string): { hits: ParsedHit[]; next?: Record<string, string> } {
  const page = parse(name);
  if (page.kind !== 'results') throw new Error(`${name} parsed as ${page.kind}, not results`);
  return page;
}

const RESULTS_PAGES_2026 = [
  'ddg_results_client_side_graph_database.html',
  'ddg_results_graphology_typescript.html',
  'ddg_results_indexeddb_wrapper_dexie.html',
];

describe('parseDuckDuckGoHtml on captured 2026 results pages (uddg redirect links)', () => {
  it.each(RESULTS_PAGES_2026)('%s gives its 10 results, each decoded to a distinct web URL with a title and a snippet', (name) => {
    const { hits } = results(name);
    expect(hits).toHaveLength(10);
    expect(new Set(hits.map((hit) => hit.url)).size).toBe(10);
    for (const hit of hits) {
      expect(hit.url).toMatch(/^https?:\/\//);
      expect(hit.url).not.toContain('duckduckgo.com');
      expect(hit.title).not.toBe('');
      expect(hit.snippet).not.toBe('');
    }
  });

  it('decodes the graphology page in rank order: first result is https://graphology.github.io/ titled "Home | Graphology"', () => {
    const { hits } = results('ddg_results_graphology_typescript.html');
    expect(hits[0]).toMatchObject({ url: 'https://graphology.github.io/', title: 'Home | Graphology' });
    expect(hits.slice(1, 3).map((hit) => hit.url)).toEqual(['https://github.com/graphology/graphology', 'https://www.xjavascript.com/blog/graphology-typescript/']);
    expect(hits[9]?.url).toBe('https://github.com/geweldon/GraphologyDB');
  });

  it('decodes entities and strips <b> highlighting from snippets, collapsing whitespace', () => {
    const snippet = results('ddg_results_graphology_typescript.html').hits[0]?.snippet ?? '';
    // The page has `<b>Graphology</b> <b>graphology</b> is a robust &amp; multipurpose <b>Graph</b> object …`.
    expect(snippet.startsWith('Graphology graphology is a robust & multipurpose Graph object for JavaScript and TypeScript.')).toBe(true);
    expect(snippet).not.toMatch(/<\/?b>|&amp;|\s{2}/);
    expect(snippet.endsWith('comprehensive standard library full ...')).toBe(true);
  });

  it('decodes percent-encoded targets of the client-side graph database page', () => {
    const { hits } = results('ddg_results_client_side_graph_database.html');
    expect(hits[0]).toMatchObject({ url: 'https://github.com/nxpatterns/gitnexus', title: 'GitHub - nxpatterns/gitnexus: GitNexus: The Zero-Server Code ...' });
    expect(hits[6]?.url).toBe('https://neo4j.com/blog/introducing-drivine-graph-database-client-for-node-js-and-typescript/');
  });

  it('returns the hidden fields of the "Next" form (q, s=10, dc=11, vqd, kl)', () => {
    const { next } = results('ddg_results_graphology_typescript.html');
    expect(next).toEqual({
      q: 'graphology javascript graph library typescript browser features',
      s: '10',
      nextParams: '',
      v: 'l',
      o: 'json',
      dc: '11',
      api: 'd.js',
      vqd: '4-99686158960374144569884447090575522578',
      kl: 'wt-wt',
    });
  });

  it('gives no next form for the dexie page, which has no "Next" button', () => {
    const page = results('ddg_results_indexeddb_wrapper_dexie.html');
    expect(page.hits[0]).toMatchObject({ url: 'https://github.com/dexie/Dexie.js/', title: 'GitHub - dexie/Dexie.js: A Minimalistic Wrapper for IndexedDB' });
    expect(page.next).toBeUndefined();
    expect('next' in page).toBe(false);
  });
});

describe('parseDuckDuckGoHtml on the captured eino pages (2025, direct links)', () => {
  it('keeps direct links as they are and Chinese titles and snippets intact', () => {
    const { hits } = results('ddg_results_eino.html');
    expect(hits).toHaveLength(10);
    expect(hits[0]?.url).toBe('https://github.com/cloudwego/eino');
    expect(hits[1]).toMatchObject({ url: 'https://www.cloudwego.io/zh/docs/eino/overview/', title: 'Eino: 概述 | CloudWeGo' });
    expect(hits[2]?.title).toBe('Eino - 字节跳动开源的大模型应用开发框架 | AI工具集');
    expect(hits[9]).toMatchObject({ url: 'https://en.wikipedia.org/wiki/Eino', title: 'Eino - Wikipedia' });
  });

  it('decodes &#x27; and &quot; in the eino snippets', () => {
    const snippet = results('ddg_results_eino.html').hits[1]?.snippet ?? '';
    expect(snippet).toContain(`Eino['aino] (近似音: i know，希望框架能达到 "i know" 的愿景)`);
    expect(snippet).not.toMatch(/&#x27;|&quot;|<b>/);
  });

  it('returns the eino Next form with its own vqd token', () => {
    expect(results('ddg_results_eino.html').next).toMatchObject({ q: 'eino', s: '10', dc: '11', vqd: '4-167208798460794982980732831674372650598', kl: 'wt-wt' });
  });

  it('reads the last page as one result (its empty "no result" block skipped) and no next form', () => {
    const page = results('ddg_lastpage_eof_eino.html');
    expect(page.hits).toEqual([{ url: 'http://www.google.com/search?hl=en&q=testtesttesttesttesttesttesttesttesttesttest', title: 'EOF', snippet: '' }]);
    expect(page.next).toBeUndefined();
  });

  it('reads the "No more results." page as empty', () => {
    expect(parse('ddg_empty_no_more_results_eino.html')).toEqual({ kind: 'empty' });
  });
});

describe('parseDuckDuckGoHtml on the captured bot challenge', () => {
  it('reads the HTTP 202 anomaly page as blocked, naming the challenge by its title', () => {
    const page = parse('ddg_anomaly_challenge_202_clele.html');
    expect(page.kind).toBe('blocked');
    if (page.kind !== 'blocked') return;
    expect(page.reason).toMatch(/bot challenge/);
    expect(page.reason).toContain('Unfortunately, bots use DuckDuckGo too.');
  });
});

describe('resultTarget', () => {
  it('decodes the uddg parameter of a protocol-relative DuckDuckGo redirect', () => {
    expect(resultTarget('//duckduckgo.com/l/?uddg=https%3A%2F%2Fgraphology.github.io%2F&rut=74257df7', PAGE_URL)).toBe('https://graphology.github.io/');
  });

  it('keeps the query string of the decoded target and drops its fragment', () => {
    const encoded = encodeURIComponent('https://example.org/search?q=a b&lang=en#top');
    expect(resultTarget(`//duckduckgo.com/l/?uddg=${encoded}&rut=1`, PAGE_URL)).toBe('https://example.org/search?q=a%20b&lang=en');
  });

  it('resolves a relative /l/?uddg= redirect against the page URL', () => {
    expect(resultTarget('/l/?uddg=https%3A%2F%2Fdexie.org%2Fdocs&rut=ab', PAGE_URL)).toBe('https://dexie.org/docs');
  });

  it('accepts the redirect on any duckduckgo.com subdomain, with surrounding whitespace', () => {
    expect(resultTarget('  https://html.duckduckgo.com/l/?uddg=http%3A%2F%2Fexample.com%2Fa ', PAGE_URL)).toBe('http://example.com/a');
  });

  it('returns a direct http(s) link normalised', () => {
    expect(resultTarget('https://github.com/cloudwego/eino', PAGE_URL)).toBe('https://github.com/cloudwego/eino');
    expect(resultTarget('HTTP://Example.COM', PAGE_URL)).toBe('http://example.com/');
  });

  it('rejects ad links (//duckduckgo.com/y.js?…)', () => {
    expect(resultTarget('//duckduckgo.com/y.js?ad_domain=shop.example&ad_provider=bing&u3=https%3A%2F%2Fshop.example%2F', PAGE_URL)).toBeUndefined();
  });

  it('drops the #fragment of a target: a page is fetched once whatever section a result links to', () => {
    expect(resultTarget(`//duckduckgo.com/l/?uddg=${encodeURIComponent('https://developer.mozilla.org/docs/flatMap#syntax')}`, PAGE_URL)).toBe('https://developer.mozilla.org/docs/flatMap');
  });

  it('rejects an ad whose uddg redirect leads back to DuckDuckGo (its click tracker)', () => {
    expect(resultTarget(`//duckduckgo.com/l/?uddg=${encodeURIComponent('https://duckduckgo.com/y.js?ad_domain=shop.example')}`, PAGE_URL)).toBeUndefined();
  });

  it('rejects DuckDuckGo links that carry no uddg target, even with uddg on another path', () => {
    expect(resultTarget('//duckduckgo.com/l/?rut=abc', PAGE_URL)).toBeUndefined();
    expect(resultTarget('//duckduckgo.com/?q=eino', PAGE_URL)).toBeUndefined();
    expect(resultTarget('//duckduckgo.com/y.js?uddg=https%3A%2F%2Fexample.com%2F', PAGE_URL)).toBeUndefined();
  });

  it('rejects javascript:, mailto: and data: links, directly or inside uddg', () => {
    expect(resultTarget('javascript:alert(1)', PAGE_URL)).toBeUndefined();
    expect(resultTarget('mailto:error-lite@duckduckgo.com', PAGE_URL)).toBeUndefined();
    expect(resultTarget('data:text/html,hi', PAGE_URL)).toBeUndefined();
    expect(resultTarget(`//duckduckgo.com/l/?uddg=${encodeURIComponent('javascript:alert(1)')}`, PAGE_URL)).toBeUndefined();
    expect(resultTarget(`//duckduckgo.com/l/?uddg=${encodeURIComponent('ftp://example.com/file')}`, PAGE_URL)).toBeUndefined();
  });

  it('rejects missing, blank and unparsable hrefs and uddg values', () => {
    expect(resultTarget(undefined, PAGE_URL)).toBeUndefined();
    expect(resultTarget('   ', PAGE_URL)).toBeUndefined();
    expect(resultTarget('http://[::1', PAGE_URL)).toBeUndefined();
    expect(resultTarget('//duckduckgo.com/l/?uddg=not%20a%20url', PAGE_URL)).toBeUndefined();
    expect(resultTarget('//duckduckgo.com/l/?uddg=', PAGE_URL)).toBeUndefined();
  });
});
