import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../engine/engine.js';
import { startStaticServer, type StaticServer } from './static-server.js';

const FIXTURE_SITE = fileURLToPath(new URL('./fixtures/docs-site/', import.meta.url));

/** The fixture documentation site served on 127.0.0.1 and crawled into a fresh index; close the site when done. */
export async function indexFixtureSite(prefix = 'citedocs-fixture-'): Promise<{ site: StaticServer; dbPath: string }> {
  const site = await startStaticServer(FIXTURE_SITE);
  const dbPath = join(mkdtempSync(join(tmpdir(), prefix)), 'index.db');
  const writer = createEngine({ dbPath });
  try {
    await writer.ingest(`${site.url}docs/`);
  } finally {
    await writer.close();
  }
  return { site, dbPath };
}
