import type pg from 'pg';
import { type LinkCounts, linkCountsOf, type LinkKeyRow } from '../lexical/link-counts.js';
import type { AnalyzedDocument } from '../lexical/segment.js';
import type { DocumentKeys } from '../lexical/segment-storage.js';

export type { DocumentKeys } from '../lexical/segment-storage.js';

export interface LinkedDocument {
  document: AnalyzedDocument;
  pageUrl: string;
}

/** Per key id: changes to its three counts. */
class Deltas {
  readonly byId = new Map<number, { docs: number; entryLinks: number; pageLinks: number }>();
  add(id: number, field: 'docs' | 'entryLinks' | 'pageLinks', delta: number): void {
    let row = this.byId.get(id);
    if (row === undefined) this.byId.set(id, (row = { docs: 0, entryLinks: 0, pageLinks: 0 }));
    row[field] += delta;
  }
}

/**
 * The link counts of the SQLite file's lexical_keys and lexical_page_links (see
 * src/store/sqlite/lexical-links.ts: the same counts, with the same meaning), kept for a batch
 * of documents at once: a flush of thousands of chunks costs a few statements, not a few per
 * link. Call inside the transaction that adds or deletes the documents, holding the index lock.
 */
export async function addLinkCounts(client: pg.ClientBase, documents: readonly LinkedDocument[]): Promise<DocumentKeys[]> {
  const keys = new Set<string>();
  for (const { document, pageUrl } of documents) {
    keys.add(pageUrl);
    if (document.entry !== undefined) keys.add(document.entry);
    for (const link of document.links) keys.add(link);
    for (const linked of document.linkedPages) keys.add(linked);
  }
  const ids = await ensureKeys(client, [...keys]);
  const idOf = (key: string) => ids.get(key) as number;
  const deltas = new Deltas();
  const pairs = new Map<string, { target: number; source: number; chunks: number }>();
  const result = documents.map(({ document, pageUrl }) => {
    const page = idOf(pageUrl);
    const entry = document.entry === undefined ? 0 : idOf(document.entry);
    deltas.add(page, 'docs', 1);
    if (entry !== 0) deltas.add(entry, 'docs', 1);
    for (const link of document.links) deltas.add(idOf(link), 'entryLinks', 1);
    for (const linked of document.linkedPages) {
      const target = idOf(linked);
      const pair = `${target}:${page}`;
      const known = pairs.get(pair);
      if (known === undefined) pairs.set(pair, { target, source: page, chunks: 1 });
      else known.chunks += 1;
    }
    return { entry, page };
  });
  if (pairs.size > 0) {
    const list = [...pairs.values()];
    const stored = await client.query<{ target: number; source: number; chunks: number }>(
      `INSERT INTO lexical_page_links AS l (target, source, chunks) SELECT * FROM unnest($1::int[], $2::int[], $3::int[])
       ON CONFLICT (target, source) DO UPDATE SET chunks = l.chunks + excluded.chunks
       RETURNING l.target, l.source, l.chunks`,
      [list.map((pair) => pair.target), list.map((pair) => pair.source), list.map((pair) => pair.chunks)],
    );
    // A pair that had no linking chunk before this batch is a new linking page of its target.
    for (const row of stored.rows) if (row.chunks === pairs.get(`${row.target}:${row.source}`)?.chunks) deltas.add(row.target, 'pageLinks', 1);
  }
  await applyDeltas(client, deltas);
  return result;
}

/** Takes back what `addLinkCounts` counted for documents that are deleted. */
export async function removeLinkCounts(client: pg.ClientBase, documents: readonly { document: AnalyzedDocument; keys: DocumentKeys }[]): Promise<void> {
  if (documents.length === 0) return;
  const names = new Set<string>();
  for (const { document } of documents) {
    for (const link of document.links) names.add(link);
    for (const linked of document.linkedPages) names.add(linked);
  }
  const found = await client.query<{ id: number; key: string }>('SELECT id, key FROM lexical_keys WHERE key = ANY($1::text[])', [[...names]]);
  const ids = new Map(found.rows.map((row) => [row.key, row.id]));
  const deltas = new Deltas();
  const pairs = new Map<string, { target: number; source: number; chunks: number }>();
  for (const { document, keys } of documents) {
    for (const link of document.links) {
      const id = ids.get(link);
      if (id !== undefined) deltas.add(id, 'entryLinks', -1);
    }
    for (const linked of document.linkedPages) {
      const target = ids.get(linked);
      if (target === undefined) continue;
      const pair = `${target}:${keys.page}`;
      const known = pairs.get(pair);
      if (known === undefined) pairs.set(pair, { target, source: keys.page, chunks: 1 });
      else known.chunks += 1;
    }
    deltas.add(keys.page, 'docs', -1);
    if (keys.entry !== 0) deltas.add(keys.entry, 'docs', -1);
  }
  if (pairs.size > 0) {
    const list = [...pairs.values()];
    const left = await client.query<{ target: number; source: number; chunks: number }>(
      `UPDATE lexical_page_links l SET chunks = l.chunks - d.chunks FROM unnest($1::int[], $2::int[], $3::int[]) AS d(target, source, chunks)
        WHERE l.target = d.target AND l.source = d.source RETURNING l.target, l.source, l.chunks`,
      [list.map((pair) => pair.target), list.map((pair) => pair.source), list.map((pair) => pair.chunks)],
    );
    const gone = left.rows.filter((row) => row.chunks <= 0);
    if (gone.length > 0) {
      await client.query('DELETE FROM lexical_page_links l USING unnest($1::int[], $2::int[]) AS d(target, source) WHERE l.target = d.target AND l.source = d.source', [
        gone.map((row) => row.target),
        gone.map((row) => row.source),
      ]);
      for (const row of gone) deltas.add(row.target, 'pageLinks', -1);
    }
  }
  await applyDeltas(client, deltas);
  await client.query('DELETE FROM lexical_keys WHERE id = ANY($1::int[]) AND entry_links = 0 AND page_links = 0 AND docs = 0', [[...deltas.byId.keys()]]);
}

/** The ids of these keys, created when missing. */
async function ensureKeys(client: pg.ClientBase, keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  await client.query('INSERT INTO lexical_keys (key) SELECT unnest($1::text[]) ON CONFLICT (key) DO NOTHING', [keys]);
  const rows = await client.query<{ id: number; key: string }>('SELECT id, key FROM lexical_keys WHERE key = ANY($1::text[])', [keys]);
  return new Map(rows.rows.map((row) => [row.key, row.id]));
}

async function applyDeltas(client: pg.ClientBase, deltas: Deltas): Promise<void> {
  const rows = [...deltas.byId].filter(([, delta]) => delta.docs !== 0 || delta.entryLinks !== 0 || delta.pageLinks !== 0);
  if (rows.length === 0) return;
  await client.query(
    `UPDATE lexical_keys k SET docs = k.docs + d.docs, entry_links = k.entry_links + d.entry_links, page_links = k.page_links + d.page_links
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[]) AS d(id, docs, entry_links, page_links) WHERE k.id = d.id`,
    [rows.map(([id]) => id), rows.map(([, delta]) => delta.docs), rows.map(([, delta]) => delta.entryLinks), rows.map(([, delta]) => delta.pageLinks)],
  );
}

export type { LinkCounts } from '../lexical/link-counts.js';

export async function readLinkCounts(client: pg.ClientBase): Promise<LinkCounts> {
  const result = await client.query<LinkKeyRow>('SELECT id, entry_links, page_links, docs FROM lexical_keys WHERE entry_links > 0 OR page_links > 0');
  return linkCountsOf(result.rows);
}
