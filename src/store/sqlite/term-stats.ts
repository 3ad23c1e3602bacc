import type Database from 'better-sqlite3';
import { stemmer } from 'stemmer';
import type { TermStats } from '../../core/types.js';

/**
 * Document frequencies from FTS5's own vocabulary (a temporary `fts5vocab` table, so read-only
 * connections can have it too). The index stems with Porter; words are stemmed the same way.
 */
export function termStats(database: Database.Database, prepare: (sql: string) => Database.Statement, words: readonly string[]): TermStats {
  database.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, 'chunks_fts', 'row')");
  const documents = prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  const stems = new Map<string, string>();
  for (const word of words) stems.set(word, stemmer(word.toLowerCase()));
  const lookup = prepare('SELECT doc FROM temp.chunks_vocab WHERE term = ?').pluck();
  const byStem = new Map<string, number>();
  for (const stem of new Set(stems.values())) byStem.set(stem, (lookup.get(stem) as number | undefined) ?? 0);
  const documentFrequency = new Map<string, number>();
  for (const [word, stem] of stems) documentFrequency.set(word, byStem.get(stem) ?? 0);
  return { documents, documentFrequency };
}
