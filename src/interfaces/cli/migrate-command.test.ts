import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../testing/postgres-server.js';
import { runCliCaptured } from '../../testing/run-cli.js';
import { SCHEMA_VERSION } from '../../store/postgres/schema.js';

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
    expect(JSON.parse(first.stdout)).toEqual({ db: url, backend: 'postgres', schema: SCHEMA_VERSION, from: 0 });
    const again = await runCliCaptured(['migrate', '--db', url], { cwd: process.cwd() });
    expect(again.stdout).toBe(`${url} is at schema ${SCHEMA_VERSION} (current).\n`);
  });

  it('fails clearly, without the password, when the server cannot be reached', async () => {
    const run = await runCliCaptured(['migrate', '--db', `postgres://citedocs:hunter2@127.0.0.1:${server.port + 1}/nowhere`], { cwd: process.cwd() });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Could not connect to PostgreSQL at postgres://citedocs:***@127.0.0.1');
    expect(run.stderr).not.toContain('hunter2');
  }, 30_000);
});
