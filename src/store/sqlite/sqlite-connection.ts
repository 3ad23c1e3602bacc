import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { StoreError } from '../../core/errors.js';
import { type ChunkRow, chunkOfRow } from '../chunk-rows.js';
import type { Chunk, Page } from '../../core/types.js';
import type { Store, StoredPage, StoreStats, UpsertOutcome } from '../store.js';
import { createCatalogStore } from './catalog-store.js';
import { createCrawlState } from './crawl-state.js';
import { guardStore } from './sqlite-errors.js';
import { createLexicalIndexStore } from './lexical-index.js';
import { createLexicalSearch } from './lexical-search.js';
import { createSqliteVectorStore, upgradeVectorTables } from './sqlite-vectors.js';
import { type OpenMode, openDatabase } from './open-database.js';
import type { Synchronous } from './synchronous.js';
import { pageOfRow, type PageRow } from '../rows.js';

/** One connection to the index file: the store's methods, run synchronously, each read or write one transaction. */
export interface SqliteConnection extends Synchronous<Store> {
  readonly writable: boolean;
  /** Indexes what waits (chunks not yet in a lexical segment, vectors not yet in the packed codes), so other connections see it; whether it had to. */
  flush(): boolean;
}

/** Opens one connection to a SQLite index file (in write mode: created or upgraded in place). */
export function openSqliteConnection(path: string, mode: OpenMode): SqliteConnection {
  const database = openDatabase(path, mode);
  if (mode === 'write') upgradeVectorTables(database);
  // Statements are compiled once: a re-crawl asks for every page, and compiling dominated it.
  const compiled = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = compiled.get(sql);
    if (statement === undefined) {
      statement = database.prepare(sql);
      compiled.set(sql, statement);
    }
    return statement;
  };
  const statements = mode === 'write' ? prepareWrites(prepare) : undefined;
  const lexical = createLexicalIndexStore(database, prepare, mode === 'write');
  const lexicalSearch = createLexicalSearch(prepare, (read) => lexical.read(read));
  const crawlState = createCrawlState(database, path);
  const catalog = createCatalogStore(prepare, () => {
    if (mode !== 'write') throw new StoreError(`${path} is open read-only.`, path);
  });

  const deletePage = (pageId: number) => {
    if (statements === undefined) throw new StoreError(`${path} is open read-only.`, path);
    lexical.pageRemoving(pageId);
    statements.deleteChunks.run(pageId);
    lexical.chunksChanged();
    statements.deleteAnchors.run(pageId);
    statements.deleteAliases.run(pageId);
    statements.deletePage.run(pageId);
  };
  const remove = database.transaction((url: string): boolean => {
    const existing = statements?.findPage.get(url) as { id: number } | undefined;
    if (existing === undefined) return false;
    deletePage(existing.id);
    return true;
  });

  const upsert = database.transaction((page: Page, chunks: readonly Chunk[], rechunked: boolean, sourceId: number | undefined): UpsertOutcome => {
    if (statements === undefined) throw new StoreError(`${path} is open read-only.`, path);
    const existing = statements.findPage.get(page.url) as { id: number; content_hash: string; source_id: number | null } | undefined;
    // A page that moves to another source (re-ingested under another library or version) is rewritten whole,
    // so the scoped views of the lexical index, built from chunk rows, see the move.
    const moved = existing !== undefined && sourceId !== undefined && existing.source_id !== sourceId;
    if (existing?.content_hash === page.contentHash && !rechunked && !moved) {
      statements.refreshPage.run(page.fetchedAt, page.etag ?? null, page.lastModified ?? null, JSON.stringify(page.links ?? []), existing.id);
      for (const alias of page.aliases ?? []) if (alias !== page.url) statements.insertAlias.run(alias, existing.id);
      return 'unchanged';
    }
    if (existing !== undefined) deletePage(existing.id);
    const pageId = Number(
      statements.insertPage.run(
        page.url, page.canonicalUrl, page.title, page.markdown, JSON.stringify(page.headings), page.contentHash,
        page.etag ?? null, page.lastModified ?? null, page.fetchedAt, page.source, page.sourcePath ?? null, JSON.stringify(page.links ?? []), page.chunking ?? null,
        sourceId ?? existing?.source_id ?? null,
      ).lastInsertRowid,
    );
    // The anchor map holds the ids the page really has (extraction lists every one), never a
    // heading's anchor taken on trust: a citation is checked against what the page serves.
    for (const anchor of new Set(page.anchors)) statements.insertAnchor.run(pageId, anchor);
    for (const alias of page.aliases ?? []) if (alias !== page.url) statements.insertAlias.run(alias, pageId);
    lexical.chunksChanged();
    const chunkIds = chunks.map((chunk, ordinal) =>
      Number(
        statements.insertChunk.run(
          chunk.id, pageId, ordinal, chunk.anchor ?? null, JSON.stringify(chunk.headingPath), chunk.pageTitle,
          chunk.headingPath.join(' > '), chunk.text, chunk.tokenCount, chunk.contentHash,
        ).lastInsertRowid,
      ),
    );
    lexical.chunksAdded(chunkIds);
    return existing === undefined ? 'added' : 'changed';
  });

  let failed = false;
  const guard = <T>(action: () => T): T => {
    try {
      return guardStore(path, action);
    } catch (error) {
      failed = true;
      throw error;
    }
  };

  const vectors = createSqliteVectorStore(database, prepare, path, mode === 'write');
  return {
    writable: mode === 'write',
    upsertPage: (page, chunks, options) =>
      guard(() => {
        const outcome = upsert(page, chunks, options?.rechunked === true, options?.sourceId);
        lexical.flushIfDue();
        return outcome;
      }),
    searchText: (query) => guard(() => lexicalSearch.search(query)),
    termStats: (words, sourceIds) => guard(() => lexicalSearch.termStats(words, sourceIds)),
    getPage: (url) => guard(() => getPage(prepare, url)),
    resolvePageUrl: (url) => guard(() => resolvePageUrl(prepare, url)),
    resolveFirstPageUrl: (urls) =>
      guard(() => {
        for (const url of urls) {
          const found = resolvePageUrl(prepare, url);
          if (found !== undefined) return found;
        }
        return undefined;
      }),
    confirmPage: (url, fetchedAt) =>
      guard(() => {
        const row = statements?.confirmPage.get(fetchedAt, url) as { chunks: number } | undefined;
        return row?.chunks;
      }),
    removePage: (url) => guard(() => remove(url)),
    pageUrlWithContent: (contentHash) => guard(() => prepare('SELECT url FROM pages WHERE content_hash = ? ORDER BY id LIMIT 1').pluck().get(contentHash) as string | undefined),
    addAlias: (pageUrl, alias) =>
      guard(() => {
        prepare('INSERT OR REPLACE INTO page_aliases (alias, page_id) SELECT ?, id FROM pages WHERE url = ?').run(alias, pageUrl);
      }),
    pageUrlsUnder: (prefix, source) =>
      guard(
        () =>
          prepare('SELECT url FROM pages WHERE substr(url, 1, length(?)) = ? AND (? IS NULL OR source = ?) ORDER BY url')
            .pluck()
            .all(prefix, prefix, source ?? null, source ?? null) as string[],
      ),
    crawlState,
    catalog: {
      upsertSource: (input) => guard(() => catalog.upsertSource(input)),
      renameSource: (id, library) => guard(() => catalog.renameSource(id, library)),
      recordCrawl: (id, endedAt) => guard(() => catalog.recordCrawl(id, endedAt)),
      listSources: () => guard(() => catalog.listSources()),
      sourceNames: () => guard(() => catalog.sourceNames()),
      sourceLabels: (urls) => guard(() => catalog.sourceLabels(urls)),
      pageUrlsOfSource: (id) => guard(() => catalog.pageUrlsOfSource(id)),
      deleteSource: (id) => guard(() => catalog.deleteSource(id)),
      startJob: (job) => guard(() => catalog.startJob(job)),
      updateJob: (id, update) => guard(() => catalog.updateJob(id, update)),
      listJobs: () => guard(() => catalog.listJobs()),
    },
    vectors,
    chunksOf: (url) =>
      guard(() =>
        (
          prepare(
            `SELECT c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash
               FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.url = ? ORDER BY c.ordinal`,
          ).all(url) as ChunkRow[]
        ).map(chunkOfRow),
      ),
    anchorsOf: (url) =>
      guard(() => {
        const rows = prepare('SELECT a.anchor FROM anchors a JOIN pages p ON p.id = a.page_id WHERE p.url = ?').pluck().all(url) as string[];
        return new Set(rows);
      }),
    pagesWithAnchor: (anchor) =>
      guard(() => prepare('SELECT p.url FROM anchors a JOIN pages p ON p.id = a.page_id WHERE a.anchor = ? ORDER BY p.url').pluck().all(anchor) as string[]),
    stats: () => guard(() => stats(prepare, path, crawlState.latestRuns())),
    hasChunks: () => guard(() => prepare('SELECT EXISTS (SELECT 1 FROM chunks)').pluck().get() === 1),
    flush: () => {
      if (mode !== 'write' || !database.open) return false;
      return guard(() => {
        const indexed = lexical.refresh();
        return vectors.refreshCodes() || indexed;
      });
    },
    // A writer's last chunks are indexed before it lets go, so readers of the file see every page it stored.
    // A connection whose write failed (a full disk) writes nothing more: the next writer flushes what waits.
    close: () => {
      try {
        if (mode === 'write' && database.open && !failed) guard(() => {
          lexical.refresh();
          vectors.refreshCodes();
        });
      } finally {
        database.close();
      }
    },
  };
}

