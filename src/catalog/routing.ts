import { normaliseLibraryName } from './names.js';

/**
 * The libraries a question names by a whole word ("pytest fixture teardown" → pytest), so an
 * unscoped search can rank their passages first. Names shorter than 3 letters never count:
 * they are words of everyday questions more often than names.
 */
export function librariesNamedIn(question: string, libraries: readonly string[]): string[] {
  const words = question.toLowerCase().split(/[^\p{L}\p{N}+#]+/u).filter(Boolean);
  const text = ` ${words.join(' ')} `;
  const compactWords = new Set(words);
  return [...new Set(libraries)].filter((library) => {
    const name = normaliseLibraryName(library);
    if (name.replace(/-/g, '').length < 3) return false;
    return compactWords.has(name.replace(/-/g, '')) || text.includes(` ${name.split('-').join(' ')} `);
  });
}
