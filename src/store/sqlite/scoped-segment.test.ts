import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../core/hash.js';
import type { Chunk, Page } from '../../core/types.js';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.js';

const ranking = { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };
const newStore = () => openSqliteConnection(join(mkdtempSync(join(tmpdir(), 'citedocs-scope-')), 'index.db'), 'write');

function add(store: SqliteConnection, library: string, url: string, text: string): void {
  const source = store.catalog.upsertSource({ library, version: '1', rootUrl: `https://${library}.example/`, kind: 'crawl', createdAt: '2026-01-01T00:00:00.000Z' });
  const page: Page = { url, canonicalUrl: url, title: url, markdown: text, headings: [], anchors: [], contentHash: sha256(text), fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl' };
  const chunk: Chunk = { id: sha256(url), pageUrl: url, pageTitle: '', headingPath: [], text, tokenCount: 5, contentHash: sha256(text) };
  store.upsertPage(page, [chunk], { sourceId: source.id });
}

// Code in some passages only: a field's mean is over the passages in scope that have it.
const ALPHA = [
  ['https://alpha.example/1', 'timeouts for sockets and retries\n\n```\nsock.settimeout(5)\n```'],
  ['https://alpha.example/2', 'retries with backoff'],
  ['https://alpha.example/3', 'a page about timeouts of timeouts, long and detailed text here\n\n```\nsock.settimeout(None)\nsock.connect(address)\nsock.sendall(data)\n```'],
] as const;
// Many beta passages about timeouts: in a shared index they would fill an unscoped top-2.
const BETA = Array.from({ length: 8 }, (_, index) => [`https://beta.example/${index}`, `timeouts timeouts everywhere ${index}\n\n\`\`\`\n${'call(x)\n'.repeat(index)}settimeout()\n\`\`\``] as const);

describe('a search scoped to sources', () => {
  it('scores exactly as an index of those sources alone, and fills its limit from them only', () => {
    const shared = newStore();
    const alone = newStore();
    for (const [url, text] of ALPHA) {
      add(shared, 'alpha', url, text);
      add(alone, 'alpha', url, text);
    }
    for (const [url, text] of BETA) add(shared, 'beta', url, text);
    const alphaId = shared.catalog.listSources().find((source) => source.library === 'alpha')?.id ?? -1;
    const query = { text: 'timeouts settimeout', limit: 2, ranking };
    expect(shared.searchText(query).every((hit) => hit.chunk.pageUrl.startsWith('https://beta.'))).toBe(true);
    const scoped = shared.searchText({ ...query, sourceIds: [alphaId] });
    const reference = alone.searchText(query);
    expect(scoped).toHaveLength(2);
    expect(scoped.map((hit) => [hit.chunk.pageUrl, hit.bm25])).toEqual(reference.map((hit) => [hit.chunk.pageUrl, hit.bm25]));
    expect(shared.termStats(['timeouts'], [alphaId])).toEqual(alone.termStats(['timeouts']));
    shared.close();
    alone.close();
  });
});
