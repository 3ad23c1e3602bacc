import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set once a run has its folder: read by the config's later loads and inherited by workers. */
const RUN_TMPDIR = 'CITEDOCS_TEST_RUN_TMPDIR';

/**
 * Gives a test run a temporary folder of its own as TMPDIR, removed when the run's process
 * exits, so the folders tests make (indexes, git fixtures, PostgreSQL clusters: about 80 MB a
 * run) never pile up in the machine's /tmp. Called from the Vitest config, once, before the
 * workers start: they and every process a test spawns inherit it. Sticky and open to all, as
 * /tmp is: a server a test starts as another user (PostgreSQL runs as `nobody` under root)
 * makes its folder here too. A run that is killed leaves it, as it left the rest before.
 */
export function useRunTmpdir(): string {
  // The config is read again (for each project, in workers): the run keeps the one folder, or
  // paths would nest past what a Unix socket's path may hold (PostgreSQL's, Chromium's).
  const existing = process.env[RUN_TMPDIR];
  if (existing !== undefined) return existing;
  const root = mkdtempSync(join(tmpdir(), 'citedocs-tests-'));
  chmodSync(root, 0o1777);
  process.env[RUN_TMPDIR] = root;
  process.env['TMPDIR'] = root;
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}
