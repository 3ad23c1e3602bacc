import { FIELD_COUNT } from './fields.js';

/**
 * A term's BM25F weighted count in one document: each field's count times its weight, over the
 * field's length norm. `position` is the document's place in the term's list (its `tfs` rows),
 * `doc` its ordinal in the segment (its `norms` row). The one place the scorer, its pruning and
 * the list bounds compute it, so their scores and bounds agree to the last bit.
 */
export function weightedCount(tfs: Uint8Array, position: number, norms: Float32Array, doc: number, weights: readonly number[]): number {
  let weighted = 0;
  const at = position * FIELD_COUNT;
  const normAt = doc * FIELD_COUNT;
  for (let field = 0; field < FIELD_COUNT; field += 1) {
    const tf = tfs[at + field] as number;
    if (tf !== 0) weighted += ((weights[field] as number) * tf) / (norms[normAt + field] as number);
  }
  return weighted;
}
