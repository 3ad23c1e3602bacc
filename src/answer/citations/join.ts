import { trimUrl, urlRunAt, type Token } from './tokenize.js';

/**
 * Joins the rendered pieces of a sentence. Removing or replacing a piece can glue text into
 * a link nothing checked, so a space goes in where that happens:
 * - an `https://` made of several pieces ("http" + removed "[9]" + "s://x") is split at the
 *   last piece boundary inside it;
 * - a checked bare URL that would now run on into changed text ("https://d/a" + removed
 *   "[9]" + "foo") is ended at the first changed boundary inside the run.
 * With `stable` (the number of pieces no later text can change), returns only the start of
 * the text that later text cannot change either: splits are placed so that the text before
 * them never depends on what comes after.
 */
export function joinPieces(tokens: readonly Token[], pieces: readonly string[], stable?: number): string {
  const starts: number[] = [];
  let offset = 0;
  for (const piece of pieces) {
    starts.push(offset);
    offset += piece.length;
  }
  const text = pieces.join('');
  const end = stable === undefined ? text.length : (starts[stable] ?? text.length);
  const boundaries = [...new Set(starts.slice(1))].filter((position) => position > 0 && position < text.length);
  const changed = new Set<number>();
  pieces.forEach((piece, index) => {
    if (piece === tokens[index]?.raw) return;
    changed.add(starts[index] ?? 0);
    changed.add((starts[index] ?? 0) + piece.length);
  });
  const splits = new Set<number>();
  let limit = end;
  for (const match of text.matchAll(/https?:\/\//gi)) {
    const start = match.index;
    // The last boundary inside the match, if any: boundaries are sorted.
    const before = lowerBound(boundaries, start + match[0].length) - 1;
    const inside = boundaries[before];
    if (inside !== undefined && inside > start) {
      splits.add(inside);
      continue;
    }
    const owner = upperBound(starts, start) - 1;
    if (tokens[owner]?.kind !== 'url' || start >= (starts[owner] ?? 0) + (pieces[owner]?.length ?? 0)) continue;
    const pieceEnd = (starts[owner] ?? 0) + (pieces[owner]?.length ?? 0);
    const run = urlRunAt(text, start) ?? '';
    const firstChanged = (stop: number): number | undefined => {
      for (let index = lowerBound(boundaries, pieceEnd); index < boundaries.length; index += 1) {
        const position = boundaries[index] ?? stop;
        if (position >= stop) return undefined;
        if (changed.has(position)) return position;
      }
      return undefined;
    };
    if (stable !== undefined && start + run.length >= end) {
      // Where the run stops is not known yet: emit nothing from its first changed boundary on.
      const unsure = firstChanged(end);
      if (unsure !== undefined) limit = Math.min(limit, unsure);
      continue;
    }
    const split = firstChanged(start + trimUrl(run).length);
    if (split !== undefined) splits.add(split);
  }
  let out = '';
  let from = 0;
  for (const split of [...splits].sort((a, b) => a - b)) {
    if (split >= limit) break;
    out += `${text.slice(from, split)} `;
    from = split;
  }
  return out + text.slice(from, limit);
}

/** Index of the first value not less than `value` in a sorted list. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? 0) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Index of the first value greater than `value` in a sorted list. */
function upperBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
