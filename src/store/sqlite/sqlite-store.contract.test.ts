import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../store.contract.js';
import { createSqliteStore } from './sqlite-store.js';

// A new index file per test, then a handle opened as the engine opens it: read-only until its first write.
runStoreContract('SQLite', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'citedocs-contract-')), 'index.db');
  await createSqliteStore(path, 'write').close();
  return createSqliteStore(path);
});
