import type { Chunk, TextField, TextHit } from '../../core/types.js';
import { FIELDS } from './fields.js';
import type { ScoredHit } from './scoring-types.js';

/**
 * The hits of a search, in score order, from the winners and their rows as read (by row id): a
 * winner whose row is gone is left out. Each store reads the rows its own way; the hits are made here.
 */
export function textHits<Row extends { id: number }>(scored: readonly ScoredHit[], rows: readonly Row[], chunkOf: (row: Row) => Chunk): TextHit[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return scored.flatMap((doc) => {
    const row = byId.get(doc.rowId);
    if (row === undefined) return [];
    const hit: TextHit = { chunk: chunkOf(row), bm25: doc.score };
    if (doc.fields !== undefined) hit.fields = Object.fromEntries(FIELDS.map((field, position) => [field, doc.fields?.[position] ?? 0])) as Record<TextField, number>;
    if (doc.prior !== undefined) hit.prior = doc.prior;
    return [hit];
  });
}
