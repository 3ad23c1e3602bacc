import type { Chunk, TermStats, TextHit, TextIndex, TextQuery } from '../core/types.js';

/** A chunk for retrieval tests: only the id and the text matter unless a test sets more. */
export function testChunk(options: { id: string; text: string; pageUrl?: string; pageTitle?: string; headingPath?: string[]; anchor?: string }): Chunk {
  return {
    id: options.id,
    pageUrl: options.pageUrl ?? `https://d.example/${options.id}.html`,
    // Empty by default so that only the text's words count where a test weighs words.
    pageTitle: options.pageTitle ?? '',
    ...(options.anchor === undefined ? {} : { anchor: options.anchor }),
    headingPath: options.headingPath ?? [],
    text: options.text,
    tokenCount: options.text.split(/\s+/).filter(Boolean).length,
    contentHash: `hash:${options.id}`,
  };
}

export interface TextIndexDoubleOptions {
  /** What searchText answers (cut to the query's limit); a function sees the query. @default no hits */
  hits?: readonly TextHit[] | ((query: TextQuery) => readonly TextHit[]);
  /** Chunks in the index, for the IDF. @default 1000 */
  documents?: number;
  /** Chunks containing each word; a word not listed is in none. */
  documentFrequency?: Readonly<Record<string, number>>;
}

/** A TextIndex whose hits and term statistics a test controls, recording every call. */
export interface TextIndexDouble extends TextIndex {
  readonly searches: TextQuery[];
  readonly termStatsCalls: string[][];
}

export function createTextIndexDouble(options: TextIndexDoubleOptions = {}): TextIndexDouble {
  const searches: TextQuery[] = [];
  const termStatsCalls: string[][] = [];
  const frequencies = options.documentFrequency ?? {};
  return {
    searches,
    termStatsCalls,
    async searchText(query) {
      searches.push(query);
      const hits = typeof options.hits === 'function' ? options.hits(query) : (options.hits ?? []);
      return hits.slice(0, query.limit);
    },
    async termStats(words): Promise<TermStats> {
      termStatsCalls.push([...words]);
      return { documents: options.documents ?? 1000, documentFrequency: new Map(words.map((word) => [word, frequencies[word] ?? 0])) };
    },
  };
}
