import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian's postgresql-15 package puts the server binaries (initdb, postgres). */
export const POSTGRES_BIN = process.env.CITEDOCS_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const SUPERUSER = 'citedocs';

export interface PostgresServer {
  /** `postgres://citedocs@127.0.0.1:PORT/postgres`: the cluster's default database. */
  url: string;
  port: number;
  /** A new empty database on this cluster; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Shuts the server down (fast shutdown, as `pg_ctl stop`) and keeps its files: the database goes away until `restart`. */
  shutDown(): Promise<void>;
  /** Starts the server again on the same port with the same files, after `shutDown`. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown) and removes its files. */
  stop(): Promise<void>;
}

/** Whether the PostgreSQL server binaries are installed. */
export const postgresAvailable = (): boolean => existsSync(join(POSTGRES_BIN, 'initdb')) && existsSync(join(POSTGRES_BIN, 'postgres'));

/**
 * Why tests that need PostgreSQL cannot run here, or undefined when they can. Only a machine
 * without the binaries and outside CI skips them: under CI=true a missing server fails the tests
 * (CI installs postgresql-15), so they can never pass by not running.
 */
export function postgresSkipReason(): string | undefined {
  if (postgresAvailable()) return undefined;
  if (process.env.CI === 'true' || process.env.CI === '1') return undefined;
  return `PostgreSQL 15 is not installed (no ${POSTGRES_BIN}/initdb): apt-get install postgresql-15 to run these tests (CI does).`;
}

/**
 * Starts a throwaway PostgreSQL cluster: `initdb` in a new temporary folder, the server on a
 * free port of 127.0.0.1 with its Unix socket in that folder, trust authentication for the
 * `citedocs` superuser, durability off (tests, not data). PostgreSQL refuses to run as root, so
 * under root the folder is handed to `nobody` and both programs run as that user. Waits at most
 * STARTUP_TIMEOUT_MS for the server to accept a connection.
 */
export async function startPostgresServer(options: { startupTimeoutMs?: number } = {}): Promise<PostgresServer> {
  if (!postgresAvailable()) throw new Error(`PostgreSQL server binaries not found in ${POSTGRES_BIN}: install postgresql-15 (apt-get install postgresql-15).`);
  const user = runAsUser();
  const root = mkdtempSync(join(tmpdir(), 'citedocs-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  mkdirSync(socketDir);
  if (user !== undefined) {
    chmodSync(root, 0o700);
    chownSync(root, user.uid, user.gid);
    chownSync(socketDir, user.uid, user.gid);
  }
  const asUser = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  try {
    execFileSync(
      join(POSTGRES_BIN, 'initdb'),
      ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' }, ...asUser },
    );
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed in ${dataDir}: ${stderr.trim() || String(error)}`, { cause: error });
  }

  const startOn = async (port: number): Promise<ChildProcess> => {
    const child = spawn(
      join(POSTGRES_BIN, 'postgres'),
      [
        '-D', dataDir, '-p', String(port), '-k', socketDir,
        '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
        '-c', 'shared_buffers=32MB', '-c', 'max_connections=60', '-c', `log_destination=stderr`, '-c', 'logging_collector=off',
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' }, ...asUser },
    );
    const log: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      log.push(text);
      if (log.length > 200) log.shift();
    });
    try {
      await waitForServer(`postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`, child, options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS, () => log.join(''));
    } catch (error) {
      await stopChild(child);
      throw error;
    }
    return child;
  };

  // A port that was free a moment ago may be taken before the server binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    let child: ChildProcess;
    try {
      child = await startOn(port);
    } catch (error) {
      lastError = error;
      continue;
    }
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    let created = 0;
    return {
      url,
      port,
      async createDatabase(name) {
        created += 1;
        const database = name ?? `test_${process.pid}_${created}`;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)} TEMPLATE template0`);
        } finally {
          await client.end();
        }
        return `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
      },
      async shutDown() {
        await stopChild(child);
      },
      async restart() {
        if (child.exitCode === null && child.signalCode === null) throw new Error('The PostgreSQL server is running: shut it down first.');
        child = await startOn(port);
      },
      async stop() {
        process.removeListener('exit', killOnExit);
        await stopChild(child);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  rmSync(root, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** The user the server runs as: `nobody` when this process is root (PostgreSQL refuses root), else this user (undefined). */
function runAsUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('Running as root, and there is no `nobody` user to run PostgreSQL as (it refuses root).');
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`PostgreSQL exited during startup:\n${log().trim()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms:\n${log().trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGINT is PostgreSQL's fast shutdown; SIGKILL after STOP_TIMEOUT_MS. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
