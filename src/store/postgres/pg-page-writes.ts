import type pg from 'pg';
import type { Chunk, Page } from '../../core/types.js';
import type { UpsertOutcome } from '../store.js';
import type { PgLexicalWriter } from './pg-lexical-writer.js';
import { inTransaction, retryOnDeadlock } from './pg-rows.js';
import { bumpVectorsVersion } from './pg-vectors.js';

/**
 * Writes of pages, each one transaction: a page with its chunks, anchors and aliases stored,
 * replaced or removed, its chunks queued for (or tombstoned in) the lexical index. Several
 * processes may write at once: writers of one URL take turns, and a transaction a deadlock
 * rolled back is run again whole.
 */
export function createPgPageWrites(pool: pg.Pool, writer: PgLexicalWriter) {
  const deletePage = async (client: pg.ClientBase, pageId: number) => {
    await writer.removePage(client, pageId);
    await client.query('DELETE FROM chunk_embeddings WHERE chunk_id IN (SELECT id FROM chunks WHERE page_id = $1)', [pageId]);
    await client.query('DELETE FROM chunks WHERE page_id = $1', [pageId]);
    await client.query('DELETE FROM anchors WHERE page_id = $1', [pageId]);
    await client.query('DELETE FROM page_aliases WHERE page_id = $1', [pageId]);
    await client.query('DELETE FROM pages WHERE id = $1', [pageId]);
    await bumpVectorsVersion(client);
  };

  const insertAliases = async (client: pg.ClientBase, page: Page, pageId: number) => {
    const aliases = [...new Set(page.aliases ?? [])].filter((alias) => alias !== page.url);
    if (aliases.length > 0) {
      await client.query('INSERT INTO page_aliases (alias, page_id) SELECT unnest($1::text[]), $2 ON CONFLICT (alias) DO UPDATE SET page_id = excluded.page_id', [aliases, pageId]);
    }
  };

  /** Stores a page; `added` counts the chunks queued for the lexical index. */
  const upsert = (page: Page, chunks: readonly Chunk[], rechunked: boolean, sourceId: number | undefined) =>
    retryOnDeadlock(() => inTransaction(pool, async (client): Promise<{ outcome: UpsertOutcome; added: number }> => {
      // Writers of the same URL take turns (a new URL by its advisory lock, a stored one by its row).
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [page.url]);
      const existing = (await client.query<{ id: number; content_hash: string; source_id: number | null }>('SELECT id, content_hash, source_id FROM pages WHERE url = $1 FOR UPDATE', [page.url]))
        .rows[0];
      const moved = existing !== undefined && sourceId !== undefined && existing.source_id !== sourceId;
      if (existing?.content_hash === page.contentHash && !rechunked && !moved) {
        await client.query('UPDATE pages SET fetched_at = $1, etag = $2, last_modified = $3, links = $4 WHERE id = $5', [
          page.fetchedAt, page.etag ?? null, page.lastModified ?? null, JSON.stringify(page.links ?? []), existing.id,
        ]);
        await insertAliases(client, page, existing.id);
        return { outcome: 'unchanged', added: 0 };
      }
      if (existing !== undefined) await deletePage(client, existing.id);
      const inserted = await client.query<{ id: number }>(
        `INSERT INTO pages (url, canonical_url, title, markdown, headings, content_hash, etag, last_modified, fetched_at, source, source_path, links, chunking, source_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          page.url, page.canonicalUrl, page.title, page.markdown, JSON.stringify(page.headings), page.contentHash, page.etag ?? null, page.lastModified ?? null,
          page.fetchedAt, page.source, page.sourcePath ?? null, JSON.stringify(page.links ?? []), page.chunking ?? null, sourceId ?? existing?.source_id ?? null,
        ],
      );
      const pageId = (inserted.rows[0] as { id: number }).id;
      // The anchor map holds the ids the page really has, as the SQLite store's does.
      const anchors = [...new Set(page.anchors)];
      if (anchors.length > 0) await client.query('INSERT INTO anchors (page_id, anchor) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [pageId, anchors]);
      await insertAliases(client, page, pageId);
      if (chunks.length > 0) {
        // Ids follow the chunks' reading order (the sort happens before the ids are drawn), as rowids do in SQLite: ties in ranking break the same way.
        const rows = await client.query<{ id: number }>(
          `INSERT INTO chunks (chunk_key, page_id, ordinal, anchor, heading_path, title, headings, text, token_count, content_hash)
           SELECT key, $1, n - 1, anchor, heading_path, title, headings, text, token_count, content_hash
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[]) WITH ORDINALITY
                  AS c(key, anchor, heading_path, title, headings, text, token_count, content_hash, n)
            ORDER BY n RETURNING id`,
          [
            pageId, chunks.map((chunk) => chunk.id), chunks.map((chunk) => chunk.anchor ?? null),
            chunks.map((chunk) => JSON.stringify(chunk.headingPath)), chunks.map((chunk) => chunk.pageTitle), chunks.map((chunk) => chunk.headingPath.join(' > ')), chunks.map((chunk) => chunk.text),
            chunks.map((chunk) => chunk.tokenCount), chunks.map((chunk) => chunk.contentHash),
          ],
        );
        await writer.added(client, rows.rows.map((row) => row.id));
      }
      return { outcome: existing === undefined ? 'added' : 'changed', added: chunks.length };
    }));

  /** Removes the page stored at `url`; whether there was one. */
  const remove = (url: string) =>
    inTransaction(pool, async (client) => {
      const existing = (await client.query<{ id: number }>('SELECT id FROM pages WHERE url = $1 FOR UPDATE', [url])).rows[0];
      if (existing === undefined) return false;
      await deletePage(client, existing.id);
      return true;
    });

  return { upsert, remove };
}
