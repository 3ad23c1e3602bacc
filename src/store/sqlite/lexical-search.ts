import type Database from 'better-sqlite3';
import { isStopWord } from '../../core/query-terms.js';
import type { TermStats, TextField, TextHit, TextQuery } from '../../core/types.js';
import { indexForm, queryTerms } from '../lexical/analyze.js';
import { scoreBm25f } from '../lexical/bm25f.js';
import { FIELDS } from '../lexical/fields.js';
import type { Segment } from '../lexical/segment.js';
import { type ChunkRow, chunkOfRow } from './chunk-rows.js';

type Prepare = (sql: string) => Database.Statement;

interface IdChunkRow extends ChunkRow {
  id: number;
}

/** Lexical search over the stored index: score with BM25F, then read only the winners' rows. */
export function createLexicalSearch(prepare: Prepare, segment: () => Segment) {
  return {
    search(query: TextQuery): TextHit[] {
      const terms = queryTerms(query.text, isStopWord, query.ranking.quotedWeight);
      if (terms.length === 0) return [];
      const current = segment();
      const scored = scoreBm25f(current, terms, query.ranking, query.limit, query.explain === true);
      if (scored.length === 0) return [];
      const ids = scored.map((doc) => current.docs.rowIds[doc.ordinal] as number);
      const rows = prepare(
        `SELECT c.id, c.chunk_key, p.url, p.title AS page_title, c.anchor, c.heading_path, c.text, c.token_count, c.content_hash
           FROM chunks c JOIN pages p ON p.id = c.page_id
          WHERE c.id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(ids)) as IdChunkRow[];
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
    termStats(words: readonly string[]): TermStats {
      const current = segment();
      const documentFrequency = new Map<string, number>();
      for (const word of words) documentFrequency.set(word, current.postings(indexForm(word))?.docs.length ?? 0);
      return { documents: current.docs.count, documentFrequency };
    },
  };
}
