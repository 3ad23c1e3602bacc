import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { StoppedBy } from '../../core/types.js';
import { openSqliteConnection } from './sqlite-connection.js';

const dbPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-runs-')), 'index.db');
const limited: StoppedBy = { limit: 'maxPages', value: 5, remaining: 4, unit: 'requests', flag: '--max-requests', setting: 'crawl.maxPages', resumes: true };

describe('crawl runs: how the last ingest of each source ended', () => {
  it('records the outcome of the latest run of each source, newest first, and shows it in stats', () => {
    const store = openSqliteConnection(dbPath(), 'write');
    const site = store.crawlState.openRun('https://d.example/docs/', '{}', '2026-01-01T00:00:00.000Z');
    store.crawlState.recordOutcome('https://d.example/docs/', { outcome: 'limited', endedAt: '2026-01-01T00:01:00.000Z', stoppedBy: limited });
    const folder = store.crawlState.openRun('file:///docs/', '{"source":"local"}', '2026-01-02T00:00:00.000Z');
    store.crawlState.finishRun(folder.id, '2026-01-02T00:01:00.000Z');
    store.crawlState.recordOutcome('file:///docs/', { outcome: 'complete', endedAt: '2026-01-02T00:01:00.000Z' });
    expect(store.stats().ingests).toEqual([
      { source: 'file:///docs/', startedAt: '2026-01-02T00:00:00.000Z', endedAt: '2026-01-02T00:01:00.000Z', outcome: 'complete', complete: true },
      { source: 'https://d.example/docs/', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:01:00.000Z', outcome: 'limited', complete: false, stoppedBy: limited },
    ]);
    // The next session of the same crawl resumes the run: running again until it records its end.
    expect(store.crawlState.openRun('https://d.example/docs/', '{}', '2026-01-03T00:00:00.000Z').id).toBe(site.id);
    expect(store.crawlState.latestRuns()[1]).toMatchObject({ source: 'https://d.example/docs/', outcome: 'running', complete: false });
    store.close();
  });

  it('asks for an ingest to upgrade an index of schema 5 read-only (it has no sources), and upgrades it on write, its runs read from finished_at', () => {
    const path = dbPath();
    const store = openSqliteConnection(path, 'write');
    store.crawlState.openRun('https://d.example/docs/', '{}', '2026-01-01T00:00:00.000Z');
    store.close();
    const raw = new Database(path);
    raw.exec('DROP INDEX pages_by_source; ALTER TABLE pages DROP COLUMN source_id; DROP TABLE sources; DROP TABLE jobs; ALTER TABLE crawl_runs DROP COLUMN outcome; ALTER TABLE crawl_runs DROP COLUMN ended_at; ALTER TABLE crawl_runs DROP COLUMN detail; PRAGMA user_version = 5;');
    raw.close();
    expect(() => openSqliteConnection(path, 'read')).toThrow(/older index format \(schema 5\)\. Run `citedocs ingest` once/);
    const writer = openSqliteConnection(path, 'write');
    expect(writer.stats().ingests).toEqual([{ source: 'https://d.example/docs/', startedAt: '2026-01-01T00:00:00.000Z', outcome: 'running', complete: false }]);
    writer.crawlState.recordOutcome('https://d.example/docs/', { outcome: 'interrupted', endedAt: '2026-01-01T00:02:00.000Z' });
    expect(writer.crawlState.latestRuns()[0]).toMatchObject({ outcome: 'interrupted', complete: false });
    writer.close();
  });
});
