import type Database from 'better-sqlite3';
import type { ScoringIndex, ScoringSegment } from '../lexical/bm25f.js';
import type { PostingList } from '../lexical/segment.js';
import { scoringIndex } from '../lexical/segment-storage.js';
import { type LinkCounts, readLinkCounts } from './lexical-links.js';
import { listSegments, PostingsCache, readDeleted, readSegment, readStats, type StoredSegment } from './lexical-segment-rows.js';

type Prepare = (sql: string) => Database.Statement;

/** Decoded postings kept in memory at most (bytes): what bounds a reader's memory besides the per-document arrays. */
export const POSTINGS_CACHE_BYTES = 64 * 1024 * 1024;

/** A stored segment as the scorer reads it. Its tombstones and the link counts are updated in place between searches. */
class SqliteSegment implements ScoringSegment {
  deleted: Uint8Array | undefined;
  deletedCount = 0;
  links: LinkCounts = { entryLinks: new Map(), pageLinks: new Map(), maxEntryLinks: 0, maxPageLinks: 0 };
  readonly count: number;
  readonly rowIds: Float64Array;
  readonly lengths: Uint16Array;
  private readonly linkKeys: Uint32Array;

  constructor(
    stored: StoredSegment,
    private readonly prepare: Prepare,
    private readonly cache: PostingsCache,
  ) {
    this.count = stored.count;
    this.rowIds = stored.rowIds;
    this.lengths = stored.lengths;
    this.linkKeys = stored.linkKeys;
    this.id = stored.id;
  }

  readonly id: number;

  inlinks(doc: number): number {
    const key = this.linkKeys[doc * 2] as number;
    return key === 0 ? 0 : (this.links.entryLinks.get(key) ?? 0);
  }

  pageInlinks(doc: number): number {
    return this.links.pageLinks.get(this.linkKeys[doc * 2 + 1] as number) ?? 0;
  }

  postings(term: string): PostingList | undefined {
    return this.cache.get(this.id, term, () => this.prepare('SELECT postings FROM lexical_postings WHERE segment_id = ? AND term = ?').pluck().get(this.id, term) as Buffer | undefined);
  }
}

/**
 * Reads the segmented index: a snapshot of the segment list, tombstones, statistics and link
 * counts, taken again whenever the index's generation changed (a commit by any writer, in this
 * process or another). Call `snapshot` inside a read transaction, and score inside the same one:
 * the postings it reads then belong to the segments it lists. Segments already known are not
 * read again; their postings come through one bounded cache.
 */
export function createLexicalReader(prepare: Prepare, cacheBytes = POSTINGS_CACHE_BYTES) {
  const cache = new PostingsCache(cacheBytes);
  const known = new Map<number, SqliteSegment>();
  let current: { generation: number; index: ScoringIndex } | undefined;

  return {
    snapshot(): ScoringIndex {
      const stats = readStats(prepare);
      if (current?.generation === stats.generation) return current.index;
      const links = readLinkCounts(prepare);
      const segments: SqliteSegment[] = [];
      const listed = new Set<number>();
      for (const listing of listSegments(prepare)) {
        listed.add(listing.id);
        let segment = known.get(listing.id);
        if (segment === undefined) known.set(listing.id, (segment = new SqliteSegment(readSegment(prepare, listing.id), prepare, cache)));
        if (segment.deletedCount !== listing.deleted_count) {
          segment.deleted = listing.deleted_count === 0 ? undefined : readDeleted(prepare, listing.id);
          segment.deletedCount = listing.deleted_count;
        }
        segment.links = links;
        segments.push(segment);
      }
      for (const id of known.keys()) if (!listed.has(id)) known.delete(id);
      const index = scoringIndex(stats, links, segments);
      current = { generation: stats.generation, index };
      return index;
    },
  };
}
