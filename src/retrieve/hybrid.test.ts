import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Candidate, Chunk, Page, TextHit, TextIndex, TextQuery } from '../core/types.js';
import { messagesOf } from '../core/diagnostics.js';
import { dot, type Embedder } from '../embed/embedder.js';
import { createOpenAiEmbedder } from '../embed/providers/openai.js';
import type { Llm } from '../llm/llm.js';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import type { VectorHit, VectorSearch } from '../store/vectors.js';
import { type ChatHandler, type ChatReply, type FakeOpenAiServer, hashedEmbedding, startFakeOpenAiServer } from '../testing/fake-openai-server.js';
import { createTextIndexDouble, testChunk } from '../testing/text-index-double.js';
import { type HybridOptions, type HybridSources, retrieveHybrid } from './hybrid.js';

// A tiny documentation site. Chunk ids are short keys, so expectations read as the passages.
const site: { url: string; title: string; chunks: { key: string; text: string }[] }[] = [
  {
    url: 'https://d.example/replication.html',
    title: 'Replication',
    chunks: [
      { key: 'streaming', text: 'Streaming replication ships WAL records to a standby server.' },
      { key: 'standby', text: 'A standby server replays WAL records and answers read-only queries.' },
    ],
  },
  {
    url: 'https://d.example/backup.html',
    title: 'Backup',
    chunks: [
      { key: 'archiving', text: 'Continuous archiving copies WAL segments to an archive for point-in-time recovery.' },
      { key: 'basebackup', text: 'Take a base backup with pg_basebackup before archiving starts.' },
    ],
  },
  {
    url: 'https://d.example/security.html',
    title: 'Security',
    chunks: [
      { key: 'rotate', text: 'Rotate the signing keys from the dashboard every ninety days.' },
      { key: 'rotated', text: 'Rotated signing keys stay valid for one day so running clients keep working.' },
      { key: 'automatic', text: 'Keys rotate automatically once rotation is enabled in the dashboard.' },
    ],
  },
  { url: 'https://d.example/webhooks.html', title: 'Webhooks', chunks: [{ key: 'webhook', text: 'Webhook deliveries are retried with exponential backoff for up to three days.' }] },
  {
    url: 'https://d.example/maintenance.html',
    title: 'Maintenance',
    chunks: [
      { key: 'vacuum', text: 'Vacuum reclaims storage occupied by dead tuples.' },
      { key: 'autovacuum', text: 'Autovacuum runs vacuum and analyze automatically.' },
    ],
  },
  { url: 'https://d.example/tables.html', title: 'Tables', chunks: [{ key: 'create-table', text: 'Create a table with columns and constraints.' }] },
  // Shares no word with "delete a row": only a model that knows synonyms finds it.
  { url: 'https://d.example/records.html', title: 'Records', chunks: [{ key: 'erase', text: 'Erasing a record frees its slot for new entries.' }] },
];

// The fake server's hashed bag-of-words embedding, after mapping synonyms to one word: a stand-in
// for a semantic model, under which "delete a row" and "erasing a record" are close.
const synonyms: Record<string, string> = { delete: 'erase', deleting: 'erase', erasing: 'erase', remove: 'erase', row: 'record', rows: 'record', records: 'record', entries: 'record', entry: 'record' };
const conceptEmbedding = (text: string): number[] => hashedEmbedding(text.toLowerCase().replace(/[\p{L}\p{N}]+/gu, (word) => synonyms[word] ?? word));

let directory: string;
let store: Store;
let allChunks: Chunk[];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'citedocs-hybrid-'));
  store = createSqliteStore(join(directory, 'index.db'), 'write');
  for (const { url, title, chunks } of site) {
    const page: Page = { url, canonicalUrl: url, title, markdown: chunks.map((chunk) => chunk.text).join('\n\n'), headings: [], anchors: [], contentHash: `hash:${url}`, fetchedAt: '2026-01-01T00:00:00.000Z', source: 'crawl' };
    await store.upsertPage(
      page,
      chunks.map(({ key, text }) => ({ id: key, pageUrl: url, pageTitle: title, headingPath: [], text, tokenCount: text.split(' ').length, contentHash: `c:${key}` })),
    );
  }
  allChunks = (await Promise.all(site.map(({ url }) => store.chunksOf(url)))).flat();
});
afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The fake OpenAI-compatible server, with the synonym-aware embeddings and the given chat replies. */
async function fakeServer(chat?: ChatHandler): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer({ embeddings: (inputs) => inputs.map(conceptEmbedding), ...(chat === undefined ? {} : { chat }) });
  servers.push(server);
  return server;
}

