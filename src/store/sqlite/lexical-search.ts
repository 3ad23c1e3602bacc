import type Database from 'better-sqlite3';
import { isStopWord } from '../../lexical/stop-words.js';
import type { TermStats, TextField, TextHit, TextQuery } from '../../core/types.js';
import { indexForm, queryTerms } from '../../lexical/analyze.js';
import { documentFrequency, type ScoringIndex, scoreIndex } from '../lexical/bm25f.js';
import { FIELDS } from '../lexical/fields.js';
import { type ChunkRow, chunkOfRow } from './chunk-rows.js';
import { scopedIndex } from './scoped-index.js';

type Prepare = (sql: string) => Database.Statement;

interface IdChunkRow extends ChunkRow {
  id: number;
}

/** Runs a read over one consistent view of the index (a snapshot of its segments). */
type ReadIndex = <T>(read: (index: ScoringIndex) => T) => T;

/** Lexical search over the stored index: score with BM25F over every segment, then read only the winners' rows. */
export function createLexicalSearch(prepare: Prepare, readIndex: ReadIndex) {
  // One scoped view per (snapshot, set of sources): a new snapshot (the chunks changed) starts afresh.
  const scopes = new WeakMap<ScoringIndex, Map<string, ScoringIndex>>();
  const scoped = (index: ScoringIndex, sourceIds: readonly number[] | undefined): ScoringIndex => {
    if (sourceIds === undefined) return index;
    const key = [...new Set(sourceIds)].sort((x, y) => x - y).join(',');
    let views = scopes.get(index);
    if (views === undefined) scopes.set(index, (views = new Map()));
    let view = views.get(key);
    if (view === undefined) {
      const rowIds = prepare('SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(sourceIds)) as number[];
      view = scopedIndex(index, new Set(rowIds));
      if (views.size >= 16) views.clear();
      views.set(key, view);
    }
    return view;
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
      const ids = scored.map((doc) => doc.rowId);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return scored.flatMap((doc, index) => {
        const row = byId.get(ids[index] as number);
        if (row === undefined) return [];
        const hit: TextHit = { chunk: chunkOfRow(row), bm25: doc.score };
        if (doc.fields !== undefined) hit.fields = Object.fromEntries(FIELDS.map((field, position) => [field, doc.fields?.[position] ?? 0])) as Record<TextField, number>;
        if (doc.prior !== undefined) hit.prior = doc.prior;
        return [hit];
      });
    },
    termStats(words: readonly string[], sourceIds?: readonly number[]): TermStats {
      return readIndex((whole) => {
        const index = scoped(whole, sourceIds);
        return { documents: index.documents, documentFrequency: new Map(words.map((word) => [word, documentFrequency(index, indexForm(word))])) };
      });
    },
  };
}
