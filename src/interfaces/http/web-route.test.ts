/** POST /web: the web finder over HTTP, where result URLs on private addresses are always refused. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine.js';
import type { Engine } from '../../engine/engine-types.js';
import type { WebResponse } from '../../engine/web-types.js';
import { capturedResultsPage, capturedTargets, type FakeWeb, rewriteTargets, startFakeWeb } from '../../testing/fake-web.js';
import { runCliCaptured } from '../../testing/run-cli.js';
import { createHttpServer } from './server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A fake DuckDuckGo whose ten results lead to pages on 127.0.0.1, and an engine configured to search it. */
async function setup(answer?: () => { status: number; body: string }): Promise<{ web: FakeWeb; engine: Engine; base: string; dir: string; config: string }> {
  const captured = capturedResultsPage();
  let port = 0;
  const web = await startFakeWeb(answer ?? (() => ({ status: 200, body: rewriteTargets(captured, new Map(capturedTargets(captured).map((target, index) => [target, `http://127.0.0.1:${port}/site${index}.example.test/flatmap`]))) })), {});
  port = web.sitePort;
  closers.push(() => web.close());
  const dir = mkdtempSync(join(tmpdir(), 'citedocs-web-http-'));
  // Even a configuration that allows private hosts does not open them to API callers.
  const settings = { web: { searchUrl: web.searchUrl, allowPrivateHosts: true, searchAttempts: 1, cache: { enabled: false } } };
  const config = join(dir, 'citedocs.config.json');
  writeFileSync(config, JSON.stringify({ web: { ...settings.web, allowPrivateHosts: false } }));
  const engine = createEngine({ dbPath: join(dir, 'index.db'), ...settings });
  closers.push(() => engine.close());
  const app: FastifyInstance = await createHttpServer(engine, {});
  closers.push(() => app.close());
  return { web, engine, base: await app.listen({ host: '127.0.0.1', port: 0 }), dir, config };
}

const post = (base: string, body: unknown) => fetch(`${base}/web`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('POST /web', () => {
  it('returns the JSON of `citedocs web --json` and refuses every result on a private address without connecting to it', async () => {
    const { web, base, dir, config } = await setup();
    const response = await post(base, { query: 'Array.prototype.flatMap', maxPages: 5 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as WebResponse;
    expect(body.searched).toHaveLength(5);
    expect(body.results).toEqual([]);
    expect(body.dropped.map((drop) => drop.reason)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused']);
    expect(body.warnings.join('\n')).toMatch(/127\.0\.0\.1.*loopback/);
    expect(web.requests.filter((request) => request !== 'search')).toEqual([]);

    // The CLI, with private hosts not allowed, gives the same JSON.
    const run = await runCliCaptured(['web', 'Array.prototype.flatMap', '--json', '--max-pages', '5', '--config', config, '--db', join(dir, 'index.db')], { cwd: dir });
    const cli = JSON.parse(run.stdout) as WebResponse;
    expect({ ...body, requests: undefined }).toEqual({ ...cli, requests: undefined });
  });

  it('refuses a body that fails validation with 400 naming each field, and does not let callers choose the search endpoint', async () => {
    const { base } = await setup();
    const empty = await post(base, { query: '' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/`query`: query must not be empty/);
    const endpoint = await post(base, { query: 'flatMap', searchUrl: 'http://169.254.169.254/' });
    expect(endpoint.status).toBe(400);
    expect(((await endpoint.json()) as { message: string }).message).toMatch(/unknown field `searchUrl`/);
    const tooMany = await post(base, { question: 'flatMap', maxPages: 51, region: 'nowhere' });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toMatch(/`maxPages`: maxPages must be at most 50.*`region`/);
  });

  it('answers 503 when the search engine refuses the search with its bot challenge', async () => {
    const { base } = await setup(() => ({ status: 202, body: capturedResultsPage('ddg_anomaly_challenge_202_clele.html') }));
    const response = await post(base, { query: 'flatMap' });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'search_unavailable', message: expect.stringMatching(/bot challenge/) });
  });
});
