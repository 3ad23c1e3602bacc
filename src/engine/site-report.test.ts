import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Chunk, Page } from '../core/types.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import { siteReport } from './site-report.js';

function page(url: string, title: string, anchors: string[], headings: Page['headings']): Page {
  return { url, canonicalUrl: url, title, markdown: '', headings, anchors, contentHash: `h:${url}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl' };
}

function chunk(pageUrl: string, ordinal: number, anchor?: string): Chunk {
  return { id: `${pageUrl}#${ordinal}`, pageUrl, pageTitle: 't', ...(anchor === undefined ? {} : { anchor }), headingPath: [], text: `text ${ordinal}`, tokenCount: 10, contentHash: `c${pageUrl}${ordinal}` };
}

describe('site report', () => {
  it('shows a bad extraction before anyone asks: an anchor not on its page, one section holding a page, a title every page shares, a page with no passage; a resumed section is no heading of its own', async () => {
    const store = createSqliteStore(join(mkdtempSync(join(tmpdir(), 'citedocs-report-')), 'index.db'), 'write');
    const site = 'https://d.example/docs/';
    await store.upsertPage(page(`${site}a.html`, 'Widgets 3.2 documentation', ['intro', 'setup'], [{ level: 1, text: 'A', anchor: 'intro' }, { level: 2, text: 'Setup', anchor: 'setup' }, { level: 2, text: 'Notes' }, { level: 1, text: 'A', anchor: 'intro', continues: true }]), [
      chunk(`${site}a.html`, 0, 'intro'),
      chunk(`${site}a.html`, 1, 'setup'),
      chunk(`${site}a.html`, 2, 'setup'),
      chunk(`${site}a.html`, 3, 'setup'),
      chunk(`${site}a.html`, 4, 'readability-page-1'),
    ]);
    await store.upsertPage(page(`${site}b.html`, 'Widgets 3.2 documentation', [], []), []);
    await store.upsertPage(page('https://other.example/c.html', 'Other', [], []), [chunk('https://other.example/c.html', 0)]);
    const report = await siteReport(store, site);
    await store.close();
    expect(report).toMatchObject({
      site,
      pages: 2,
      passages: 5,
      headings: { total: 3, withAnchor: 2, percentWithAnchor: 66.7 },
      anchorsMissing: { count: 1, examples: [`${site}a.html#readability-page-1`] },
      passagesPerSection: { sections: 3, max: 3 },
      sharedTitles: [{ title: 'Widgets 3.2 documentation', pages: 2 }],
      emptyPages: { count: 1, examples: [`${site}b.html`] },
    });
    expect(report.largestSections[0]).toEqual({ url: `${site}a.html#setup`, passages: 3, tokens: 30 });
  });
});
