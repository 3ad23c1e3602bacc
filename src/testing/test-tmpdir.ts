import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: every test run gets a temporary folder of its own as TMPDIR, removed
 * when the run ends, so the folders tests make (indexes, git fixtures, PostgreSQL clusters:
 * about 80 MB a run) never pile up in the machine's /tmp. Set before the workers start, so
 * they and every process a test spawns inherit it. Sticky and open to all, as /tmp is: a
 * server a test starts as another user (PostgreSQL runs as `nobody` under root) makes its
 * folder here too.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'citedocs-tests-'));
  chmodSync(root, 0o1777);
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
