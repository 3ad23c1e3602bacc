import { FIELD_COUNT } from './fields.js';

/**
 * Field lengths summed over documents, to take their means from. A field's mean length is over
 * the documents that have the field (Lucene's average field length: total terms over the
 * documents with a value), not over every document. BM25F measures a field against its
 * mean: averaged over every document, the mean of a field few passages have (code, an API's
 * name) falls and rises with how many passages lack it, so adding prose pages shortened every
 * code block's mean and made each code block read as long. Averaged over the passages that
 * have code, a code block is measured against other code blocks.
 */
export class FieldLengths {
  readonly #totals = new Array<number>(FIELD_COUNT).fill(0);
  readonly #withField = new Array<number>(FIELD_COUNT).fill(0);

  /** Adds one document's field lengths (`lengths[doc × FIELD_COUNT + field]`). */
  add(lengths: ArrayLike<number>, doc: number): void {
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const length = lengths[doc * FIELD_COUNT + field] as number;
      if (length === 0) continue;
      this.#totals[field] = (this.#totals[field] as number) + length;
      this.#withField[field] = (this.#withField[field] as number) + 1;
    }
  }

  /** Each field's mean length over the documents that have it; 0 for a field none has. */
  means(): number[] {
    return this.#totals.map((total, field) => ((this.#withField[field] as number) === 0 ? 0 : total / (this.#withField[field] as number)));
  }
}
