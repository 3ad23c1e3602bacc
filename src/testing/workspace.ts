import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary folder `docs/` holding these files, and an index path beside it. */
export function docsWorkspace(files: Record<string, string>, prefix = 'citedocs-test-'): { docs: string; dbPath: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const docs = join(root, 'docs');
  mkdirSync(docs, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(docs, path, '..'), { recursive: true });
    writeFileSync(join(docs, path), content);
  }
  return { docs, dbPath: join(root, 'index.db') };
}
