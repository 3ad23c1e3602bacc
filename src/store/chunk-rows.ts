import type { Chunk } from '../core/types.js';

/** A chunk as the chunk queries select it (chunks joined with their page). */
export interface ChunkRow {
  chunk_key: string;
  url: string;
  page_title: string;
  anchor: string | null;
  heading_path: string;
  text: string;
  token_count: number;
  content_hash: string;
}

export function chunkOfRow(row: ChunkRow): Chunk {
  return {
    id: row.chunk_key,
    pageUrl: row.url,
    pageTitle: row.page_title,
    ...(row.anchor === null ? {} : { anchor: row.anchor }),
    headingPath: JSON.parse(row.heading_path) as string[],
    text: row.text,
    tokenCount: row.token_count,
    contentHash: row.content_hash,
  };
}
