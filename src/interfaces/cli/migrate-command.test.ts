import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../testing/postgres-server.js';
import { runCliCaptured } from '../../testing/run-cli.js';
import { SCHEMA_VERSION } from '../../store/postgres/schema.js';
import { connectPool } from '../../store/postgres/connection.js';
import { describeDenseSearch, vectorExtension } from '../../store/postgres/pg-extensions.js';

const DENSE_WITHOUT_PGVECTOR = 'in-process 1-bit scan (pgvector not available on this server)';

const skip = postgresSkipReason();

describe.skipIf(skip !== undefined)(`citedocs migrate on PostgreSQL${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates the schema of a new database given by CITEDOCS_DB, then finds it current', async () => {
    const url = await server.createDatabase();
    const first = await runCliCaptured(['migrate', '--json'], { cwd: process.cwd(), env: { CITEDOCS_DB: url } });
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ db: url, backend: 'postgres', schema: SCHEMA_VERSION, from: 0, dense: DENSE_WITHOUT_PGVECTOR });
    const again = await runCliCaptured(['migrate', '--db', url], { cwd: process.cwd() });
    expect(again.stdout).toBe(`${url} is at schema ${SCHEMA_VERSION} (current).\nDense search: ${DENSE_WITHOUT_PGVECTOR}.\n`);
  });

  it('detects that the server offers no pgvector (Debian bookworm has no package for it) and says dense search runs in process', async () => {
    const url = await server.createDatabase();
    const pool = await connectPool(url);
    try {
      expect(await vectorExtension(pool)).toBeUndefined();
    } finally {
      await pool.end();
    }
    expect(describeDenseSearch(undefined)).toBe(DENSE_WITHOUT_PGVECTOR);
    // A server that offers it is told so, and still searches in process (the pgvector path is not written).
    expect(describeDenseSearch({ defaultVersion: '0.7.0' })).toBe('in-process 1-bit scan (pgvector 0.7.0 is available on this server; citedocs does not use it yet)');
  });

  it('fails clearly, without the password, when the server cannot be reached', async () => {
    const run = await runCliCaptured(['migrate', '--db', `postgres://citedocs:hunter2@127.0.0.1:${server.port + 1}/nowhere`], { cwd: process.cwd() });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Could not connect to PostgreSQL at postgres://citedocs:***@127.0.0.1');
    expect(run.stderr).not.toContain('hunter2');
  }, 30_000);
});
