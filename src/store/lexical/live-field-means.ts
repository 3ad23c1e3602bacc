import { isDeleted } from './bm25f.js';
import { FieldLengths } from './field-lengths.js';
import type { ScoringSegment } from './scoring-types.js';

/** Mean field lengths over the live documents of these segments (`FieldLengths`: over those that have each field). */
export function liveFieldMeans(segments: readonly ScoringSegment[]): number[] {
  const lengths = new FieldLengths();
  for (const segment of segments) {
    for (let doc = 0; doc < segment.count; doc += 1) if (!isDeleted(segment.deleted, doc)) lengths.add(segment.lengths, doc);
  }
  return lengths.means();
}
