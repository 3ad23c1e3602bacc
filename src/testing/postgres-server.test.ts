import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgresServer } from './postgres-server.js';

const skip = postgresSkipReason();

describe.skipIf(skip !== undefined)(`a throwaway PostgreSQL cluster${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  it('starts on 127.0.0.1, gives fresh databases, and accepts no connection once stopped', async () => {
    const server = await startPostgresServer();
    const url = await server.createDatabase();
    expect(url).toMatch(/^postgres:\/\/citedocs@127\.0\.0\.1:\d+\/test_/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const row = (await client.query<{ version: string; db: string }>('SELECT current_setting($1) AS version, current_database() AS db', ['server_version_num'])).rows[0];
    await client.end();
    expect(Number(row?.version)).toBeGreaterThanOrEqual(150000);
    await server.stop();
    const after = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2_000 });
    await expect(after.connect()).rejects.toThrow();
  });

  it('shuts down keeping its data, refuses connections meanwhile, and restarts on the same port', async () => {
    const server = await startPostgresServer();
    try {
      const url = await server.createDatabase();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("CREATE TABLE kept (value TEXT); INSERT INTO kept VALUES ('still here')");
      await client.end();
      await server.shutDown();
      const refused = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      await expect(refused.connect()).rejects.toThrow();
      await server.restart();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      const row = (await again.query<{ value: string }>('SELECT value FROM kept')).rows[0];
      await again.end();
      expect(row?.value).toBe('still here');
    } finally {
      await server.stop();
    }
  });
});
