import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the temporary folder of a test run', () => {
  it('is one folder of its own, for the tests and for the processes they start', () => {
    expect(basename(tmpdir())).toMatch(/^citedocs-tests-/);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
    expect(child.stdout).toBe(tmpdir());
    // One level below the machine's temporary folder, never nested: Unix socket paths stay short.
    expect(basename(dirname(tmpdir()))).not.toMatch(/^citedocs-tests-/);
  });
});