/** Chat replies by technique, told apart by their system prompts. */
function chatReplies(replies: { hyde?: ChatReply; expansion?: ChatReply; coverage?: ChatReply }): ChatHandler {
  return (body) => {
    const system = body.messages?.find((message) => message.role === 'system')?.content ?? '';
    const reply = system.startsWith('You write technical documentation') ? replies.hyde : system.startsWith('You help search') ? replies.expansion : system.startsWith('You check whether') ? replies.coverage : undefined;
    return reply ?? { status: 400, body: JSON.stringify({ error: { message: `no reply scripted for: ${system.slice(0, 40)}` } }) };
  };
}

const llmOn = (server: FakeOpenAiServer): Llm => createOpenAiCompatibleLlm({ baseUrl: server.url, model: 'fake-chat', timeoutMs: 5000, retries: 0, retryBaseDelayMs: 0 });
const embedderOn = (server: FakeOpenAiServer): Embedder => createOpenAiEmbedder({ baseUrl: server.url, model: 'fake-embed', timeoutMs: 5000, retries: 0, retryBaseDelayMs: 0 });

/** Exact cosine search over every chunk of the site, embedded as passages by `embedder`; records its calls. */
async function vectorSearchDouble(embedder: Embedder): Promise<{ searchVectors: NonNullable<HybridSources['searchVectors']>; calls: VectorSearch[] }> {
  const vectors = await embedder.embed({ texts: allChunks.map((chunk) => chunk.text), mode: 'passage' });
  const calls: VectorSearch[] = [];
  const searchVectors = async (query: Float32Array, options: VectorSearch): Promise<VectorHit[]> => {
    calls.push(options);
    return allChunks
      .map((chunk, index) => ({ chunk, similarity: dot(query, vectors[index] ?? new Float32Array()) }))
      .sort((left, right) => right.similarity - left.similarity || left.chunk.id.localeCompare(right.chunk.id))
      .slice(0, options.limit);
  };
  return { searchVectors, calls };
}

/** BM25 on the real index plus dense search through the fake server. */
async function denseSources(server: FakeOpenAiServer): Promise<HybridSources & { calls: VectorSearch[] }> {
  const embedder = embedderOn(server);
  const { searchVectors, calls } = await vectorSearchDouble(embedder);
  return { index: store, embedder, searchVectors, calls };
}

