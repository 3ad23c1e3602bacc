import type Database from 'better-sqlite3';
import { type LinkCounts, linkCountsOf, type LinkKeyRow } from '../lexical/link-counts.js';
import type { AnalyzedDocument } from '../lexical/segment.js';
import type { DocumentKeys } from '../lexical/segment-storage.js';

type Prepare = (sql: string) => Database.Statement;

export type { DocumentKeys } from '../lexical/segment-storage.js';

/**
 * Keeps the link counts of the whole index right as documents come and go, so the link priors
 * need no rebuild: a link is counted at its target (lexical_keys.entry_links), and a pair of
 * pages (linked, linking) lives in lexical_page_links while a chunk of the linking page links
 * into the other, which counts it once at its target (lexical_keys.page_links). A page whose
 * inbound links change because ANOTHER page changed is right at once: its documents hold the
 * key, never the count. Call inside the transaction that adds or deletes the documents.
 */
export function createLinkCounts(prepare: Prepare) {
  const keyId = (key: string): number =>
    (prepare('SELECT id FROM lexical_keys WHERE key = ?').pluck().get(key) as number | undefined) ??
    (prepare('INSERT INTO lexical_keys (key) VALUES (?) RETURNING id').pluck().get(key) as number);
  const changeDocs = (id: number, delta: number) => prepare('UPDATE lexical_keys SET docs = docs + ? WHERE id = ?').run(delta, id);
  const changeEntryLinks = (id: number, delta: number) => prepare('UPDATE lexical_keys SET entry_links = entry_links + ? WHERE id = ?').run(delta, id);
  const changePageLinks = (id: number, delta: number) => prepare('UPDATE lexical_keys SET page_links = page_links + ? WHERE id = ?').run(delta, id);
  const dropIfUnused = (id: number) => prepare('DELETE FROM lexical_keys WHERE id = ? AND entry_links = 0 AND page_links = 0 AND docs = 0').run(id);

  return {
    /** Counts a new document's links and use of its keys; the keys it is to keep. */
    add(document: AnalyzedDocument, pageUrl: string): DocumentKeys {
      const page = keyId(pageUrl);
      const entry = document.entry === undefined ? 0 : keyId(document.entry);
      changeDocs(page, 1);
      if (entry !== 0) changeDocs(entry, 1);
      for (const link of document.links) changeEntryLinks(keyId(link), 1);
      for (const linked of document.linkedPages) {
        const target = keyId(linked);
        const chunks = prepare('INSERT INTO lexical_page_links (target, source, chunks) VALUES (?, ?, 1) ON CONFLICT DO UPDATE SET chunks = chunks + 1 RETURNING chunks')
          .pluck()
          .get(target, page) as number;
        if (chunks === 1) changePageLinks(target, 1);
      }
      return { entry, page };
    },
    /** Takes back what `add` counted for a document that is deleted. */
    remove(document: AnalyzedDocument, keys: DocumentKeys): void {
      const lookup = prepare('SELECT id FROM lexical_keys WHERE key = ?').pluck();
      for (const link of document.links) {
        const id = lookup.get(link) as number | undefined;
        if (id === undefined) continue;
        changeEntryLinks(id, -1);
        dropIfUnused(id);
      }
      for (const linked of document.linkedPages) {
        const target = lookup.get(linked) as number | undefined;
        if (target === undefined) continue;
        const chunks = prepare('UPDATE lexical_page_links SET chunks = chunks - 1 WHERE target = ? AND source = ? RETURNING chunks').pluck().get(target, keys.page) as number | undefined;
        if (chunks === 0) {
          prepare('DELETE FROM lexical_page_links WHERE target = ? AND source = ?').run(target, keys.page);
          changePageLinks(target, -1);
          dropIfUnused(target);
        }
      }
      changeDocs(keys.page, -1);
      dropIfUnused(keys.page);
      if (keys.entry !== 0) {
        changeDocs(keys.entry, -1);
        dropIfUnused(keys.entry);
      }
    },
  };
}

export type { LinkCounts } from '../lexical/link-counts.js';

/** Reads the link counts: only keys with links (a partial index finds them), so it costs the links, not the documents. */
export function readLinkCounts(prepare: Prepare): LinkCounts {
  return linkCountsOf(prepare('SELECT id, entry_links, page_links, docs FROM lexical_keys WHERE entry_links > 0 OR page_links > 0').all() as LinkKeyRow[]);
}
