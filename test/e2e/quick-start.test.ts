import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/interfaces/cli/main.js';

/** What `npm run demo` (the README's quick start) does: ingest this repository's docs/, then ask. */
describe('the README quick start', () => {
  it('ingests the docs/ folder into a new index folder and answers from it with file:// citations that exist', async () => {
    const repository = fileURLToPath(new URL('../..', import.meta.url));
    const db = join(mkdtempSync(join(tmpdir(), 'citedocs-demo-')), '.citedocs-demo', 'docs.db');
    let stdout = '';
    const io = { stdout: (text: string) => (stdout += text), stderr: () => undefined, env: {}, cwd: repository, interactive: false };
    expect(await runCli(['ingest', join(repository, 'docs'), '--db', db, '--json'], io)).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ errors: [] });
    stdout = '';
    expect(await runCli(['ask', 'how do I keep the answer inside a token budget', '--db', db, '--json'], io)).toBe(0);
    const answer = JSON.parse(stdout) as { answer: string; citations: { url: string }[]; warnings: string[] };
    expect(answer.answer).toMatch(/\[1\]/);
    expect(answer.citations[0]?.url).toMatch(/^file:\/\/.*\/docs\/configuration\.md#token-budget$/);
    expect(answer.warnings).toEqual([]);
  });
});
