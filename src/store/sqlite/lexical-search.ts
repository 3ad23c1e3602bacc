import type Database from 'better-sqlite3';
import { isStopWord } from '../../lexical/stop-words.js';
import type { TermStats, TextHit, TextQuery } from '../../core/types.js';
import { indexForm, queryTerms } from '../../lexical/analyze.js';
import { documentFrequency, type ScoringIndex, scoreIndex } from '../lexical/bm25f.js';
import { ScopedViews, scopeKey } from '../lexical/scoped-index.js';
import { textHits } from '../lexical/text-hits.js';
import { type ChunkRow, chunkOfRow } from '../chunk-rows.js';

type Prepare = (sql: string) => Database.Statement;

interface IdChunkRow extends ChunkRow {
  id: number;
}

/** Runs a read over one consistent view of the index (a snapshot of its segments). */
type ReadIndex = <T>(read: (index: ScoringIndex) => T) => T;

/** Lexical search over the stored index: score with BM25F over every segment, then read only the winners' rows. */
export function createLexicalSearch(prepare: Prepare, readIndex: ReadIndex) {
  // One scoped view per (snapshot, set of sources): a new snapshot (the chunks changed) starts afresh.
  const scopes = new ScopedViews();
  const scoped = (index: ScoringIndex, sourceIds: readonly number[] | undefined): ScoringIndex => {
    if (sourceIds === undefined) return index;
    const key = scopeKey(sourceIds);
    const view = scopes.get(index, key);
    if (view !== undefined) return view;
    const rowIds = prepare('SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(sourceIds)) as number[];
    return scopes.add(index, key, new Set(rowIds));
  };
  return {
    search(query: TextQuery): TextHit[] {
      const terms = queryTerms(query.text, isStopWord, query.ranking.quotedWeight);
      if (terms.length === 0) return [];
      // Rows are read in the same transaction as the scores: a row id always names the chunk that was scored.
      const { scored, rows } = readIndex((index) => {
        const best = scoreIndex(scoped(index, query.sourceIds), terms, query.ranking, query.limit, query.explain === true);
        const found =
          best.length === 0
            ? []
            : (prepare(
                `SELECT c.id, c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash
                   FROM chunks c JOIN pages p ON p.id = c.page_id
                  WHERE c.id IN (SELECT value FROM json_each(?))`,
              ).all(JSON.stringify(best.map((doc) => doc.rowId))) as IdChunkRow[]);
        return { scored: best, rows: found };
      });
      return textHits(scored, rows, chunkOfRow);
    },
    termStats(words: readonly string[], sourceIds?: readonly number[]): TermStats {
      return readIndex((whole) => {
        const index = scoped(whole, sourceIds);
        return { documents: index.documents, documentFrequency: new Map(words.map((word) => [word, documentFrequency(index, indexForm(word))])) };
      });
    },
  };
}
