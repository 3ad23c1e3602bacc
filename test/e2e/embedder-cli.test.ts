import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCliCaptured } from '../../src/testing/run-cli.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../../src/testing/fake-openai-server.js';

// The embedder is a real OpenAI-compatible client talking to a fake OpenAI-compatible server on 127.0.0.1.
let server: FakeOpenAiServer;
let workDir: string;
let db: string;
const docs = resolve('docs');

const cli = (argv: string[], env: Record<string, string> = { OPENAI_API_KEY: 'sk-local' }): Promise<CliRun> => runCliCaptured(argv, { cwd: workDir, env });

beforeAll(async () => {
  server = await startFakeOpenAiServer({ apiKey: 'sk-local' });
  workDir = mkdtempSync(join(tmpdir(), 'citedocs-embed-cli-'));
  db = join(workDir, 'docs.db');
  writeFileSync(join(workDir, 'citedocs.config.json'), JSON.stringify({ embed: { openai: { baseUrl: server.url, retries: 0 } } }));
});
afterAll(async () => server.close());

describe('citedocs --embedder (OpenAI-compatible embedder on a fake OpenAI-compatible server)', () => {
  it('ingests with --embedder, reports the embedding, and search uses the index’s embedder by itself', async () => {
    const ingest = await cli(['ingest', docs, '--db', db, '--embedder', 'openai:fake-embed', '--json']);
    expect(ingest.code).toBe(0);
    const report = JSON.parse(ingest.stdout) as { chunks: number; embedding: { model: string; embedded: number; pending: number } };
    expect(report.embedding).toMatchObject({ model: 'openai:fake-embed', embedded: report.chunks, pending: 0 });
    const search = await cli(['search', 'keep the answer inside a token budget', '--db', db, '--json', '--explain']);
    expect(search.code).toBe(0);
    const json = JSON.parse(search.stdout) as { results: { url: string }[]; retrieval: { embedder?: string; lists: string[] } };
    // The question's own lists come first; techniques may add more, depending on what the docs folder says.
    expect(json.retrieval.embedder).toBe('openai:fake-embed');
    expect(json.retrieval.lists.slice(0, 2)).toEqual(['bm25:original', 'dense:original']);
    expect(json.results.length).toBeGreaterThan(0);
    expect(server.requests.every((request) => request.headers['authorization'] === 'Bearer sk-local')).toBe(true);
  });

  it('refuses another embedder than the index’s with exit code 2 and the command that fixes it', async () => {
    const run = await cli(['search', 'budget', '--db', db, '--embedder', 'use']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('was embedded with openai:fake-embed, not use');
    expect(run.stderr).toContain('citedocs embed --embedder use');
  });

  it('searches with BM25 only under --embedder none', async () => {
    const run = await cli(['search', 'budget', '--db', db, '--embedder', 'none', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ retrieval: { lists: ['bm25:original'] } });
  });

  it('re-embeds the index with `citedocs embed --embedder`, naming the model it replaced', async () => {
    const run = await cli(['embed', '--db', db, '--embedder', 'openai:other-embed', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ model: 'openai:other-embed', switchedFrom: 'openai:fake-embed', pending: 0, interrupted: false });
    const human = await cli(['embed', '--db', db]);
    expect(human.stdout).toContain('Embeddings (openai:other-embed): 0 passages embedded.');
  });

  it('rejects an unknown embedder name as a usage error listing the known ones', async () => {
    const run = await cli(['search', 'budget', '--db', db, '--embedder', 'word2vec']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown embedder "word2vec". Use one of: none, use, transformers:');
  });

  it('says how to add an embedder after an ingest without one', async () => {
    const run = await cli(['ingest', docs, '--db', join(workDir, 'plain.db')]);
    expect(run.stdout).toContain('no embedder; add --embedder use');
  });
});
