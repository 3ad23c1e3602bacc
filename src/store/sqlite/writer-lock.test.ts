import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../core/errors.js';
import { acquireWriterLock, writerLockPath } from './writer-lock.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const newIndexPath = () => join(mkdtempSync(join(tmpdir(), 'citedocs-lock-')), 'index.db');

describe('acquireWriterLock', () => {
  it('makes a second writer wait, telling it once, until the first releases', async () => {
    const dbPath = newIndexPath();
    const first = await acquireWriterLock(dbPath, { timeoutMs: 0 });
    expect(first.path).toBe(writerLockPath(dbPath));
    const waits: string[] = [];
    let told!: () => void;
    const waiting = new Promise<void>((resolve) => (told = resolve));
    const second = acquireWriterLock(dbPath, {
      timeoutMs: 60_000,
      pollMs: 5,
      onWait: (path) => {
        waits.push(path);
        told();
      },
    });
    await waiting;
    first.release();
    const held = await second;
    expect(waits).toEqual([writerLockPath(dbPath)]);
    held.release();
  });

  it('fails at once with timeout 0 while another writer holds the index, naming it and the flag that waits', async () => {
    const dbPath = newIndexPath();
    const first = await acquireWriterLock(dbPath, { timeoutMs: 0 });
    try {
      const refused = acquireWriterLock(dbPath, { timeoutMs: 0 });
      await expect(refused).rejects.toBeInstanceOf(StoreError);
      await expect(acquireWriterLock(dbPath, { timeoutMs: 0 })).rejects.toThrow(`Another process is writing the index ${dbPath}`);
      await expect(acquireWriterLock(dbPath, { timeoutMs: 0 })).rejects.toThrow('--lock-timeout <seconds>');
    } finally {
      first.release();
    }
    (await acquireWriterLock(dbPath, { timeoutMs: 0 })).release();
  });

  it('gives up after its timeout with an error saying how long it waited and what to do', async () => {
    const dbPath = newIndexPath();
    const first = await acquireWriterLock(dbPath, { timeoutMs: 0 });
    try {
      await expect(acquireWriterLock(dbPath, { timeoutMs: 30, pollMs: 5 })).rejects.toThrow(/has been writing the index .* for over 0 s .*Let it finish or stop it, then run again; --lock-timeout <seconds> waits longer/);
    } finally {
      first.release();
    }
  });

  it('stops waiting when its signal aborts', async () => {
    const dbPath = newIndexPath();
    const first = await acquireWriterLock(dbPath, { timeoutMs: 0 });
    const controller = new AbortController();
    try {
      const waiting = acquireWriterLock(dbPath, { timeoutMs: 60_000, pollMs: 5, signal: controller.signal, onWait: () => controller.abort(new Error('Interrupted (Ctrl-C).')) });
      await expect(waiting).rejects.toThrow();
      expect(controller.signal.aborted).toBe(true);
    } finally {
      first.release();
    }
  });

  it('creates the folder of a new index, and refuses a place no index can be made', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'citedocs-lock-')), 'new', 'folder', 'index.db');
    (await acquireWriterLock(dbPath, { timeoutMs: 0 })).release();
    expect(existsSync(writerLockPath(dbPath))).toBe(true);
    await expect(acquireWriterLock('/proc/nope/x.db', { timeoutMs: 0 })).rejects.toThrow(/^Cannot create the index \/proc\/nope\/x\.db/);
  });

  it('refuses a file that is not a citedocs index, creating nothing beside it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-lock-'));
    const notes = join(folder, 'notes.db');
    writeFileSync(notes, 'These are my notes, not a database.\n'.repeat(20));
    await expect(acquireWriterLock(notes, { timeoutMs: 0 })).rejects.toThrow(`${notes} is not a citedocs index`);
    const foreign = join(folder, 'other.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    await expect(acquireWriterLock(foreign, { timeoutMs: 0 })).rejects.toThrow(`${foreign} is a SQLite database that citedocs did not create`);
    expect(readdirSync(folder).sort()).toEqual(['notes.db', 'other.sqlite']);
  });

  it('is free as soon as a writer holding it is killed with -9 (the kernel drops the lock)', async () => {
    const dbPath = newIndexPath();
    const holder = spawn(
      process.execPath,
      ['-e', `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(writerLockPath(dbPath))}); d.exec('BEGIN EXCLUSIVE'); console.log('held'); setInterval(() => {}, 1000);`],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
    await new Promise<void>((resolve) => holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve()));
    await expect(acquireWriterLock(dbPath, { timeoutMs: 0 })).rejects.toBeInstanceOf(StoreError);
    holder.kill('SIGKILL');
    await exited;
    (await acquireWriterLock(dbPath, { timeoutMs: 0 })).release();
  }, 30_000);
});
