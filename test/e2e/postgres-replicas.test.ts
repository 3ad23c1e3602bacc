import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { Engine } from '../../src/engine/engine-types.js';
import { createHttpServer } from '../../src/interfaces/http/server.js';
import { type PostgresServer, postgresSkipReason, startPostgresServer } from '../../src/testing/postgres-server.js';
import { docsWorkspace } from '../../src/testing/workspace.js';

const skip = postgresSkipReason();

const GUIDE = (word: string) => `# Maintenance\n\n## Vacuum\n\nVACUUM reclaims storage held by dead rows; run it ${word}.\n\n## Analyze\n\nANALYZE collects statistics for the planner.\n`;

describe.skipIf(skip !== undefined)(`serve replicas on one PostgreSQL database${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  let server: PostgresServer;
  let docs: string;
  let writer: Engine;
  const replicas: { engine: Engine; app: FastifyInstance; base: string }[] = [];
  beforeAll(async () => {
    server = await startPostgresServer();
    const url = await server.createDatabase();
    ({ docs } = docsWorkspace({ 'maintenance.md': GUIDE('nightly'), 'index.md': '# Guide\n\nSee [maintenance](maintenance.md).\n' }));
    writer = createEngine({ dbPath: url });
    await writer.ingest(docs, { baseUrl: 'https://docs.example/' });
    for (let replica = 0; replica < 2; replica += 1) {
      const engine = createEngine({ dbPath: url });
      const app = await createHttpServer(engine, {});
      replicas.push({ engine, app, base: await app.listen({ host: '127.0.0.1', port: 0 }) });
    }
  });
  afterAll(async () => {
    for (const { app, engine } of replicas) {
      await app.close();
      await engine.close();
    }
    await writer?.close();
    await server?.stop();
  });

  const search = async (base: string, query: string) =>
    (await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, limit: 3 }) })).text();
  /** Both replicas' answers, once they hold `text` (writes reach other processes shortly after the writer pauses), or after 5 s. */
  const answersWith = async (bases: readonly string[], query: string, text: string): Promise<string[]> => {
    const deadline = Date.now() + 5_000;
    let answers: string[] = [];
    while (Date.now() < deadline) {
      answers = await Promise.all(bases.map((base) => search(base, query)));
      if (answers.every((answer) => answer.includes(text))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return answers;
  };
  const healthOf = async (base: string) => (await (await fetch(`${base}/healthz`)).json()) as { status: string; indexVersion?: number };

  it('answer byte-identically, and serve a page changed and re-ingested without a restart, within seconds, with its index version in /healthz', async () => {
    const [first, second] = replicas.map((replica) => replica.base) as [string, string];
    const [before, same] = await answersWith([first, second], 'when to run vacuum', 'nightly');
    expect(before).toContain('nightly');
    expect(same).toBe(before);
    const versionBefore = (await healthOf(first)).indexVersion;
    expect(versionBefore).toBeGreaterThan(0);

    writeFileSync(join(docs, 'maintenance.md'), GUIDE('weekly after bulk deletes'));
    await writer.ingest(docs, { baseUrl: 'https://docs.example/' });
    const answers = await answersWith([first, second], 'when to run vacuum', 'weekly after bulk deletes');
    expect(answers[0]).toContain('weekly after bulk deletes');
    expect(answers[1]).toBe(answers[0]);
    const health = await healthOf(second);
    expect(health.status).toBe('ok');
    expect(health.indexVersion).toBeGreaterThan(versionBefore ?? 0);
  });
});