function prepareWrites(prepare: (sql: string) => Database.Statement) {
  return {
    findPage: prepare('SELECT id, content_hash, source_id FROM pages WHERE url = ?'),
    refreshPage: prepare('UPDATE pages SET fetched_at = ?, etag = ?, last_modified = ?, links = ? WHERE id = ?'),
    confirmPage: prepare('UPDATE pages SET fetched_at = ? WHERE url = ? RETURNING (SELECT count(*) FROM chunks c WHERE c.page_id = pages.id) AS chunks'),
    deleteChunks: prepare('DELETE FROM chunks WHERE page_id = ?'),
    deleteAnchors: prepare('DELETE FROM anchors WHERE page_id = ?'),
    deleteAliases: prepare('DELETE FROM page_aliases WHERE page_id = ?'),
    deletePage: prepare('DELETE FROM pages WHERE id = ?'),
    insertPage: prepare(
      `INSERT INTO pages (url, canonical_url, title, markdown, headings, content_hash, etag, last_modified, fetched_at, source, source_path, links, chunking, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertAnchor: prepare('INSERT OR IGNORE INTO anchors (page_id, anchor) VALUES (?, ?)'),
    insertAlias: prepare('INSERT OR REPLACE INTO page_aliases (alias, page_id) VALUES (?, ?)'),
    insertChunk: prepare(
      `INSERT INTO chunks (chunk_key, page_id, ordinal, anchor, heading_path, title, headings, text, token_count, content_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}

function getPage(prepare: (sql: string) => Database.Statement, url: string): StoredPage | undefined {
  const row = prepare(
      `SELECT url, title, content_hash, source, fetched_at, etag, last_modified, links, headings, chunking,
              (SELECT count(*) FROM chunks c WHERE c.page_id = pages.id) AS chunk_count
         FROM pages WHERE url = ?`,
    )
    .get(url) as PageRow | undefined;
  return row === undefined ? undefined : pageOfRow(row);
}

function resolvePageUrl(prepare: (sql: string) => Database.Statement, url: string): string | undefined {
  return prepare('SELECT url FROM pages WHERE url = ? UNION ALL SELECT p.url FROM page_aliases a JOIN pages p ON p.id = a.page_id WHERE a.alias = ? LIMIT 1').pluck().get(url, url) as string | undefined;
}

function stats(prepare: (sql: string) => Database.Statement, path: string, ingests: StoreStats['ingests']): StoreStats {
  const count = (table: string) => (prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number);
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += statSync(file).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return { pages: count('pages'), chunks: count('chunks'), anchors: count('anchors'), bytes, ingests };
}
