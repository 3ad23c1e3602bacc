/**
 * A full disk, for real: the index goes on a 700 KB tmpfs mounted inside a mount namespace
 * this test creates (`unshare -rm`), the ingest of a 720 KB folder fills it, and then the
 * tmpfs is grown and the same ingest run again. The first run must say the disk is full and
 * keep every page it stored; the second must add exactly the pages the first did not store.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const namespaces = spawnSync('unshare', ['-rm', 'true']).status === 0;
const PAGES = 60;

describe.runIf(namespaces || process.env['CI'] !== undefined)('ingest onto a disk that fills up', () => {
  it('reports the full disk as such, loses nothing stored, and the next run continues', () => {
    const work = mkdtempSync(join(tmpdir(), 'citedocs-disk-full-'));
    const docs = join(work, 'docs');
    const mount = join(work, 'mnt');
    mkdirSync(docs);
    mkdirSync(mount);
    for (let page = 0; page < PAGES; page += 1) {
      writeFileSync(join(docs, `page-${String(page).padStart(3, '0')}.md`), `# Page ${page}\n\n${Array.from({ length: 300 }, (_, word) => `word${page}x${word} lorem ipsum dolor sit amet`).join(' ')}\n`);
    }
    const cli = (args: string, out: string) => `"${process.execPath}" --import tsx src/interfaces/cli/bin.ts ${args} --db ${mount}/index.db --json > ${join(work, out)}.json 2> ${join(work, out)}.err; echo $? > ${join(work, out)}.code`;
    const script = [
      `mount -t tmpfs -o size=700k tmpfs ${mount} || exit 3`,
      cli(`ingest ${docs}`, 'first'),
      cli('stats', 'stats'),
      `mount -o remount,size=50m ${mount} || exit 3`,
      cli(`ingest ${docs}`, 'second'),
      `cat ${join(work, 'first.code')} ${join(work, 'first.err')} ${join(work, 'stats.json')} ${join(work, 'second.code')} ${join(work, 'second.json')}`,
    ].join('\n');
    const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
    expect(run.status, run.stderr).toBe(0);
    const [firstCode = '', firstError = '', ...rest] = run.stdout.split('\n');
    expect(firstCode).toBe('1');
    // Under --json the error is one JSON line on stderr.
    const { error } = JSON.parse(firstError) as { error: { name: string; message: string; exitCode: number } };
    expect(error).toMatchObject({ name: 'StoreFullError', exitCode: 1 });
    expect(error.message).toMatch(new RegExp(`^The disk holding the index ${mount}/index\\.db is full \\(SQLITE_FULL\\)\\. .*everything stored before it is kept; free some disk space and run the same command again to continue\\. This run had stored (\\d+) new or changed pages\\.$`));
    const storedBefore = Number(/had stored (\d+)/.exec(error.message)?.[1]);
    const remaining = rest.join('\n');
    const statsEnd = remaining.indexOf('\n}\n') + 3;
    const stats = JSON.parse(remaining.slice(0, statsEnd)) as { pages: number; ingests: { outcome: string; complete: boolean }[] };
    expect(stats.pages).toBe(storedBefore);
    expect(storedBefore).toBeGreaterThan(0);
    expect(stats.ingests[0]).toMatchObject({ outcome: 'running', complete: false });
    const [secondCode, ...secondJson] = remaining.slice(statsEnd).split('\n');
    expect(secondCode).toBe('0');
    expect(JSON.parse(secondJson.join('\n'))).toMatchObject({ pages: PAGES, added: PAGES - storedBefore, unchanged: storedBefore, errors: [] });
  }, 200_000);
});
