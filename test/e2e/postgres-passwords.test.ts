/**
 * A --db URL's password shows nowhere: not in the CLI's results, errors (text and JSON, with
 * the stack of --verbose) or logs, not in the HTTP API's errors or /healthz. Trust
 * authentication lets a URL with any password in, so every path runs against a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createHttpServer } from '../../src/interfaces/http/server.js';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../src/testing/postgres-server.js';
import { runCliCaptured } from '../../src/testing/run-cli.js';
import { docsWorkspace } from '../../src/testing/workspace.js';

const skip = postgresSkipReason();
const PASSWORD = 'Never-Shown-4417';

describe.skipIf(skip !== undefined)(`the password of a PostgreSQL --db URL${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  const withPassword = (url: string) => url.replace('postgres://citedocs@', `postgres://citedocs:${PASSWORD}@`);
  const shown = (url: string) => url.replace('postgres://citedocs@', 'postgres://citedocs:***@');
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('never appears in what the CLI prints: results, errors in text and JSON, stacks and logs', async () => {
    const plain = await server.createDatabase();
    const url = withPassword(plain);
    const env = { CITEDOCS_DB: url };
    const outputs: string[] = [];
    const run = async (argv: string[]) => {
      const result = await runCliCaptured(argv, { cwd: process.cwd(), env });
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const migrated = await run(['migrate']);
    expect(migrated.stdout).toContain(`${shown(plain)}: schema created`);
    // An empty index: the error names it, without the password, in text, in JSON and in the stack --verbose adds.
    const empty = await run(['search', 'vacuum', '--verbose']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`The index at ${shown(plain)} has no passages yet`);
    const emptyJson = await run(['search', 'vacuum', '--json', '--verbose']);
    expect(emptyJson.stderr).toContain(`The index at ${shown(plain)} has no passages yet`);

    const { docs } = docsWorkspace({ 'guide.md': '# Guide\n\n## Vacuum\n\nVACUUM reclaims storage.\n' });
    const ingested = await run(['ingest', docs, '--base-url', 'https://docs.example/', '--verbose']);
    expect(ingested.code).toBe(0);
    const stats = await run(['stats']);
    expect(stats.stdout).toContain(`${shown(plain)}: 1 page`);
    expect((await run(['stats', '--json'])).code).toBe(0);
    expect((await run(['sources', '--json'])).code).toBe(0);
    expect((await run(['search', 'vacuum', '--json', '--verbose'])).code).toBe(0);

    // A server that is not there: the connection error (after its retries) names the URL without the password.
    const nowhere = `postgres://citedocs:${PASSWORD}@127.0.0.1:${server.port + 1}/nowhere`;
    const refused = await runCliCaptured(['stats', '--db', nowhere, '--verbose'], { cwd: process.cwd() });
    outputs.push(refused.stdout, refused.stderr);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Could not connect to PostgreSQL at postgres://citedocs:***@127.0.0.1:${server.port + 1}/nowhere`);

    for (const text of outputs) expect(text).not.toContain(PASSWORD);
  }, 90_000);

  it('never appears in what the HTTP API answers: errors and /healthz', async () => {
    const url = withPassword(await server.createDatabase());
    const engine = createEngine({ dbPath: url });
    const app = await createHttpServer(engine, {});
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const search = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'vacuum' }) });
      const error = await search.text();
      expect(search.status).toBe(400);
      expect(error).toContain('citedocs:***@127.0.0.1');
      const health = await (await fetch(`${base}/healthz`)).text();
      expect(JSON.parse(health)).toMatchObject({ status: 'ok', database: 'reachable' });
      for (const text of [error, health]) expect(text).not.toContain(PASSWORD);
    } finally {
      await app.close();
      await engine.close();
    }
  });
});
