import { normaliseLibraryName } from './names.js';

export interface LibraryCandidate {
  library: string;
  /** How close the name is to what was typed, in (0, 1]: 1 is the same name. */
  score: number;
}

/**
 * The libraries a name as typed may mean, best first: the same name in another case or with
 * `-`, `_`, `.` or spaces for one another; then one with the separators left out or in; then
 * one a typo away (a letter added, left out, changed or two swapped); then a name that
 * contains the typed one or is contained in it. Names further away are not candidates.
 */
export function rankLibraries(typed: string, libraries: readonly string[]): LibraryCandidate[] {
  const wanted = normaliseLibraryName(typed);
  const compact = wanted.replace(/-/g, '');
  if (compact === '') return [];
  const candidates: LibraryCandidate[] = [];
  for (const library of new Set(libraries)) {
    const name = normaliseLibraryName(library);
    const nameCompact = name.replace(/-/g, '');
    let score = 0;
    if (library === typed.trim()) score = 1;
    else if (name === wanted) score = 0.98;
    else if (nameCompact === compact) score = 0.95;
    else {
      const distance = editDistance(compact, nameCompact);
      const allowed = compact.length <= 4 ? 1 : 2;
      if (distance <= allowed) score = 0.9 - 0.15 * (distance - 1) - 0.01 * Math.abs(compact.length - nameCompact.length);
      else if (compact.length >= 3 && (nameCompact.includes(compact) || compact.includes(nameCompact))) score = 0.6 * (Math.min(compact.length, nameCompact.length) / Math.max(compact.length, nameCompact.length)) + 0.1;
    }
    if (score > 0) candidates.push({ library, score: Math.round(score * 1000) / 1000 });
  }
  return candidates.sort((a, b) => b.score - a.score || a.library.localeCompare(b.library));
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps each cost 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  const at = (row: number, column: number): number => table[row]?.[column] ?? Number.POSITIVE_INFINITY;
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) best = Math.min(best, at(row - 2, column - 2) + 1);
      const line = table[row];
      if (line !== undefined) line[column] = best;
    }
  }
  return at(a.length, b.length);
}
