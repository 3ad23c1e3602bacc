import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveSite, type SiteServer } from '../../testing/http-site.js';
import { runCli } from './main.js';

const servers: SiteServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: {}, cwd, interactive: false });
  return { code, stdout, stderr };
}

function beirFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'citedocs-beir-'));
  mkdirSync(join(root, 'qrels'));
  const corpus = [
    { _id: 'd1', title: 'Vitamin D and bone density', text: 'Vitamin D supplements increase bone mineral density in older adults.' },
    { _id: 'd2', title: 'Sleep and memory', text: 'Sleep deprivation impairs memory consolidation.' },
    { _id: 'd3', title: 'Coffee intake', text: 'Coffee consumption is associated with lower liver disease risk.' },
  ];
  writeFileSync(join(root, 'corpus.jsonl'), corpus.map((line) => JSON.stringify(line)).join('\n'));
  writeFileSync(join(root, 'queries.jsonl'), [{ _id: 'q1', text: 'does vitamin D help bones' }, { _id: 'q2', text: 'sleep loss and memory' }, { _id: 'q3', text: 'unjudged query' }].map((line) => JSON.stringify(line)).join('\n'));
  writeFileSync(join(root, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n');
  return root;
}

describe('citedocs eval', () => {
  it('scores a BEIR dataset: the judged queries, with nDCG@10, recall@k, MRR@10 and latency', async () => {
    const folder = beirFolder();
    const result = await cli(['eval', '--qrels', folder, '--json'], folder);
    expect(result.code, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout) as { queries: number; metrics: Record<string, number>; config: Record<string, unknown>; ingest: { pages: number } };
    expect(output.queries).toBe(2);
    expect(output.metrics).toMatchObject({ 'ndcg@10': 1, 'recall@10': 1, 'mrr@10': 1, 'hit@5': 1, 'pageHit@5': 1 });
    expect(output.metrics['latencyP50Ms']).toBeGreaterThanOrEqual(0);
    expect(output.ingest.pages).toBe(3);
    expect(output.config).toHaveProperty('retrieve.fieldWeights');
    expect(output.config).not.toHaveProperty('dbPath');
  });

  it('scores docs questions against a site at page#anchor and page level, and compares with a saved baseline', async () => {
    const server = await serveSite({
      '/docs/': '<html><body><main><h1 id="home">Home</h1><p>Start.</p><a href="api.html">API</a></main></body></html>',
      '/docs/api.html': '<html><body><main><h1 id="api">API</h1><h2 id="connect">connect()</h2><p>Opens a connection with a timeout.</p><h2 id="close">close()</h2><p>Closes the connection.</p></main></body></html>',
    });
    servers.push(server);
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-questions-'));
    writeFileSync(join(folder, 'q.jsonl'), `${JSON.stringify({ qid: '1', query: 'open a connection with a timeout', gold: ['api.html#connect'] })}\n${JSON.stringify({ qid: '2', query: 'closes the connection', gold: ['api.html#missing'] })}\n`);
    const site = `${server.base}/docs/`;
    const first = await cli(['eval', '--questions', join(folder, 'q.jsonl'), '--site', site, '--db', join(folder, 'i.db'), '--json', '--save-baseline', join(folder, 'base.json')], folder);
    expect(first.code).toBe(0);
    const metrics = (JSON.parse(first.stdout) as { metrics: Record<string, number> }).metrics;
    expect(metrics).toMatchObject({ 'hit@1': 0.5, 'pageHit@1': 1 });
    expect(JSON.parse(readFileSync(join(folder, 'base.json'), 'utf8'))).toHaveProperty('perQuery');
    const requestsBefore = server.requests.length;
    const second = await cli(['eval', '--questions', join(folder, 'q.jsonl'), '--site', site, '--db', join(folder, 'i.db'), '--baseline', join(folder, 'base.json')], folder);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/hit@1 +0\.5 +0\.5 +\+0\.0000/);
    // The index already held the site: nothing was crawled again.
    expect(server.requests.length).toBe(requestsBefore);
  });

  it('counts a result nested inside a gold section in insideHit@5 (not hit@5), and reports repeated URLs in the top 5', async () => {
    const server = await serveSite({
      '/docs/': '<html><body><main><h1 id="guide">Guide</h1><h2 id="usage">Usage</h2><p>General notes on the library.</p><h3 id="timeouts">Timeouts</h3><p>Set the read timeout in seconds with settimeout().</p></main></body></html>',
    });
    servers.push(server);
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-inside-'));
    writeFileSync(join(folder, 'q.jsonl'), `${JSON.stringify({ qid: '1', query: 'set the read timeout in seconds', gold: ['#usage'] })}\n`);
    const result = await cli(['eval', '--questions', join(folder, 'q.jsonl'), '--site', `${server.base}/docs/`, '--db', join(folder, 'i.db'), '--json'], folder);
    expect(result.code, result.stderr).toBe(0);
    const metrics = (JSON.parse(result.stdout) as { metrics: Record<string, number> }).metrics;
    expect(metrics).toMatchObject({ 'hit@5': 0, 'insideHit@5': 1, 'pageHit@5': 1, duplicatesTop5: 0 });
  });

  it('counts an entry listed after its section resumes (prose between two lists of entries) as inside that section', async () => {
    const server = await serveSite({
      '/docs/': `<html><body><main><h1 id="guide">Guide</h1><h2 id="calls">Calls</h2><p>The calls of the library.</p>
        <dl><dt id="open">open()</dt><dd><p>Opens a handle.</p></dd></dl><p>The calls below change a handle.</p>
        <dl><dt id="settimeout">settimeout()</dt><dd><p>Sets the read timeout in seconds.</p></dd></dl><h2 id="other">Other</h2><p>More.</p></main></body></html>`,
    });
    servers.push(server);
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-inside-'));
    writeFileSync(join(folder, 'q.jsonl'), `${JSON.stringify({ qid: '1', query: 'set the read timeout in seconds', gold: ['#calls'] })}\n`);
    const result = await cli(['eval', '--questions', join(folder, 'q.jsonl'), '--site', `${server.base}/docs/`, '--db', join(folder, 'i.db'), '--json'], folder);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { metrics: Record<string, number> }).metrics).toMatchObject({ 'hit@5': 0, 'insideHit@5': 1 });
  });

  it('refuses incomplete or conflicting arguments as a usage error', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-eval-args-'));
    expect((await cli(['eval'], folder)).code).toBe(2);
    expect((await cli(['eval', '--questions', 'q.jsonl'], folder)).stderr).toMatch(/--questions needs --site/);
    const broken = join(folder, 'bad.jsonl');
    writeFileSync(broken, '{"qid": 1, "query": "x"}\n');
    const result = await cli(['eval', '--questions', broken, '--site', 'http://127.0.0.1:1/'], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad.jsonl:1: gold/);
    expect((await cli(['eval', '--qrels', folder, '--answers'], folder)).stderr).toMatch(/--answers needs --questions/);
  });

  it('with --answers, adds how often the answer cites a gold section and the top result, beside search gold at rank 1', async () => {
    const server = await serveSite({
      '/docs/': '<html><body><main><h1 id="home">Home</h1><p>Start.</p><a href="api.html">API</a></main></body></html>',
      '/docs/api.html': '<html><body><main><h1 id="api">API</h1><h2 id="connect">connect()</h2><p>Opens a connection with a timeout.</p><h2 id="close">close()</h2><p>Closes the connection.</p></main></body></html>',
    });
    servers.push(server);
    const folder = mkdtempSync(join(tmpdir(), 'citedocs-answers-'));
    writeFileSync(join(folder, 'q.jsonl'), `${JSON.stringify({ qid: '1', query: 'open a connection with a timeout', gold: ['api.html#connect'] })}\n`);
    const site = `${server.base}/docs/`;
    const json = await cli(['eval', '--answers', '--questions', join(folder, 'q.jsonl'), '--site', site, '--db', join(folder, 'i.db'), '--json'], folder);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { metrics: Record<string, number> }).metrics).toMatchObject({ answerCitesGold: 1, answerCitesTop1: 1, searchGoldAt1: 1 });
    const table = await cli(['eval', '--answers', '--questions', join(folder, 'q.jsonl'), '--site', site, '--db', join(folder, 'i.db')], folder);
    expect(table.stdout).toMatch(/answerCitesGold +1\n/);
    expect(table.stdout).toMatch(/answerCitesTop1 +1\n/);
  });
});
