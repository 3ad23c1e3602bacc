import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { type FakeOpenAiServer, hashedEmbedding, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const workspace = (files: Record<string, string>) => docsWorkspace(files);

const files = {
  'plants.md': '# Plant care\n\n## Watering schedule\n\nSpray ferns with water twice a week; moss walls need misting daily.\n\n## Light\n\nKeep them out of direct sun.',
  'tools.md': '# Tools\n\n## Pruning shears\n\nCut dead leaves with clean shears.',
};

let server: FakeOpenAiServer;
let embeddingCalls = 0;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(async () => server.close());
beforeEach(() => {
  embeddingCalls = 0;
  server.setEmbeddingHandler((inputs) => {
    embeddingCalls += 1;
    return inputs.map((text) => hashedEmbedding(text));
  });
});

const configFor = (dbPath: string, embedder?: string) => ({
  dbPath,
  embed: { ...(embedder === undefined ? {} : { embedder }), batchSize: 1, openai: { baseUrl: server.url, retries: 0 } },
});

describe('engine with an OpenAI-compatible embedder on a fake OpenAI-compatible server', () => {
  it('embeds every passage at ingest, then re-ingesting unchanged pages calls the model not once', async () => {
    const { docs, dbPath } = workspace(files);
    const engine = createEngine(configFor(dbPath, 'openai:fake-embed'));
    const first = await engine.ingest(docs);
    expect(first.embedding).toMatchObject({ model: 'openai:fake-embed', embedded: first.chunks, reused: 0, pending: 0, interrupted: false });
    expect(embeddingCalls).toBeGreaterThan(0);
    embeddingCalls = 0;
    const again = await engine.ingest(docs);
    expect(again.embedding).toMatchObject({ embedded: 0, pending: 0 });
    expect(embeddingCalls).toBe(0);
    await engine.close();
  });

  it('keeps an embedded index embedded: a later ingest without --embedder embeds the changed passages with the index’s model', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith(configFor(dbPath, 'openai:fake-embed'), docs);
    writeFileSync(join(docs, 'tools.md'), '# Tools\n\n## Pruning shears\n\nCut dead leaves with sharp, clean shears.');
    embeddingCalls = 0;
    const engine = createEngine(configFor(dbPath));
    const report = await engine.ingest(docs);
    expect(report.embedding).toMatchObject({ model: 'openai:fake-embed', pending: 0 });
    expect(report.embedding?.embedded).toBeGreaterThan(0);
    expect(report.embedding?.embedded).toBeLessThan(report.chunks);
    await engine.close();
  });

  it('searches with the index’s own embedder and fuses dense and BM25 lists, each in the explain trace', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith(configFor(dbPath, 'openai:fake-embed'), docs);
    const engine = createEngine(configFor(dbPath));
    const response = await engine.search('how often should I mist my moss wall', { explain: true, limit: 3 });
    expect(response.retrieval).toEqual({ embedder: 'openai:fake-embed', lists: ['bm25:original', 'dense:original'] });
    expect(response.results[0]?.url).toMatch(/plants\.md#watering-schedule$/);
    expect(response.results[0]?.explain?.map((entry) => entry.technique)).toEqual(expect.arrayContaining(['bm25:original', 'dense:original', 'fused']));
    const bm25Only = await createEngine({ ...configFor(dbPath, 'none') }).search('how often should I mist my moss wall');
    expect(bm25Only.retrieval).toEqual({ lists: ['bm25:original'] });
    await engine.close();
  });

  it('records each embedding call of a search in its usage: calls, tokens of the texts embedded, time (a fake server)', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith(configFor(dbPath, 'openai:fake-embed'), docs);
    const engine = createEngine(configFor(dbPath));
    const before = server.requests.filter((request) => request.path.endsWith('/embeddings')).length;
    const response = await engine.search('how often should I mist my moss wall');
    const calls = server.requests.filter((request) => request.path.endsWith('/embeddings')).length - before;
    expect(calls).toBeGreaterThan(0);
    expect(response.usage.embedding.calls).toBe(calls);
    // The query, counted with the configured tokenizer (the embedder reports no usage).
    expect(response.usage.embedding.tokens).toBeGreaterThanOrEqual(8);
    expect(response.usage.embedding.ms).toBeGreaterThanOrEqual(0);
    expect(response.usage.llm).toEqual({ calls: 0, promptTokens: 0, completionTokens: 0, ms: 0 });
    // Ingesting embeds too, but only requests count on a request's meter: a second search costs the same again.
    expect((await engine.search('how often should I mist my moss wall')).usage.embedding.calls).toBe(calls);
    await engine.close();
  });

  it('refuses to search an index embedded with one model using another, naming both', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith(configFor(dbPath, 'openai:fake-embed'), docs);
    const engine = createEngine(configFor(dbPath, 'openai:other-model'));
    await expect(engine.search('water')).rejects.toThrow(UsageError);
    await expect(engine.search('water')).rejects.toThrow(/embedded with openai:fake-embed, not openai:other-model/);
    await engine.close();
  });

  it('re-embeds everything with a new embedder, and switching back costs no model call (the cache keeps both)', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith(configFor(dbPath, 'openai:fake-embed'), docs);
    const switched = await createEngine(configFor(dbPath, 'openai:other-model')).embed();
    expect(switched).toMatchObject({ model: 'openai:other-model', switchedFrom: 'openai:fake-embed', reused: 0, pending: 0 });
    embeddingCalls = 0;
    const back = await createEngine(configFor(dbPath, 'openai:fake-embed')).embed();
    expect(back).toMatchObject({ model: 'openai:fake-embed', switchedFrom: 'openai:other-model', pending: 0 });
    expect(back.reused).toBe(back.embedded);
    expect(embeddingCalls).toBe(0);
  });

  it('stops an interrupted embedding pass keeping what it stored, and the next pass finishes the rest', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith({ dbPath }, docs);
    const controller = new AbortController();
    server.setEmbeddingHandler((inputs) => {
      embeddingCalls += 1;
      // Call 1 learns the dimension, call 2 embeds the first passage, call 3 is interrupted.
      if (embeddingCalls === 3) controller.abort(new Error('interrupted'));
      return inputs.map((text) => hashedEmbedding(text));
    });
    const engine = createEngine({ ...configFor(dbPath, 'openai:fake-embed'), embed: { ...configFor(dbPath, 'openai:fake-embed').embed, concurrency: 1 } });
    const stopped = await engine.embed({ signal: controller.signal });
    expect(stopped.interrupted).toBe(true);
    expect(stopped.embedded).toBeGreaterThan(0);
    expect(stopped.pending).toBeGreaterThan(0);
    const resumed = await engine.embed();
    expect(resumed).toMatchObject({ embedded: stopped.pending, pending: 0, interrupted: false });
    await engine.close();
  });

  it('asks for an embedder when `embed` has none to use', async () => {
    const { docs, dbPath } = workspace(files);
    await ingestWith({ dbPath }, docs);
    await expect(createEngine({ dbPath }).embed()).rejects.toThrow(/Choose an embedder/);
    await expect(createEngine({ dbPath, embed: { embedder: 'word2vec' } }).embed()).rejects.toThrow(/Unknown embedder "word2vec"/);
  });

  it('searches an index embedded with shortened vectors (embed.openai.dimensions) without asking for a re-embed', async () => {
    const { docs, dbPath } = workspace(files);
    server.setEmbeddingHandler((inputs, { body }) => inputs.map((text) => hashedEmbedding(text, body.dimensions ?? 64)));
    const config = { dbPath, embed: { embedder: 'openai:fake-embed', openai: { baseUrl: server.url, retries: 0, dimensions: 32 } } };
    const report = await createEngine(config).ingest(docs);
    expect(report.errors).toEqual([]);
    expect(report.embedding?.model).toBe('openai:fake-embed@32');
    const response = await createEngine(config).search('mist the moss wall');
    expect(response.retrieval.embedder).toBe('openai:fake-embed@32');
  });

  it('keeps the pages and reports the failure when the embedder fails during ingest, caching no partial vector', async () => {
    const { docs, dbPath } = workspace(files);
    server.setEmbeddingHandler((inputs) => inputs.slice(1).map((text) => hashedEmbedding(text)));
    const report = await createEngine({ ...configFor(dbPath, 'openai:short-replies'), embed: { ...configFor(dbPath, 'openai:short-replies').embed, batchSize: 4 } }).ingest(docs);
    expect(report.pages).toBe(2);
    expect(report.errors.map((error) => error.message).join('\n')).toMatch(/Embedding failed: .*returned \d+ vectors for \d+ texts/);
    const stats = await createEngine({ dbPath }).embed({}).catch((error: unknown) => error);
    expect(stats).toBeInstanceOf(Error);
  });

  it('refuses an unknown embedder name before crawling anything', async () => {
    const { docs, dbPath } = workspace(files);
    await expect(createEngine({ dbPath, embed: { embedder: 'word2vec' } }).ingest(docs)).rejects.toThrow(/Unknown embedder "word2vec"/);
    await expect(createEngine({ dbPath }).search('water')).rejects.toThrow(/No index/);
  });
});

/** Ingests with an engine of its own, closed after: its writes are then in the file for the next engine. */
async function ingestWith(config: Parameters<typeof createEngine>[0], docs: string): Promise<void> {
  const engine = createEngine(config);
  await engine.ingest(docs);
  await engine.close();
}
