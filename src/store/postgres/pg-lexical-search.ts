import type pg from 'pg';
import { isStopWord } from '../../lexical/stop-words.js';
import type { TermStats, TextHit, TextQuery } from '../../core/types.js';
import { indexForm, queryTerms } from '../../lexical/analyze.js';
import { documentFrequency, type ScoringIndex, type ScoringSegment, scoreIndex } from '../lexical/bm25f.js';
import { ScopedViews, scopeKey } from '../lexical/scoped-index.js';
import { decodePostings, type PostingList } from '../lexical/segment.js';
import { scoringIndex, type StoredSegment } from '../lexical/segment-storage.js';
import { textHits } from '../lexical/text-hits.js';
import { type LinkCounts, readLinkCounts } from './pg-lexical-links.js';
import { listSegments, readDeleted, readSegment, readStats } from './pg-lexical-writer.js';
import { CHUNK_ROWS_CACHED, ChunkRowLru, POSTINGS_CACHE_BYTES, PostingsLru, type Queryable } from './pg-lexical-caches.js';
import { chunkOfRow, inTransaction } from './pg-rows.js';
import { isTransientConnectionError } from './connection.js';
import { unreachableError, type VersionWatch } from './pg-version-watch.js';


/**
 * A stored segment as the scorer reads it, for one generation of the index: its tombstones and
 * the link counts are those of that generation. Postings are those fetched for the query being
 * scored (`current`): scoring is synchronous, so the store fetches every (segment, term) the
 * query needs first, in one round trip.
 */
class PgSegment implements ScoringSegment {
  current = new Map<string, PostingList | undefined>();
  readonly count: number;
  readonly rowIds: Float64Array;
  readonly lengths: Uint16Array;
  constructor(
    readonly stored: StoredSegment,
    readonly deleted: Uint8Array | undefined,
    readonly deletedCount: number,
    private readonly links: LinkCounts,
  ) {
    this.count = stored.count;
    this.rowIds = stored.rowIds;
    this.lengths = stored.lengths;
  }

  inlinks(doc: number): number {
    const key = this.stored.linkKeys[doc * 2] as number;
    return key === 0 ? 0 : (this.links.entryLinks.get(key) ?? 0);
  }

  pageInlinks(doc: number): number {
    return this.links.pageLinks.get(this.stored.linkKeys[doc * 2 + 1] as number) ?? 0;
  }

  postings(term: string): PostingList | undefined {
    return this.current.get(term);
  }
}

interface Snapshot {
  generation: number;
  index: ScoringIndex;
  segments: PgSegment[];
}

/**
 * Lexical search over the segmented index in PostgreSQL, scored by the same BM25F code as the
 * SQLite store over the same segments, so both rank identically. A search whose generation is
 * the one this process loaded last (the version watch says so, read at most once per its
 * freshMs) reads only the postings and rows it has not read before, often nothing; a new
 * generation is loaded in one REPEATABLE READ snapshot (statistics, segment list, new segments,
 * changed tombstones). While the database is unreachable, a search is answered from memory when
 * every posting and row it needs is there.
 */
