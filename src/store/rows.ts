import type { Heading, Page, StoppedBy } from '../core/types.js';
import type { IngestJob, IngestOutcome, IngestRunSummary, StoredPage, StoredSource } from './store.js';

/**
 * The rows every SQL backend reads (the same columns in SQLite and PostgreSQL) and how each
 * becomes what the Store contract returns: one mapping, so the backends answer alike.
 */

export interface PageRow {
  url: string;
  title: string;
  content_hash: string;
  source: Page['source'];
  fetched_at: string;
  etag: string | null;
  last_modified: string | null;
  links: string;
  headings: string;
  chunking: string | null;
  chunk_count: number;
}

export function pageOfRow(row: PageRow): StoredPage {
  return {
    url: row.url,
    title: row.title,
    contentHash: row.content_hash,
    source: row.source,
    fetchedAt: row.fetched_at,
    chunkCount: row.chunk_count,
    links: JSON.parse(row.links) as string[],
    headings: JSON.parse(row.headings) as Heading[],
    ...(row.etag === null ? {} : { etag: row.etag }),
    ...(row.last_modified === null ? {} : { lastModified: row.last_modified }),
    ...(row.chunking === null ? {} : { chunking: row.chunking }),
  };
}

/** A crawl run; the outcome columns are absent from indexes older than SQLite schema 6. */
export interface RunRow {
  start_url: string;
  started_at: string;
  finished_at: string | null;
  outcome?: string | null;
  ended_at?: string | null;
  detail?: string | null;
}

const OUTCOMES: readonly IngestOutcome[] = ['running', 'complete', 'limited', 'stopped', 'interrupted'];

export function runSummaryOfRow(row: RunRow): IngestRunSummary {
  const known = OUTCOMES.find((outcome) => outcome === row.outcome);
  // Before SQLite schema 6 only "finished or not" was recorded.
  const outcome: IngestOutcome = known ?? (row.finished_at === null ? 'running' : 'complete');
  const detail = row.detail ? (JSON.parse(row.detail) as { stoppedBy?: StoppedBy; reason?: string }) : {};
  const endedAt = row.ended_at ?? row.finished_at ?? undefined;
  return {
    source: row.start_url,
    startedAt: row.started_at,
    ...(endedAt === undefined ? {} : { endedAt }),
    outcome,
    complete: outcome === 'complete',
    ...(detail.stoppedBy === undefined ? {} : { stoppedBy: detail.stoppedBy }),
    ...(detail.reason === undefined ? {} : { reason: detail.reason }),
  };
}

export interface SourceRow {
  id: number;
  library: string;
  version: string;
  root_url: string;
  kind: StoredSource['kind'];
  settings: string;
  created_at: string;
  last_crawl: string | null;
  pages: number;
  passages: number;
  newest_fetch: string | null;
  oldest_fetch: string | null;
  description: string | null;
}

export function sourceOfRow(row: SourceRow): StoredSource {
  return {
    id: row.id,
    library: row.library,
    version: row.version,
    rootUrl: row.root_url,
    kind: row.kind,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    createdAt: row.created_at,
    pages: row.pages,
    passages: row.passages,
    ...(row.last_crawl === null ? {} : { lastCrawl: row.last_crawl }),
    ...(row.newest_fetch === null ? {} : { newestFetch: row.newest_fetch }),
    ...(row.oldest_fetch === null ? {} : { oldestFetch: row.oldest_fetch }),
    ...(row.description === null || row.description === '' ? {} : { description: row.description }),
  };
}

export interface JobRow {
  id: number;
  library: string;
  version: string;
  url: string;
  state: IngestJob['state'];
  progress: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
}

export function jobOfRow(row: JobRow): IngestJob {
  return {
    id: row.id,
    library: row.library,
    version: row.version,
    url: row.url,
    state: row.state,
    progress: JSON.parse(row.progress) as IngestJob['progress'],
    startedAt: row.started_at,
    ...(row.ended_at === null ? {} : { endedAt: row.ended_at }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}
