import type Database from 'better-sqlite3';
import { isStopWord } from '../../core/query-terms.js';
import type { TermStats, TextField, TextHit, TextQuery } from '../../core/types.js';
import { indexForm, queryTerms } from '../lexical/analyze.js';
import { scoreBm25f } from '../lexical/bm25f.js';
import { FIELDS } from '../lexical/fields.js';
import type { Segment } from '../lexical/segment.js';
import { type ChunkRow, chunkOfRow } from './chunk-rows.js';
import { scopedSegment } from './scoped-segment.js';

type Prepare = (sql: string) => Database.Statement;

interface IdChunkRow extends ChunkRow {
  id: number;
}

/** Lexical search over the stored index: score with BM25F, then read only the winners' rows. */
export function createLexicalSearch(prepare: Prepare, segment: () => Segment) {
  // One scoped view per (segment, set of sources): a new segment (the chunks changed) starts afresh.
  const scopes = new WeakMap<Segment, Map<string, Segment>>();
  const segmentFor = (sourceIds: readonly number[] | undefined): Segment => {
    const whole = segment();
    if (sourceIds === undefined) return whole;
    const key = [...new Set(sourceIds)].sort((a, b) => a - b).join(',');
    let views = scopes.get(whole);
    if (views === undefined) scopes.set(whole, (views = new Map()));
    let view = views.get(key);
    if (view === undefined) {
      const rowIds = prepare('SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.source_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(sourceIds)) as number[];
      view = scopedSegment(whole, new Set(rowIds));
      if (views.size >= 16) views.clear();
      views.set(key, view);
    }
    return view;
  };
  return {
    search(query: TextQuery): TextHit[] {
      const terms = queryTerms(query.text, isStopWord, query.ranking.quotedWeight);
      if (terms.length === 0) return [];
      const current = segmentFor(query.sourceIds);
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
    termStats(words: readonly string[], sourceIds?: readonly number[]): TermStats {
      const current = segmentFor(sourceIds);
      const documentFrequency = new Map<string, number>();
      for (const word of words) documentFrequency.set(word, current.postings(indexForm(word))?.docs.length ?? 0);
      return { documents: current.docs.count, documentFrequency };
    },
  };
}
