// What the serve benchmarks share: the PostgreSQL 15 docs (Debian's postgresql-doc-15) as the
// index they load, and the questions they send it.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/engine.js';
import { startStaticServer } from '../src/testing/static-server.js';

export const DOCS = '/usr/share/doc/postgresql-doc-15/html';

/** Searches sent in turn: common questions about PostgreSQL, each answered by the docs. */
export const QUERIES = [
  'create an index concurrently', 'what does VACUUM FULL do', 'how to set up streaming replication', 'what is a partial index',
  'drop a table if it exists', 'change the owner of a database', 'statement_timeout', 'pg_dump a single table', 'json operators',
  'window functions rank', 'how do I create a role with login', 'foreign key on delete cascade', 'explain analyze output',
  'listen notify', 'row level security policy', 'generate_series', 'alter table add column default', 'copy from csv', 'serial vs identity',
  'how does MVCC work',
];

/**
 * Crawls the docs, served on 127.0.0.1, into the index at `given` (a file or a postgres:// URL;
 * undefined: a file in a new temporary folder), saying how long it took; returns where.
 */
export async function indexPostgresDocs(given: string | undefined): Promise<string> {
  if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing: apt-get install postgresql-doc-15, or pass --db with an index.`);
  const dbPath = given ?? join(mkdtempSync(join(tmpdir(), 'citedocs-bench-serve-')), 'pg.db');
  const site = await startStaticServer(DOCS);
  const started = performance.now();
  const engine = createEngine({ dbPath });
  const report = await engine.ingest(site.url);
  await engine.close();
  await site.close();
  console.log(`indexed ${report.pages} pages of the PostgreSQL docs in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dbPath}`);
  return dbPath;
}
