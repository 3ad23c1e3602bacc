import type pg from 'pg';
import type { StoredPage } from '../store.js';
import { pageOfRow, type PageRow } from '../rows.js';

const PAGE_COLUMNS = `url, title, content_hash, source, fetched_at, etag, last_modified, links, headings, chunking,
  (SELECT count(*)::int FROM chunks c WHERE c.page_id = pages.id) AS chunk_count`;

/** A stored page and its anchors (an empty set, and no page, for a URL not stored). */
export interface PageWithAnchors {
  page: StoredPage | undefined;
  anchors: ReadonlySet<string>;
}

/**
 * Reads pages with their anchors, the URLs asked for in one turn of the event loop in one
 * statement: an answer's link check and a search's selection ask for a page and then its
 * anchors for every page they cite, all at once, and on a database each read alone is a round
 * trip.
 */
export function createPageLoader(pool: Pick<pg.Pool, 'query'>) {
  let pending = new Map<string, { resolve: (value: PageWithAnchors) => void; reject: (error: unknown) => void }[]>();
  const flush = async () => {
    const batch = pending;
    pending = new Map();
    try {
      const rows = await pool.query<PageRow & { anchors: string[] }>(
        `SELECT ${PAGE_COLUMNS}, coalesce((SELECT array_agg(a.anchor) FROM anchors a WHERE a.page_id = pages.id), '{}') AS anchors FROM pages WHERE url = ANY($1::text[])`,
        [[...batch.keys()]],
      );
      const byUrl = new Map(rows.rows.map((row) => [row.url, row]));
      for (const [url, waiting] of batch) {
        const row = byUrl.get(url);
        const value: PageWithAnchors = { page: row === undefined ? undefined : pageOfRow(row), anchors: new Set(row?.anchors ?? []) };
        for (const { resolve } of waiting) resolve(value);
      }
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  };
  return {
    load(url: string): Promise<PageWithAnchors> {
      return new Promise((resolve, reject) => {
        if (pending.size === 0) setImmediate(() => void flush());
        const waiting = pending.get(url);
        if (waiting === undefined) pending.set(url, [{ resolve, reject }]);
        else waiting.push({ resolve, reject });
      });
    },
  };
}
