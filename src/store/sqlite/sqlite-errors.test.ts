import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError, StoreFullError } from '../../core/errors.js';
import { assertIndexLocation } from './open-database.js';
import { createSqliteStore } from './sqlite-store.js';
import { guardStore } from './sqlite-errors.js';

describe('a full disk', () => {
  // SQLite's max_page_count makes it answer SQLITE_FULL exactly as a full disk does, without filling one
  // (test/e2e/disk-full.test.ts fills a real tmpfs).
  it('is reported as such, and the writes before it are kept', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'citedocs-full-')), 'index.db');
    const database = new Database(path);
    database.pragma('journal_mode = WAL');
    database.exec('CREATE TABLE pages (body TEXT)');
    database.pragma('max_page_count = 12');
    const insert = database.transaction((body: string) => database.prepare('INSERT INTO pages VALUES (?)').run(body));
    let stored = 0;
    let failure: unknown;
    while (failure === undefined && stored < 1000) {
      try {
        guardStore(path, () => insert('x'.repeat(2000)));
        stored += 1;
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(StoreFullError);
    expect((failure as Error).message).toBe(
      `The disk holding the index ${path} is full (SQLITE_FULL). The page being written was rolled back and everything stored before it is kept; free some disk space and run the same command again to continue.`,
    );
    expect(stored).toBeGreaterThan(0);
    expect(database.prepare('SELECT count(*) FROM pages').pluck().get()).toBe(stored);
    database.close();
  });

  it('leaves other errors as they are', () => {
    const bug = new TypeError('a bug');
    expect(() =>
      guardStore('x.db', () => {
        throw bug;
      }),
    ).toThrow(bug);
  });
});

describe('an index path that cannot be created', () => {
  it.runIf(process.platform === 'linux')('fails at once under /proc, where mkdir -p used to loop forever, and leaves nothing behind', () => {
    expect(() => assertIndexLocation('/proc/nope/x.db')).toThrow(StoreError);
    expect(() => assertIndexLocation('/proc/nope/x.db')).toThrow(/^Cannot create the index \/proc\/nope\/x\.db: \/proc\/nope is not writable \(ENOENT.*Pass --db with a path in a folder you can write to\.$/);
    expect(() => createSqliteStore('/proc/nope/x.db', 'write')).toThrow(/^Cannot create the folder \/proc\/nope for the index \/proc\/nope\/x\.db/);
  });

  it('names a file standing where a folder should be', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'citedocs-file-')), 'not-a-folder');
    new Database(file).close();
    expect(() => assertIndexLocation(join(file, 'sub', 'x.db'))).toThrow(`Cannot create the index ${join(file, 'sub', 'x.db')}: ${file} is a file, not a folder. Pass --db with a path in a folder you can write to.`);
  });
});
