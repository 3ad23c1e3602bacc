/**
 * 1-bit codes of unit vectors (one sign bit per component) and a Hamming-distance shortlist
 * over all of them. A code is `wordsPer` 32-bit words; a segment holds every code of an
 * index back to back, so a scan over 100k 512-bit codes is one pass over 6.4 MB.
 */

/** The codes of an index, in one packed array, with the chunk row id of each. */
export interface CodeSegment {
  /** Vector length the codes were made from. */
  dimension: number;
  /** 32-bit words per code. */
  wordsPer: number;
  rowIds: Float64Array;
  codes: Uint32Array;
}

/** Words a code of this many components takes. */
export function wordsFor(dimension: number): number {
  return Math.ceil(dimension / 32);
}

/** One bit per component (1 when positive), padded to whole 32-bit words. */
export function signBits(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(wordsFor(vector.length) * 4);
  for (let index = 0; index < vector.length; index += 1) {
    if ((vector[index] ?? 0) > 0) bytes[index >> 3] = (bytes[index >> 3] ?? 0) | (1 << (index & 7));
  }
  return bytes;
}

/** The words of one code, read from its stored bytes (little-endian, as `signBits` wrote them). */
export function codeWords(bytes: Uint8Array, wordsPer: number): Uint32Array {
  const words = new Uint32Array(wordsPer);
  new Uint8Array(words.buffer).set(bytes.subarray(0, wordsPer * 4));
  return words;
}

/** Packs codes (in row-id order) into one segment. */
export function packCodes(dimension: number, entries: readonly { rowId: number; code: Uint8Array }[]): CodeSegment {
  const wordsPer = wordsFor(dimension);
  const codes = new Uint32Array(entries.length * wordsPer);
  const bytes = new Uint8Array(codes.buffer);
  const rowIds = new Float64Array(entries.length);
  entries.forEach((entry, ordinal) => {
    rowIds[ordinal] = entry.rowId;
    bytes.set(entry.code.subarray(0, wordsPer * 4), ordinal * wordsPer * 4);
  });
  return { dimension, wordsPer, rowIds, codes };
}

/**
 * The row ids of the `k` codes nearest the query's in Hamming distance (ties broken by row id,
 * so a search is repeatable). Linear in the segment: distances first, then a histogram of them
 * finds the cut-off distance, so no sort of the whole segment.
 */
export function hammingShortlist(segment: CodeSegment, query: Float32Array, k: number): number[] {
  const { wordsPer, codes, rowIds } = segment;
  const count = rowIds.length;
  if (count === 0 || k <= 0) return [];
  const target = codeWords(signBits(query), wordsPer);
  const distances = new Uint16Array(count);
  const histogram = new Uint32Array(wordsPer * 32 + 1);
  for (let ordinal = 0, offset = 0; ordinal < count; ordinal += 1, offset += wordsPer) {
    let distance = 0;
    for (let word = 0; word < wordsPer; word += 1) {
      distance += popcount((codes[offset + word] ?? 0) ^ (target[word] ?? 0));
    }
    distances[ordinal] = distance;
    histogram[distance] = (histogram[distance] ?? 0) + 1;
  }
  // The smallest distance at which at least k codes are that near or nearer.
  let cutoff = 0;
  for (let seen = 0; cutoff < histogram.length; cutoff += 1) {
    seen += histogram[cutoff] ?? 0;
    if (seen >= k) break;
  }
  const within: number[] = [];
  for (let ordinal = 0; ordinal < count; ordinal += 1) if ((distances[ordinal] ?? 0) <= cutoff) within.push(ordinal);
  within.sort((a, b) => (distances[a] ?? 0) - (distances[b] ?? 0) || (rowIds[a] ?? 0) - (rowIds[b] ?? 0));
  return within.slice(0, k).map((ordinal) => rowIds[ordinal] ?? 0);
}

function popcount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
