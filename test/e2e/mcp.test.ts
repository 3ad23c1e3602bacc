/**
 * MCP end to end with the SDK's own client: over stdio against the `citedocs mcp` process, and
 * over streamable HTTP against `/mcp` of the HTTP server. Every tool is listed and called, and no
 * tool's text counts more tokens than the `maxTokens` it was given. What agents rely on is checked
 * as the MCP Inspector shows it: required fields, descriptions and examples, annotations, output
 * schemas with structured content (the SDK client validates it against them), server
 * instructions, and get_page read to the end cursor by cursor.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../src/core/types.js';
import { createEngine } from '../../src/engine/engine.js';
import type { Engine } from '../../src/engine/engine-types.js';
import { createHttpServer } from '../../src/interfaces/http/server.js';
import { capturedResultsPage, capturedTargets, type FakeWeb, rewriteTargets, startFakeWeb } from '../../src/testing/fake-web.js';
import { indexFixtureSite } from '../../src/testing/fixture-index.js';
import type { StaticServer } from '../../src/testing/static-server.js';
import { loadTokenizer } from '../../src/tokenize/tokenizer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let site: StaticServer;
let dbPath: string;
let engine: Engine;
let http: FastifyInstance;
let tokenizer: Tokenizer;
let web: FakeWeb;
const clients: Record<'stdio' | 'http', Client> = {} as Record<'stdio' | 'http', Client>;

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

beforeAll(async () => {
  ({ site, dbPath } = await indexFixtureSite('citedocs-mcp-'));
  tokenizer = await loadTokenizer('o200k_base');
  // A DuckDuckGo stand-in whose results lead to 127.0.0.1: find_web_docs must refuse them.
  const captured = capturedResultsPage();
  web = await startFakeWeb(rewriteTargets(captured, new Map(capturedTargets(captured).map((target, index) => [target, `http://127.0.0.1:1/page${index}`]))), {});
  const settings = { web: { searchUrl: web.searchUrl, allowPrivateHosts: true, cache: { enabled: false } } };
  const config = join(dirname(dbPath), 'citedocs.config.json');
  writeFileSync(config, JSON.stringify(settings));

  clients.stdio = new Client({ name: 'citedocs-test', version: '1.0.0' });
  await clients.stdio.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'mcp', '--db', dbPath, '--config', config], cwd: ROOT, stderr: 'pipe' }));

  engine = createEngine({ dbPath, ...settings });
  http = await createHttpServer(engine);
  const base = await http.listen({ host: '127.0.0.1', port: 0 });
  clients.http = new Client({ name: 'citedocs-test', version: '1.0.0' });
  await clients.http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await http.close();
  await engine.close();
  await site.close();
  await web.close();
});

describe.each(['stdio', 'http'] as const)('MCP over %s', (transport) => {
  const client = () => clients[transport];

  it('lists the tools, each taking maxTokens', async () => {
    const { tools } = await client().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_docs', 'find_web_docs', 'get_docs', 'get_page', 'index_docs', 'jobs', 'list_sources', 'resolve_library', 'search_docs']);
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('maxTokens');
  });

  it('declares the field each tool needs, and describes every field with examples', async () => {
    const { tools } = await client().listTools();
    const required = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema.required ?? []]));
    expect(required).toEqual({ search_docs: ['query'], ask_docs: ['question'], get_page: ['url'], find_web_docs: ['query'], list_sources: [], resolve_library: ['libraryName'], get_docs: ['library'], index_docs: ['url'], jobs: [] });
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema['examples'], tool.name).toEqual(expect.any(Array));
      for (const [name, field] of Object.entries(tool.inputSchema.properties ?? {})) expect((field as { description?: string }).description, `${tool.name}.${name}`).toEqual(expect.any(String));
    }
    const search = tools.find((tool) => tool.name === 'search_docs');
    expect((search?.inputSchema.properties?.['query'] as { examples?: unknown[] }).examples?.length).toBeGreaterThan(0);
  });

  it('annotates every tool but index_docs as read-only, and only find_web_docs and index_docs as reaching the open world', async () => {
    const { tools } = await client().listTools();
    for (const tool of tools) {
      const indexing = tool.name === 'index_docs';
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: !indexing, destructiveHint: false, openWorldHint: tool.name === 'find_web_docs' || indexing });
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
    }
  });

  it('declares an output schema for every tool, and answers with structured content beside the text', async () => {
    const { tools } = await client().listTools();
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
    const result = await client().callTool({ name: 'search_docs', arguments: { query: 'create an index concurrently', maxTokens: 300 } });
    const structured = result.structuredContent as { query: string; results: { n: number; url: string; text: string }[]; omitted: number; warnings: string[] };
    expect(structured.query).toBe('create an index concurrently');
    expect(structured.results.length).toBeGreaterThan(0);
    // The structured results are the passages of the text, no more.
    for (const passage of structured.results) expect(textOf(result)).toContain(`[${passage.n}] `);
    for (const passage of structured.results) expect(textOf(result)).toContain(passage.url);
    const sources = await client().callTool({ name: 'list_sources', arguments: {} });
    expect(sources.structuredContent).toMatchObject({ totalPages: expect.any(Number), sources: [{ url: `${site.url}docs/`, pages: expect.any(Number) }], omitted: 0 });
    const answer = await client().callTool({ name: 'ask_docs', arguments: { question: 'how do I drop a table', maxTokens: 1000 } });
    expect((answer.structuredContent as { citations: { url: string }[] }).citations[0]?.url).toMatch(/dropping\.html#/);
    // Warnings come as data too: a stable code and the stage, beside the words.
    const nothing = await client().callTool({ name: 'search_docs', arguments: { query: 'kubernetes helm chart' } });
    const noted = nothing.structuredContent as { warnings: string[]; diagnostics: { code: string; stage: string; message: string }[] };
    expect(noted.diagnostics).toEqual([{ code: 'retrieve.no-match', stage: 'retrieve', message: noted.warnings[0] }]);
  });

  it('groups search_docs passages by page on request: each page once, its passages together, the same passages as ungrouped', async () => {
    const flat = await client().callTool({ name: 'search_docs', arguments: { query: 'create an index concurrently', limit: 8, maxTokens: 20_000 } });
    const grouped = await client().callTool({ name: 'search_docs', arguments: { query: 'create an index concurrently', limit: 8, maxTokens: 20_000, groupByPage: true } });
    const flatResults = (flat.structuredContent as { results: { url: string }[] }).results;
    const { results, pages } = grouped.structuredContent as { results: { n: number; url: string }[]; pages: { url: string; sections: number[] }[] };
    expect(results.map((result) => result.url).sort()).toEqual(flatResults.map((result) => result.url).sort());
    expect(new Set(pages.map((page) => page.url)).size).toBe(pages.length);
    // Page by page: the numbers of each page's passages run on without a gap, and every passage belongs to its page.
    expect(pages.flatMap((page) => page.sections)).toEqual(results.map((result) => result.n));
    for (const page of pages) for (const n of page.sections) expect(results[n - 1]?.url.split('#')[0]).toBe(page.url);
  });

  it('tells the agent how to use the tools when it connects', () => {
    const instructions = client().getInstructions() ?? '';
    for (const name of ['search_docs', 'get_page', 'ask_docs', 'list_sources', 'find_web_docs', 'cursor', 'maxTokens']) expect(instructions).toContain(name);
  });

  it('get_page says when it truncated, and reads the rest of the page cursor by cursor, each part within maxTokens', async () => {
    const url = `${site.url}docs/guide/tables/dropping.html`;
    const page = (await engine.inspect(url));
    const parts: string[] = [];
    let cursor: string | undefined;
    for (let call = 0; call < 50; call += 1) {
      const result = await client().callTool({ name: 'get_page', arguments: { url, maxTokens: 120, ...(cursor === undefined ? {} : { cursor }) } });
      const structured = result.structuredContent as { text: string; truncated: boolean; nextCursor?: string; passages: { from: number; total: number } };
      expect(result.isError).toBeFalsy();
      expect(tokenizer.count(textOf(result))).toBeLessThanOrEqual(120);
      parts.push(structured.text);
      if (!structured.truncated) break;
      expect(textOf(result)).toContain(`cursor "${structured.nextCursor ?? ''}"`);
      cursor = structured.nextCursor;
    }
    expect(parts.length).toBeGreaterThan(1);
    const letters = (text: string) => text.replace(/[\s…]/g, '');
    expect(letters(parts.join(''))).toBe(letters(page?.chunks.map((chunk) => chunk.text).join('') ?? 'missing'));
  });

  it('get_page refuses a cursor it did not give', async () => {
    const result = await client().callTool({ name: 'get_page', arguments: { url: `${site.url}docs/guide/tables/dropping.html`, cursor: '999:0' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cursor "999:0" does not point into this page/);
  });

  it('search_docs returns the best passages with their URL#anchor, within maxTokens', async () => {
    const result = await client().callTool({ name: 'search_docs', arguments: { query: 'create an index concurrently', maxTokens: 300 } });
    const text = textOf(result);
    expect(result.isError).toBeFalsy();
    expect(text).toMatch(/docs\/guide\/indexes\/concurrently\.html#\S+/);
    expect(tokenizer.count(text)).toBeLessThanOrEqual(300);
  });

  it('search_docs takes `question` for `query`', async () => {
    const text = textOf(await client().callTool({ name: 'search_docs', arguments: { question: 'create an index concurrently', maxTokens: 300 } }));
    expect(text).toMatch(/concurrently\.html#/);
  });

  it('ask_docs answers with [n] citations and their sources, within maxTokens, also when the budget is tight', async () => {
    const roomy = textOf(await client().callTool({ name: 'ask_docs', arguments: { question: 'how do I drop a table', maxTokens: 1000 } }));
    expect(roomy).toMatch(/\[1\]/);
    expect(roomy).toMatch(/dropping\.html#/);
    expect(tokenizer.count(roomy)).toBeLessThanOrEqual(1000);
    const tight = textOf(await client().callTool({ name: 'ask_docs', arguments: { query: 'how do I drop a table', maxTokens: 40 } }));
    expect(tight.length).toBeGreaterThan(0);
    expect(tokenizer.count(tight)).toBeLessThanOrEqual(40);
  });

  it('get_page returns one section for a URL#anchor, and a whole page cut to maxTokens', async () => {
    const search = await engine.search('create an index concurrently', { limit: 1 });
    const sectionUrl = search.results[0]?.url ?? '';
    const section = textOf(await client().callTool({ name: 'get_page', arguments: { url: sectionUrl, maxTokens: 2000 } }));
    expect(section.split('\n')[1]).toBe(sectionUrl);
    expect(section).toContain(search.results[0]?.text.slice(0, 60));
    const page = textOf(await client().callTool({ name: 'get_page', arguments: { url: `${site.url}docs/guide/tables/dropping.html`, maxTokens: 90 } }));
    expect(page.startsWith('# Modifying Tables')).toBe(true);
    expect(page).toMatch(/\(Truncated at 90 tokens, \d+ of \d+ passages left: call get_page with the same url and cursor "\d+:\d+" to read on\.\)$/);
    expect(tokenizer.count(page)).toBeLessThanOrEqual(90);
  });

  it('get_page names a missing section and lists the anchors the page has', async () => {
    const result = await client().callTool({ name: 'get_page', arguments: { url: `${site.url}docs/guide/tables/dropping.html#nope` } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/has no section #nope\. Its anchors include: .*#dropping-a-table/);
  });

  it('list_sources names the documentation set and its page count', async () => {
    const text = textOf(await client().callTool({ name: 'list_sources', arguments: { maxTokens: 100 } }));
    expect(text).toMatch(new RegExp(`- ${site.url}docs/ \\(\\d+ pages\\)`));
    expect(tokenizer.count(text)).toBeLessThanOrEqual(100);
  });

  it('find_web_docs searches the web and never fetches a result on a private address, even when the configuration allows it', async () => {
    const result = await client().callTool({ name: 'find_web_docs', arguments: { query: 'Array.prototype.flatMap', maxPages: 3, maxTokens: 200 } });
    const text = textOf(result);
    expect(result.isError).toBeFalsy();
    expect(text).toMatch(/No web page was selected for "Array\.prototype\.flatMap" \(3 search results examined\)/);
    expect(text).toMatch(/refused 127\.0\.0\.1: it is a loopback address/);
    expect(tokenizer.count(text)).toBeLessThanOrEqual(200);
  });

  it('refuses invalid arguments with a tool error naming the field', async () => {
    const missing = await client().callTool({ name: 'search_docs', arguments: { maxTokens: 100 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/`query`: query is required \(or question\)/);
  });
});
