import { isDeleted, type ScoringIndex, type ScoringSegment } from './bm25f.js';
import { FieldLengths } from './field-lengths.js';

/**
 * The part of an index that holds only the allowed documents (the chunks of some sources):
 * every other document counts as deleted, and the document count, mean field lengths and link
 * maxima are those of the allowed live documents. BM25F then scores a scoped search exactly as
 * it would score an index of those sources alone, and its top-k is filled from them only
 * (filtering inside retrieval, not after it).
 */
export function scopedIndex(index: ScoringIndex, allowedRowIds: ReadonlySet<number>): ScoringIndex {
  let documents = 0;
  let maxInlinks = 0;
  let maxPageInlinks = 0;
  const lengths = new FieldLengths();
  const segments = index.segments.map((segment): ScoringSegment => {
    const deleted = new Uint8Array(Math.ceil(segment.count / 8));
    for (let doc = 0; doc < segment.count; doc += 1) {
      if (isDeleted(segment.deleted, doc) || !allowedRowIds.has(segment.rowIds[doc] as number)) {
        deleted[doc >> 3] = (deleted[doc >> 3] as number) | (1 << (doc & 7));
        continue;
      }
      documents += 1;
      lengths.add(segment.lengths, doc);
      maxInlinks = Math.max(maxInlinks, segment.inlinks(doc));
      maxPageInlinks = Math.max(maxPageInlinks, segment.pageInlinks(doc));
    }
    return {
      count: segment.count,
      rowIds: segment.rowIds,
      lengths: segment.lengths,
      deleted,
      inlinks: (doc) => segment.inlinks(doc),
      pageInlinks: (doc) => segment.pageInlinks(doc),
      postings: (term) => segment.postings(term),
    };
  });
  return { documents, averageLengths: lengths.means(), maxInlinks, maxPageInlinks, segments };
}

/** The sources a scoped view holds, as one key: the same set in any order or with repeats names the same view. */
export const scopeKey = (sourceIds: readonly number[]): string => [...new Set(sourceIds)].sort((x, y) => x - y).join(',');

/** Scoped views of each snapshot of an index, by scope key: a new snapshot (the chunks changed) starts afresh, and at most 16 are kept per snapshot. */
export class ScopedViews {
  private readonly views = new WeakMap<ScoringIndex, Map<string, ScoringIndex>>();

  get(index: ScoringIndex, key: string): ScoringIndex | undefined {
    return this.views.get(index)?.get(key);
  }

  /** Makes and keeps the view of `index` over the chunks of the scope `key` names. */
  add(index: ScoringIndex, key: string, allowedRowIds: ReadonlySet<number>): ScoringIndex {
    let views = this.views.get(index);
    if (views === undefined) this.views.set(index, (views = new Map()));
    const view = scopedIndex(index, allowedRowIds);
    if (views.size >= 16) views.clear();
    views.set(key, view);
    return view;
  }
}