export function createPgLexicalSearch(pool: pg.Pool, watch: VersionWatch, name: string) {
  const cache = new PostingsLru(POSTINGS_CACHE_BYTES);
  const chunkRows = new ChunkRowLru(CHUNK_ROWS_CACHED);
  const known = new Map<number, StoredSegment>();
  let snapshot: Snapshot | undefined;
  const scopes = new ScopedViews();
  /** Queries while the database is unreachable: refused, so that only what is in memory answers. */
  const offline: Queryable = {
    query: () => Promise.reject(unreachableError(name, 'a search reading postings or passages')),
  } as unknown as Queryable;

  const load = async (client: pg.ClientBase): Promise<Snapshot> => {
    const stats = await readStats(client);
    if (snapshot?.generation === stats.generation) return snapshot;
    const links = await readLinkCounts(client);
    const segments: PgSegment[] = [];
    const listed = new Set<number>();
    for (const listing of await listSegments(client)) {
      listed.add(listing.id);
      let stored = known.get(listing.id);
      if (stored === undefined) known.set(listing.id, (stored = await readSegment(client, listing.id)));
      const previous = snapshot?.segments.find((segment) => segment.stored.id === listing.id);
      const deleted =
        listing.deleted_count === 0 ? undefined : previous?.deletedCount === listing.deleted_count ? previous.deleted : await readDeleted(client, listing.id);
      segments.push(new PgSegment(stored, deleted, listing.deleted_count, links));
    }
    for (const id of known.keys()) if (!listed.has(id)) known.delete(id);
    const loaded = { generation: stats.generation, index: scoringIndex(stats, links, segments), segments };
    if (snapshot === undefined || stats.generation > snapshot.generation) snapshot = loaded;
    return loaded;
  };

  /**
   * Fetches the postings of these terms in every segment (from the cache when it has them). With
   * `checkGeneration`, the same statement reads the index's generation: postings read outside a
   * snapshot belong to the segments of `loaded` only when the generation is still its own.
   */
  const fetchPostings = async (
    db: Queryable,
    loaded: Snapshot,
    terms: readonly string[],
    checkGeneration: boolean,
  ): Promise<{ fetched: Map<PgSegment, Map<string, PostingList | undefined>>; generation?: number }> => {
    const fetched = new Map<PgSegment, Map<string, PostingList | undefined>>();
    const missingSegments = new Set<number>();
    const missingTerms = new Set<string>();
    for (const segment of loaded.segments) {
      const lists = new Map<string, PostingList | undefined>();
      fetched.set(segment, lists);
      for (const term of terms) {
        const key = `${segment.stored.id}\u0000${term}`;
        if (cache.has(key)) lists.set(term, cache.get(key));
        else {
          missingSegments.add(segment.stored.id);
          missingTerms.add(term);
        }
      }
    }
    let generation: number | undefined;
    if (missingSegments.size > 0) {
      const rows = await db.query<{ generation: string; segment_id: number | null; term: string | null; postings: Buffer | null }>(
        `SELECT ${checkGeneration ? '(SELECT generation FROM lexical_stats WHERE id = 1)' : 'NULL'} AS generation, p.segment_id, p.term, p.postings
           FROM (SELECT 1) AS one LEFT JOIN lexical_postings p ON p.segment_id = ANY($1::int[]) AND p.term = ANY($2::text[])`,
        [[...missingSegments], [...missingTerms]],
      );
      if (checkGeneration) generation = Number(rows.rows[0]?.generation);
      const found = new Map<string, PostingList>();
      for (const row of rows.rows) if (row.postings !== null) found.set(`${row.segment_id}\u0000${row.term}`, decodePostings(row.postings));
      for (const segment of loaded.segments) {
        const lists = fetched.get(segment) as Map<string, PostingList | undefined>;
        for (const term of terms) {
          if (lists.has(term)) continue;
          const key = `${segment.stored.id}\u0000${term}`;
          const list = found.get(key);
          // Segments never change: their postings (or the lack of a term) stay true for their id.
          cache.set(key, list);
          lists.set(term, list);
        }
      }
    }
    return generation === undefined ? { fetched } : { fetched, generation };
  };

  /**
   * Reads through one snapshot: at once when the last snapshot's generation is still current
   * (postings not in memory are read with the generation in one statement, rows after: a
   * chunk's id is never reused, so they are the chunks scored, or gone), from memory alone while
   * the database is unreachable, else in a REPEATABLE READ transaction that loads the new
   * generation first.
   */
  const throughSnapshot = async <T>(terms: readonly string[], read: (db: Queryable, loaded: Snapshot, fetched: Map<PgSegment, Map<string, PostingList | undefined>>) => Promise<T>): Promise<T> => {
    const current = snapshot;
    if (current !== undefined) {
      // Unreachable (the watch has counted the failure): the snapshot loaded last answers from memory.
      const reading = await watch.current().catch((error: unknown) => {
        if (isTransientConnectionError(error)) return undefined;
        throw error;
      });
      if (reading === undefined || !reading.live) {
        const { fetched } = await fetchPostings(offline, current, terms, false);
        return read(offline, current, fetched);
      }
      if (reading.version.generation === current.generation) {
        try {
          const { fetched, generation } = await fetchPostings(pool, current, terms, true);
          if (generation === undefined || generation === current.generation) return await read(pool, current, fetched);
        } catch (error) {
          if (!watch.failed(error)) throw error;
          const { fetched } = await fetchPostings(offline, current, terms, false);
          return read(offline, current, fetched);
        }
      }
    }
    try {
      return await inSnapshot(async (client) => {
        const loaded = await load(client);
        const { fetched } = await fetchPostings(client, loaded, terms, false);
        return read(client, loaded, fetched);
      });
    } catch (error) {
      if (!watch.failed(error)) throw error;
      if (current === undefined) throw unreachableError(name, 'a search (this process has not loaded the index yet)', error);
      // The database went away while a newer generation was being loaded: the last one loaded answers.
      const { fetched } = await fetchPostings(offline, current, terms, false);
      return read(offline, current, fetched);
    }
  };

  const scoped = async (client: Queryable, index: ScoringIndex, sourceIds: readonly number[] | undefined): Promise<ScoringIndex> => {
    if (sourceIds === undefined) return index;
    const key = scopeKey(sourceIds);
    const view = scopes.get(index, key);
    if (view !== undefined) return view;
    const rows = await client.query<{ id: number }>('SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id = ANY($1::int[])', [[...sourceIds]]);
    return scopes.add(index, key, new Set(rows.rows.map((row) => row.id)));
  };

  /** Runs `read` in one read-only snapshot of the database. */
  const inSnapshot = <T>(read: (client: pg.ClientBase) => Promise<T>): Promise<T> => inTransaction(pool, read, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');

  /** Scoring is synchronous: the fetched postings are put in place and read in the same tick. */
  const withPostings = <T>(fetched: Map<PgSegment, Map<string, PostingList | undefined>>, score: () => T): T => {
    for (const [segment, lists] of fetched) segment.current = lists;
    try {
      return score();
    } finally {
      for (const segment of fetched.keys()) segment.current = new Map();
    }
  };

  return {
    async search(query: TextQuery): Promise<TextHit[]> {
      const terms = queryTerms(query.text, isStopWord, query.ranking.quotedWeight);
      if (terms.length === 0) return [];
      return throughSnapshot(
        terms.map((term) => term.term),
        async (db, loaded, fetched) => {
          const index = await scoped(db, loaded.index, query.sourceIds);
          const best = withPostings(fetched, () => scoreIndex(index, terms, query.ranking, query.limit, query.explain === true));
          if (best.length === 0) return [];
          const { rows, missing } = await chunkRows.rowsOf(db === offline ? undefined : db, best.map((doc) => doc.rowId));
          if (missing > 0) throw unreachableError(name, 'a passage this search found');
          return textHits(best, rows, chunkOfRow);
        },
      );
    },

    async termStats(words: readonly string[], sourceIds?: readonly number[]): Promise<TermStats> {
      const forms = words.map((word) => indexForm(word));
      return throughSnapshot(forms, async (db, loaded, fetched) => {
        const index = await scoped(db, loaded.index, sourceIds);
        return withPostings(fetched, () => ({ documents: index.documents, documentFrequency: new Map(words.map((word, position) => [word, documentFrequency(index, forms[position] as string)])) }));
      });
    },

    /** The generation of the index this process last read: what a replica serves. */
    generation: (): number => snapshot?.generation ?? 0,
  };
}
