import type Database from 'better-sqlite3';
import type { AnalyzedDocument } from '../lexical/segment.js';

type Prepare = (sql: string) => Database.Statement;

/** The keys of one document in lexical_keys: its entry (0 when it has none) and its page. */
export interface DocumentKeys {
  entry: number;
  page: number;
}

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

/** Link counts of the keys that have any, capped as the priors read them, and their largest values over live documents. */
export interface LinkCounts {
  entryLinks: Map<number, number>;
  pageLinks: Map<number, number>;
  maxEntryLinks: number;
  maxPageLinks: number;
}

const CAP = 65_535;

/** Reads the link counts: only keys with links (a partial index finds them), so it costs the links, not the documents. */
export function readLinkCounts(prepare: Prepare): LinkCounts {
  const rows = prepare('SELECT id, entry_links, page_links, docs FROM lexical_keys WHERE entry_links > 0 OR page_links > 0').all() as {
    id: number;
    entry_links: number;
    page_links: number;
    docs: number;
  }[];
  const counts: LinkCounts = { entryLinks: new Map(), pageLinks: new Map(), maxEntryLinks: 0, maxPageLinks: 0 };
  for (const row of rows) {
    const entry = Math.min(row.entry_links, CAP);
    const page = Math.min(row.page_links, CAP);
    if (entry > 0) counts.entryLinks.set(row.id, entry);
    if (page > 0) counts.pageLinks.set(row.id, page);
    // The largest count over live documents: a key no document uses sets no maximum.
    if (row.docs > 0) {
      counts.maxEntryLinks = Math.max(counts.maxEntryLinks, entry);
      counts.maxPageLinks = Math.max(counts.maxPageLinks, page);
    }
  }
  return counts;
}
