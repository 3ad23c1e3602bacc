import { afterAll, beforeAll, describe, it } from 'vitest';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../testing/postgres-server.js';
import { runStoreContract } from '../store.contract.js';
import { createPostgresStore } from './postgres-store.js';

const skip = postgresSkipReason();

// One cluster for the file; each test gets a new database on it (a new, empty index).
let server: PostgresServer | undefined;
if (skip === undefined) {
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  runStoreContract('PostgreSQL', async () => {
    if (server === undefined) throw new Error('the PostgreSQL test cluster did not start');
    return createPostgresStore(await server.createDatabase(), { mode: 'write' });
  });
} else {
  describe('Store contract: PostgreSQL', () => {
    it.skip(`skipped: ${skip}`, () => undefined);
  });
}