/** Every technique off, RRF with equal retriever weights: each test turns on what it is about. */
function baseOptions(): HybridOptions {
  return {
    topK: 10,
    ranking: { fieldWeights: { title: 2, headings: 4, identifiers: 4, code: 1, text: 1 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 },
    fusion: { method: 'rrf', rrfK: 60, retrieverWeights: { bm25: 1, dense: 1 } },
    techniques: {
      prf: { enabled: false, weight: 0.5, feedbackDocs: 3, expansionTerms: 5 },
      aliases: { enabled: false, weight: 1 },
      compounds: { enabled: false, weight: 1 },
      numbers: { enabled: false },
      coverage: { enabled: false, weight: 0.15 },
      proximity: { enabled: false, weight: 0.1, window: 3 },
      hyde: { enabled: false, weight: 0.8 },
      expansion: { enabled: false, weight: 0.7, variants: 2 },
      confidentMargin: 0,
    },
    followUp: { enabled: false, maxQueries: 2, weight: 0.6, inspect: 3 },
    guides: { enabled: false },
    dense: { coarseK: 100 },
  };
}

const ids = (candidates: readonly Candidate[]): string[] => candidates.map((candidate) => candidate.chunk.id);
function find(candidates: readonly Candidate[], id: string): Candidate {
  const found = candidates.find((candidate) => candidate.chunk.id === id);
  if (found === undefined) throw new Error(`no candidate ${id} among ${ids(candidates).join(', ')}`);
  return found;
}
const chatRequests = (server: FakeOpenAiServer) => server.requests.filter((request) => request.path === '/v1/chat/completions');
const embeddingInputs = (server: FakeOpenAiServer): unknown[] =>
  server.requests.filter((request) => request.path === '/v1/embeddings').flatMap((request) => (request.body as { input: unknown }).input);

/** The store, recording every text query. */
function recordingIndex(): TextIndex & { queries: TextQuery[] } {
  const queries: TextQuery[] = [];
  return {
    queries,
    searchText(query) {
      queries.push(query);
      return store.searchText(query);
    },
    termStats: (words) => store.termStats(words),
  };
}

describe('retrieveHybrid with BM25 only (a real SQLite index)', () => {
  it("runs only bm25:original and returns the index's BM25 order and raw scores", async () => {
    const result = await retrieveHybrid('How does a standby server replay WAL?', { index: store }, baseOptions());
    const direct = await store.searchText({ text: 'How does a standby server replay WAL?', limit: 10, ranking: baseOptions().ranking });
    expect(result.lists).toEqual(['bm25:original']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
    expect(direct.length).toBeGreaterThan(2);
    expect(ids(result.candidates)).toEqual(direct.map((hit) => hit.chunk.id));
    expect(result.candidates.map((candidate) => candidate.scores.bm25)).toEqual(direct.map((hit) => hit.bm25));
    for (const candidate of result.candidates) {
      expect(candidate.techniques).toEqual(['bm25:original']);
      expect(candidate.scores.dense).toBeUndefined();
      expect(candidate.retrievalType).toBeUndefined();
    }
  });

  it('cuts the candidates to topK and returns none for a question nothing matches', async () => {
    const options = { ...baseOptions(), topK: 2 };
    expect((await retrieveHybrid('standby server WAL records', { index: store }, options)).candidates).toHaveLength(2);
    expect(await retrieveHybrid('kubernetes helm chart', { index: store }, baseOptions())).toEqual({ candidates: [], lists: ['bm25:original'], diagnostics: [] });
  });
});

describe('retrieveHybrid with dense search (an embedder on the fake OpenAI-compatible server, a searchVectors double)', () => {
  it('adds dense:original, and a passage only dense search finds appears', async () => {
    const server = await fakeServer();
    const sources = await denseSources(server);
    const question = 'How do I delete a row from a table?';
    const lexical = await retrieveHybrid(question, { index: store }, baseOptions());
    expect(ids(lexical.candidates)).not.toContain('erase');

    const result = await retrieveHybrid(question, sources, baseOptions());
    expect(result.lists).toEqual(['bm25:original', 'dense:original']);
    const erase = find(result.candidates, 'erase');
    expect(erase.techniques).toEqual(['dense:original']);
    expect(erase.scores.bm25).toBeUndefined();
    expect(erase.scores.dense).toBeGreaterThan(0.3);
    // The table passage is found by both retrievers.
    expect(find(result.candidates, 'create-table').techniques).toEqual(['bm25:original', 'dense:original']);
    expect(sources.calls).toEqual([{ limit: 10, coarseK: 100 }]);
    expect(embeddingInputs(server)).toContain(question);
  });

  it("costs only the dense list when the embeddings server fails: BM25's candidates come back with a warning", async () => {
    const server = await fakeServer();
    const sources = await denseSources(server);
    server.setEmbeddingHandler(() => ({ status: 500, body: JSON.stringify({ error: { message: 'embedder down' } }) }));
    const result = await retrieveHybrid('standby server WAL', sources, baseOptions());
    const lexical = await retrieveHybrid('standby server WAL', { index: store }, baseOptions());
    expect(result.lists).toEqual(['bm25:original']);
    expect(result.candidates).toEqual(lexical.candidates);
    expect(messagesOf(result.diagnostics)).toHaveLength(1);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/^dense search failed \(.*HTTP 500/);
  });
});

describe('retrieveHybrid, pseudo-relevance feedback', () => {
  it('adds bm25:prf when enabled, finding passages through the feedback terms', async () => {
    const options = baseOptions();
    options.techniques.prf.enabled = true;
    const index = recordingIndex();
    // "standby" finds the two replication passages; their shared "wal" leads to the archiving one.
    const result = await retrieveHybrid('standby', { index }, options);
    expect(result.lists).toEqual(['bm25:original', 'bm25:prf']);
    expect(index.queries).toHaveLength(2);
    expect(index.queries[1]?.text.split(' ')[0]).toBe('standby');
    expect(index.queries[1]?.text.split(' ')).toContain('wal');
    expect(find(result.candidates, 'archiving').techniques).toEqual(['bm25:prf']);
    expect(find(result.candidates, 'standby').techniques).toEqual(['bm25:original', 'bm25:prf']);
  });

  it('adds no PRF list when the first round found nothing', async () => {
    const options = baseOptions();
    options.techniques.prf.enabled = true;
    expect((await retrieveHybrid('kubernetes helm chart', { index: store }, options)).lists).toEqual(['bm25:original']);
  });
});

describe('retrieveHybrid, aliases the docs define (a TextIndex double)', () => {
  // The question says "legend"; one passage found says the docs call it the "key".
  const defining = testChunk({ id: 'defining', text: 'The **set key** command enables a key (or legend) with a title for each plot.' });
  const autotitle = testChunk({ id: 'autotitle', text: 'set key autotitle columnheader takes each title from the first row.' });
  const hits = (query: TextQuery): TextHit[] => (/\bkey\b/.test(query.text) ? [{ chunk: autotitle, bm25: 9 }, { chunk: defining, bm25: 4 }] : [{ chunk: defining, bm25: 5 }]);

  it("adds bm25:aliases, searching the question with the docs' own name, which finds what only that name matches", async () => {
    const options = baseOptions();
    options.techniques = { ...options.techniques, aliases: { enabled: true, weight: 1 } };
    const index = createTextIndexDouble({ hits });
    const result = await retrieveHybrid('first row as the legend titles', { index }, options);
    expect(result.lists).toEqual(['bm25:original', 'bm25:aliases']);
    expect(index.searches.map((query) => query.text)).toEqual(['first row as the legend titles', 'first row as the legend titles key']);
    expect(ids(result.candidates)).toContain('autotitle');
  });

  it('adds no list when the passages found define no other name for a word of the question, or when turned off', async () => {
    const index = createTextIndexDouble({ hits: [{ chunk: autotitle, bm25: 5 }] });
    const options = baseOptions();
    options.techniques = { ...options.techniques, aliases: { enabled: true, weight: 1 } };
    expect((await retrieveHybrid('first row as the legend titles', { index }, options)).lists).toEqual(['bm25:original']);
    expect((await retrieveHybrid('first row as the legend titles', { index: createTextIndexDouble({ hits }) }, baseOptions())).lists).toEqual(['bm25:original']);
  });
});

describe('retrieveHybrid, neighbouring words written as one (a TextIndex double)', () => {
  // The question says "config file"; the docs write `configfile`, which only the joined word finds.
  const rootdir = testChunk({ id: 'rootdir', text: 'Initialization: determining rootdir and configfile' });
  const rootpath = testChunk({ id: 'rootpath', text: 'Config.rootpath: the path to the rootdir, a config attribute' });
  const hits = (query: TextQuery): TextHit[] => (/\bconfigfile\b/.test(query.text) ? [{ chunk: rootdir, bm25: 9 }, { chunk: rootpath, bm25: 3 }] : [{ chunk: rootpath, bm25: 5 }]);

  it('adds bm25:compounds, searching the question with the joined word, when the index holds that word', async () => {
    const options = baseOptions();
    options.techniques = { ...options.techniques, compounds: { enabled: true, weight: 1 } };
    const index = createTextIndexDouble({ hits, documentFrequency: { configfile: 3 } });
    const result = await retrieveHybrid('how does pytest find the rootdir and config file', { index }, options);
    expect(result.lists).toEqual(['bm25:original', 'bm25:compounds']);
    expect(index.termStatsCalls).toEqual([['pytestfind', 'configfile']]);
    expect(index.searches.map((query) => query.text)).toEqual(['how does pytest find the rootdir and config file', 'how does pytest find the rootdir and config file configfile']);
    expect(ids(result.candidates)).toContain('rootdir');
  });

  it('adds no list when the index holds no joined word, or when turned off', async () => {
    const options = baseOptions();
    options.techniques = { ...options.techniques, compounds: { enabled: true, weight: 1 } };
    const index = createTextIndexDouble({ hits });
    expect((await retrieveHybrid('how does pytest find the rootdir and config file', { index }, options)).lists).toEqual(['bm25:original']);
    expect(index.searches).toHaveLength(1);
    const off = createTextIndexDouble({ hits, documentFrequency: { configfile: 3 } });
    expect((await retrieveHybrid('how does pytest find the rootdir and config file', { index: off }, baseOptions())).lists).toEqual(['bm25:original']);
    expect(off.termStatsCalls).toEqual([]);
  });
});

describe('retrieveHybrid, numbers written as words (a TextIndex double)', () => {
  const spelled = testChunk({ id: 'spelled', text: 'plots column two provided the datum in column three exceeds ten' });
  const other = testChunk({ id: 'other', text: 'column 3 of the table' });
  const hits = (query: TextQuery): TextHit[] => (/\bthree\b/.test(query.text) ? [{ chunk: spelled, bm25: 9 }, { chunk: other, bm25: 2 }] : [{ chunk: other, bm25: 4 }]);

  it("searches a small number in digits also as the docs' word, in the question's own query", async () => {
    const options = baseOptions();
    options.techniques = { ...options.techniques, numbers: { enabled: true } };
    const index = createTextIndexDouble({ hits });
    const result = await retrieveHybrid('only plot points where column 3 is larger than 10', { index }, options);
    expect(result.lists).toEqual(['bm25:original']);
    expect(index.searches.map((query) => query.text)).toEqual(['only plot points where column 3 is larger than 10 three ten']);
    expect(ids(result.candidates)[0]).toBe('spelled');
  });

  it('searches the question as written when turned off', async () => {
    const index = createTextIndexDouble({ hits });
    const result = await retrieveHybrid('only plot points where column 3 is larger than 10', { index }, baseOptions());
    expect(index.searches.map((query) => query.text)).toEqual(['only plot points where column 3 is larger than 10']);
    expect(ids(result.candidates)).toEqual(['other']);
  });
});

describe('retrieveHybrid, term proximity (a TextIndex double)', () => {
  // Equal BM25: both hold "output" and "file"; only one says them together.
  const together = testChunk({ id: 'together', text: 'Redirect the output file with set output. Other words follow here.' });
  const apart = testChunk({ id: 'apart', text: 'The output of a command is shown. Much later, a file may be read.' });
  const hits: TextHit[] = [
    { chunk: apart, bm25: 5 },
    { chunk: together, bm25: 5 },
  ];

  it('lifts the passage holding the question’s neighbouring words together, and says so in its trace', async () => {
    const options = baseOptions();
    options.techniques = { ...options.techniques, proximity: { enabled: true, weight: 0.1, window: 3 } };
    const result = await retrieveHybrid('write the output file', { index: createTextIndexDouble({ hits }) }, options);
    expect(ids(result.candidates)).toEqual(['together', 'apart']);
    expect(find(result.candidates, 'together').trace.map((step) => step.technique)).toContain('proximity');
  });

  it('keeps the lists’ order when turned off', async () => {
    const result = await retrieveHybrid('write the output file', { index: createTextIndexDouble({ hits }) }, baseOptions());
    expect(ids(result.candidates)).toEqual(['apart', 'together']);
  });
});

describe('retrieveHybrid, coverage of the question (a TextIndex double)', () => {
  // The entry scores higher on BM25 but its text holds one of the question's four words; the how-to holds all four.
  const entry = testChunk({ id: 'entry', headingPath: ['check_pending()'], text: 'Verify that all hooks are optional.' });
  const howTo = testChunk({ id: 'how-to', headingPath: ['Expected exceptions'], text: 'To check that code raises ValueError with a message, use pytest.raises.' });
  const hits: TextHit[] = [
    { chunk: entry, bm25: 10 },
    { chunk: howTo, bm25: 9 },
    { chunk: testChunk({ id: 'other', text: 'Unrelated words.' }), bm25: 1 },
  ];

  it("weighs the passages by the share of the question's words their text holds, and says so in the trace", async () => {
    const options = baseOptions();
    options.fusion = { method: 'weighted', rrfK: 60, retrieverWeights: { bm25: 1, dense: 1 } };
    options.techniques = { ...options.techniques, coverage: { enabled: true, weight: 0.15 } };
    const index = createTextIndexDouble({ hits });
    const result = await retrieveHybrid('check that it raises ValueError with a message', { index }, options);
    expect(ids(result.candidates)).toEqual(['how-to', 'entry', 'other']);
    expect(find(result.candidates, 'entry').trace.map((step) => step.technique)).toContain('coverage');
    expect(index.termStatsCalls).toHaveLength(1);
  });

  it('keeps the order with a warning when the term statistics cannot be read', async () => {
    const options = baseOptions();
    options.fusion = { method: 'weighted', rrfK: 60, retrieverWeights: { bm25: 1, dense: 1 } };
    options.techniques = { ...options.techniques, coverage: { enabled: true, weight: 0.15 } };
    const index = { ...createTextIndexDouble({ hits }), termStats: () => Promise.reject(new Error('connection reset')) };
    const result = await retrieveHybrid('check that it raises ValueError with a message', { index }, options);
    expect(ids(result.candidates)).toEqual(['entry', 'how-to', 'other']);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['retrieve.coverage-failed']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/connection reset/);
  });

  it('keeps the lists’ order when turned off', async () => {
    const options = baseOptions();
    options.fusion = { method: 'weighted', rrfK: 60, retrieverWeights: { bm25: 1, dense: 1 } };
    const index = createTextIndexDouble({ hits });
    expect(ids((await retrieveHybrid('check that it raises ValueError with a message', { index }, options)).candidates)).toEqual(['entry', 'how-to', 'other']);
    expect(index.termStatsCalls).toEqual([]);
  });
});

describe('retrieveHybrid, guide sections (a TextIndex double)', () => {
  const api = 'https://d.example/group__sftp.html';
  const entryOf = (id: string, name: string) => testChunk({ id, pageUrl: api, anchor: id, headingPath: [`${name}()`], text: `int ${name}(sftp_session sftp)` });
  const guideChunk = testChunk({ id: 'guide', pageUrl: 'https://d.example/tutor.html', anchor: 'write', headingPath: ['Copying a file'], text: `You open the file with [sftp_open()](${api}#open) and you write with [sftp_write()](${api}#write).` });
  const hits: TextHit[] = [
    { chunk: entryOf('open', 'sftp_open'), bm25: 9 },
    { chunk: entryOf('write', 'sftp_write'), bm25: 8 },
    { chunk: entryOf('close', 'sftp_close'), bm25: 7 },
    { chunk: guideChunk, bm25: 1 },
  ];

  it('lifts a guide that links to two of the candidates to just below the best of them when on, and leaves the order when off', async () => {
    const options = baseOptions();
    options.fusion = { method: 'weighted', rrfK: 60, retrieverWeights: { bm25: 1, dense: 1 } };
    expect(ids((await retrieveHybrid('upload a file over sftp', { index: createTextIndexDouble({ hits }) }, options)).candidates)).toEqual(['open', 'write', 'close', 'guide']);
    options.guides = { enabled: true };
    const lifted = (await retrieveHybrid('upload a file over sftp', { index: createTextIndexDouble({ hits }) }, options)).candidates;
    expect(ids(lifted)).toEqual(['open', 'guide', 'write', 'close']);
    expect(lifted[1]?.trace.at(-1)).toMatchObject({ technique: 'guide', rank: 2 });
  });
});

describe('retrieveHybrid, confidentMargin (a TextIndex double with set BM25 scores, a model on the fake OpenAI-compatible server)', () => {
  const hitsScored = (first: number, second: number): TextHit[] => [
    { chunk: testChunk({ id: 'first', text: 'standby servers replay wal' }), bm25: first },
    { chunk: testChunk({ id: 'second', text: 'standby servers stream wal' }), bm25: second },
  ];
  const documentFrequency = { servers: 5, replay: 5, stream: 5, wal: 5 };

  async function runWith(first: number, second: number) {
    const server = await fakeServer(chatReplies({ hyde: 'A standby server replays WAL.', expansion: JSON.stringify({ keywords: ['wal replay'], paraphrases: ['how a standby applies wal'] }) }));
    const options = baseOptions();
    options.techniques = { ...options.techniques, confidentMargin: 0.5, prf: { ...options.techniques.prf, enabled: true }, hyde: { enabled: true, weight: 0.8 }, expansion: { enabled: true, weight: 0.7, variants: 1 } };
    const embedder = embedderOn(server);
    const index = createTextIndexDouble({ hits: hitsScored(first, second), documentFrequency });
    const result = await retrieveHybrid('standby', { index, embedder, searchVectors: async () => [], llm: llmOn(server) }, options);
    return { result, server };
  }

  it("skips PRF, HyDE and query expansion when BM25's best hit leads the next by the margin", async () => {
    // (10 - 4) / 10 = 0.6 ≥ 0.5
    const { result, server } = await runWith(10, 4);
    expect(result.lists).toEqual(['bm25:original', 'dense:original']);
    expect(chatRequests(server)).toHaveLength(0);
  });

  it('runs them when the lead is below the margin', async () => {
    // (10 - 6) / 10 = 0.4 < 0.5
    const { result, server } = await runWith(10, 6);
    expect(result.lists).toEqual(['bm25:original', 'dense:original', 'bm25:prf', 'dense:hyde', 'bm25:expansion', 'dense:expansion']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
    expect(chatRequests(server)).toHaveLength(2);
  });
});

describe('retrieveHybrid with a model on the fake OpenAI-compatible server', () => {
  const question = 'How do I free up disk space?';

  it('HyDE adds dense:hyde, searched with the embedded hypothetical passage', async () => {
    const passage = 'Vacuum reclaims storage occupied by dead tuples; autovacuum runs it automatically.';
    const server = await fakeServer(chatReplies({ hyde: passage }));
    const options = baseOptions();
    options.techniques.hyde.enabled = true;
    const result = await retrieveHybrid(question, { ...(await denseSources(server)), llm: llmOn(server) }, options);
    expect(result.lists).toEqual(['bm25:original', 'dense:original', 'dense:hyde']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
    expect(embeddingInputs(server)).toContain(passage);
    const vacuum = find(result.candidates, 'vacuum');
    expect(vacuum.techniques).toContain('dense:hyde');
    expect(vacuum.trace.find((entry) => entry.technique === 'dense:hyde')?.rank).toBe(1);
    const [hydeRequest] = chatRequests(server);
    expect(JSON.stringify(hydeRequest?.body)).toContain(question.replace('?', ''));
  });

  it('query expansion adds a bm25:expansion list per keyword query and a dense:expansion list per paraphrase', async () => {
    const server = await fakeServer(chatReplies({ expansion: JSON.stringify({ keywords: ['vacuum dead tuples', 'autovacuum'], paraphrases: ['reclaim storage'] }) }));
    const options = baseOptions();
    options.techniques.expansion.enabled = true;
    const result = await retrieveHybrid(question, { ...(await denseSources(server)), llm: llmOn(server) }, options);
    expect(result.lists).toEqual(['bm25:original', 'dense:original', 'bm25:expansion', 'bm25:expansion', 'dense:expansion']);
    expect(find(result.candidates, 'vacuum').techniques).toContain('bm25:expansion');
    expect(find(result.candidates, 'autovacuum').techniques).toContain('bm25:expansion');
    expect(chatRequests(server)[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(embeddingInputs(server)).toContain('reclaim storage');
  });

  it('without dense search, query expansion adds only BM25 lists and HyDE does not run', async () => {
    const server = await fakeServer(chatReplies({ hyde: 'unused', expansion: JSON.stringify({ keywords: ['vacuum'], paraphrases: ['reclaim storage'] }) }));
    const options = baseOptions();
    options.techniques.hyde.enabled = true;
    options.techniques.expansion.enabled = true;
    const result = await retrieveHybrid(question, { index: store, llm: llmOn(server) }, options);
    expect(result.lists).toEqual(['bm25:original', 'bm25:expansion']);
    expect(messagesOf(result.diagnostics)).toEqual([]);
    expect(chatRequests(server)).toHaveLength(1);
  });

  it("when chat answers 500, returns the original results and warns that HyDE and query expansion failed", async () => {
    const server = await fakeServer(() => ({ status: 500, body: JSON.stringify({ error: { message: 'the model crashed' } }) }));
    const sources = await denseSources(server);
    const options = baseOptions();
    options.techniques.hyde.enabled = true;
    options.techniques.expansion.enabled = true;
    const result = await retrieveHybrid('standby server WAL', { ...sources, llm: llmOn(server) }, options);
    const withoutLlm = await retrieveHybrid('standby server WAL', sources, baseOptions());
    expect(result.lists).toEqual(['bm25:original', 'dense:original']);
    expect(result.candidates).toEqual(withoutLlm.candidates);
    expect(result.candidates.length).toBeGreaterThan(0);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['retrieve.technique-failed', 'retrieve.technique-failed']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/^HyDE failed \(.*HTTP 500: the model crashed/);
    expect(messagesOf(result.diagnostics)[1]).toMatch(/^query expansion failed \(.*HTTP 500: the model crashed/);
    // retries: 0, so one request per technique.
    expect(chatRequests(server)).toHaveLength(2);
  });

  it("follow-up runs the model's follow-up queries when it judges the question not covered", async () => {
    const server = await fakeServer(chatReplies({ coverage: JSON.stringify({ covered: false, followUpQueries: ['webhook deliveries'] }) }));
    const options = baseOptions();
    options.followUp = { ...options.followUp, enabled: true };
    const result = await retrieveHybrid('rotate signing keys', { index: store, llm: llmOn(server) }, options);
    expect(result.lists).toEqual(['bm25:original', 'bm25:follow-up']);
    expect(find(result.candidates, 'webhook')).toMatchObject({ retrievalType: 'follow-up', followUpQuery: 'webhook deliveries' });
    expect(JSON.stringify(chatRequests(server)[0]?.body)).toContain('Rotate the signing keys');
  });

  it("keeps the first round's candidates with a warning when the follow-up judgement fails", async () => {
    const server = await fakeServer(() => ({ status: 500, body: '{}' }));
    const options = baseOptions();
    options.followUp = { ...options.followUp, enabled: true };
    const result = await retrieveHybrid('rotate signing keys', { index: store, llm: llmOn(server) }, options);
    expect(result.lists).toEqual(['bm25:original']);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['retrieve.follow-up-failed']);
    expect(messagesOf(result.diagnostics)[0]).toMatch(/^Follow-up analysis failed/);
  });
});

describe('retrieveHybrid, follow-up without a model', () => {
  // Three security passages match "rotate signing keys" better than the webhook passage matches
  // "retries" (it says "retried"), so with topK 3 the first round has only them and leaves "retries"
  // unsupported; in weighted fusion the follow-up's one hit (0.6) then beats the weaker two of them
  // (min-max normalised below 0.6), and the weakest (0) is cut by topK.
  const question = 'rotate signing keys retries';
  const followUpOptions = (): HybridOptions => {
    const options = baseOptions();
    return { ...options, topK: 3, fusion: { ...options.fusion, method: 'weighted' }, followUp: { ...options.followUp, enabled: true, inspect: 3 } };
  };

  it('issues one BM25 query of the unsupported terms and marks the candidates only it found', async () => {
    const index = recordingIndex();
    const firstRound = await retrieveHybrid(question, { index: store }, { ...followUpOptions(), followUp: { ...followUpOptions().followUp, enabled: false } });
    expect(ids(firstRound.candidates).sort()).toEqual(['automatic', 'rotate', 'rotated']);

    const result = await retrieveHybrid(question, { index }, followUpOptions());
    expect(result.lists).toEqual(['bm25:original', 'bm25:follow-up']);
    expect(index.queries.map((query) => query.text)).toEqual([question, 'retries']);
    expect(ids(result.candidates)).toEqual(['rotate', 'webhook', 'rotated']);
    expect(find(result.candidates, 'webhook')).toMatchObject({ retrievalType: 'follow-up', followUpQuery: 'retries' });
    expect(find(result.candidates, 'webhook').techniques).toEqual(['bm25:follow-up']);
    expect(find(result.candidates, 'rotate').retrievalType).toBeUndefined();
    expect(find(result.candidates, 'rotated').retrievalType).toBeUndefined();
  });

  it('runs the follow-up on the dense index too when there is one', async () => {
    const server = await fakeServer();
    const result = await retrieveHybrid(question, await denseSources(server), { ...followUpOptions(), topK: 2, followUp: { ...followUpOptions().followUp, inspect: 2 } });
    expect(result.lists.filter((list) => list.endsWith(':follow-up'))).toEqual(['bm25:follow-up', 'dense:follow-up']);
  });

  it('runs no follow-up when the top candidates cover every term', async () => {
    const index = recordingIndex();
    const result = await retrieveHybrid('rotate signing keys', { index }, followUpOptions());
    expect(result.lists).toEqual(['bm25:original']);
    expect(index.queries).toHaveLength(1);
  });
});

describe('retrieveHybrid, abort', () => {
  it('rejects with the reason when the signal is already aborted', async () => {
    const reason = new Error('the user cancelled');
    await expect(retrieveHybrid('standby server', { index: store }, { ...baseOptions(), abortSignal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('rejects soon when aborted while the model on the fake OpenAI-compatible server is still answering', async () => {
    const server = await fakeServer(() => ({ delayMs: 10_000 }));
    const options = baseOptions();
    options.techniques.expansion.enabled = true;
    const controller = new AbortController();
    const reason = new Error('the user cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(retrieveHybrid('standby server', { index: store, llm: llmOn(server) }, { ...options, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('rejects when aborted during the follow-up judgement on the fake OpenAI-compatible server', async () => {
    const server = await fakeServer(() => ({ delayMs: 10_000 }));
    const options = baseOptions();
    options.followUp = { ...options.followUp, enabled: true };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the user cancelled')), 50);
    await expect(retrieveHybrid('rotate signing keys', { index: store, llm: llmOn(server) }, { ...options, abortSignal: controller.signal })).rejects.toThrow('the user cancelled');
  });
});
