import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Tokenizer } from '../../core/types.js';
import type { Engine } from '../../engine/engine-types.js';
import { loadTokenizer } from '../../tokenize/tokenizer.js';
import { askFields, askRequest, describeIssues, getPageFields, getPageRequest, given, listSourcesFields, listSourcesRequest, searchFields, searchRequest, webFields, webRequest } from '../requests.js';
import { webBlock } from '../../engine/web-output.js';
import { fitBlocks } from './fit.js';
import { type CatalogToolOptions, registerCatalogTools } from './catalog-tools.js';

/** Output budgets when the caller gives none. */
const DEFAULT_TOKENS = { search: 4000, ask: 2000, page: 4000, sources: 1000, web: 6000 } as const;

/**
 * The MCP server for coding agents: the index's search, answers, pages and sources as tools.
 * Every tool takes `maxTokens` and its text never counts more (with the configured tokenizer);
 * arguments are checked by the same schemas as the HTTP API, and a wrong one is a tool error
 * naming the field, so the agent can correct its call.
 */
export function createMcpServer(engine: Engine, options: CatalogToolOptions = {}): McpServer {
  const server = new McpServer({ name: 'citedocs', version: '0.1.0' });
  const tokens = () => tokenizerOf(engine);

  const tool = <Schema extends z.ZodType>(schema: Schema, run: (args: z.output<Schema>, tokenizer: Tokenizer, signal?: AbortSignal) => Promise<string>) => async (args: unknown, extra?: { signal?: AbortSignal }): Promise<CallToolResult> => {
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success) return failure(`Invalid arguments: ${describeIssues(parsed.error)}.`);
    try {
      return { content: [{ type: 'text', text: await run(parsed.data, await tokens(), extra?.signal) }] };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  };

  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      description: 'The passages of the indexed documentation that best match a query, best first, each with the exact URL#anchor of its section. Use for "the docs for `FunctionName`".',
      inputSchema: searchFields,
    },
    tool(searchRequest, async ({ query, maxTokens, ...rest }, tokenizer) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.search;
      const response = await engine.search(query, { ...given(rest), maxTokens: budget });
      const blocks = response.results.map((result, index) => `[${index + 1}] ${[result.title, ...result.headingPath.slice(1)].join(' › ')} (${result.library}@${result.version})\n${result.url}\n\n${result.text}`);
      const warnings = response.warnings.length === 0 ? '' : `\n\nWarnings: ${response.warnings.join(' ')}`;
      if (blocks.length === 0) return fitBlocks(`Nothing in the index matches "${query}".${warnings}`, [], budget, tokenizer).text;
      return fitBlocks(`Passages for "${query}" (best first):`, blocks, budget, tokenizer).text;
    }),
  );

  server.registerTool(
    'ask_docs',
    {
      title: 'Answer from the documentation',
      description: 'A short answer drawn from the indexed documentation, each statement cited as [n], with the list of sources (URL#anchor) at the end.',
      inputSchema: askFields,
    },
    tool(askRequest, async ({ question, maxTokens, ...rest }, tokenizer) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.ask;
      const response = await engine.ask(question, { ...given(rest), maxTokens: budget });
      return fitAnswer(response.answer, budget, tokenizer);
    }),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a page or a section',
      description: 'The indexed text of a documentation page, or of one section when the URL has a #anchor (the URLs search_docs and ask_docs cite), within a token budget.',
      inputSchema: getPageFields,
    },
    tool(getPageRequest, ({ url, maxTokens }, tokenizer) => Promise.resolve(pageText(engine, url, maxTokens ?? DEFAULT_TOKENS.page, tokenizer))),
  );

  server.registerTool(
    'find_web_docs',
    {
      title: 'Find documentation on the web',
      description:
        'Searches the web (DuckDuckGo), reads the results and returns the best documentation pages, or their best sections, for a query such as an API name, within maxTokens, official documentation first and without near-duplicate copies. For when the index does not hold the docs you need.',
      inputSchema: webFields,
    },
    tool(webRequest, async ({ query, maxTokens, ...rest }, tokenizer, signal) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.web;
      const header = `Web documentation for "${query}" (best first):`;
      // Result URLs are untrusted: never fetched on private addresses from MCP, whatever the configuration says.
      const response = await engine.web(query, { ...given(rest), maxTokens: Math.max(1, budget - tokenizer.count(header) - 2), allowPrivateHosts: false, ...(signal === undefined ? {} : { signal }) });
      const blocks = response.results.map((result, index) => webBlock(index + 1, result, result.text));
      const warnings = response.warnings.length === 0 ? '' : `\n\nWarnings: ${response.warnings.join(' ')}`;
      if (blocks.length === 0) return fitBlocks(`No web page was selected for "${query}" (${response.searched.length} search results examined).${warnings}`, [], budget, tokenizer).text;
      return fitBlocks(header, blocks, budget, tokenizer).text;
    }),
  );

  server.registerTool(
    'list_sources',
    { title: 'List the indexed documentation', description: 'The documentation sets this index holds, with their page counts.', inputSchema: listSourcesFields },
    tool(listSourcesRequest, ({ maxTokens }, tokenizer) => {
      const sources = engine.listSources();
      const total = sources.reduce((sum, source) => sum + source.pages, 0);
      const header = `The index holds ${total} page${total === 1 ? '' : 's'} in ${sources.length} documentation set${sources.length === 1 ? '' : 's'}:`;
      return Promise.resolve(fitBlocks(header, sources.map((source) => `- ${source.url} (${source.pages} pages) — ${source.library}@${source.version}`), maxTokens ?? DEFAULT_TOKENS.sources, tokenizer, '\n').text);
    }),
  );
  registerCatalogTools(server, engine, tokens, options);
  return server;
}

/** One tokenizer per engine: over HTTP each request gets its own server, and loading one takes a few hundred ms. */
const tokenizers = new WeakMap<Engine, Promise<Tokenizer>>();
function tokenizerOf(engine: Engine): Promise<Tokenizer> {
  let tokenizer = tokenizers.get(engine);
  if (tokenizer === undefined) {
    tokenizer = loadTokenizer(engine.config.tokenizer.encoding);
    tokenizers.set(engine, tokenizer);
  }
  return tokenizer;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The answer within the budget: whole paragraphs from the start, and the sources they still cite. */
function fitAnswer(answer: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (tokenizer.count(answer) <= maxTokens) return answer;
  const split = answer.lastIndexOf('\n\nSources:\n');
  const body = split < 0 ? answer : answer.slice(0, split);
  const sources = split < 0 ? [] : answer.slice(split + '\n\nSources:\n'.length).split('\n');
  const paragraphs = body.split('\n\n');
  for (let keep = paragraphs.length; keep > 0; keep -= 1) {
    const text = paragraphs.slice(0, keep).join('\n\n');
    const cited = sources.filter((line) => text.includes(line.slice(0, line.indexOf(']') + 1)));
    const candidate = cited.length === 0 ? text : `${text}\n\nSources:\n${cited.join('\n')}`;
    if (tokenizer.count(candidate) <= maxTokens) return candidate;
  }
  return fitBlocks('', [answer], maxTokens, tokenizer).text;
}

/** A page's text, or one section's (its anchor and the subsections under it), within the budget. */
function pageText(engine: Engine, url: string, maxTokens: number, tokenizer: Tokenizer): string {
  const page = engine.inspect(url);
  if (page === undefined) throw new Error(`${url} is not in the index. Use a URL that search_docs returned, or list_sources to see what the index holds.`);
  const anchor = URL.canParse(url) ? decodeURIComponent(new URL(url).hash.slice(1)) : '';
  let chunks = page.chunks;
  if (anchor !== '') {
    const start = chunks.findIndex((chunk) => chunk.anchor === anchor);
    if (start < 0) {
      const known = page.anchors.slice(0, 30).map((name) => `#${name}`).join(', ');
      throw new Error(`${page.url} has no section #${anchor}. Its anchors include: ${known}.`);
    }
    const path = chunks[start]?.headingPath ?? [];
    let end = start + 1;
    while (end < chunks.length && (chunks[end]?.anchor === anchor || isUnder(chunks[end]?.headingPath ?? [], path))) end += 1;
    chunks = chunks.slice(start, end);
  }
  const header = `# ${page.title}\n${anchor === '' ? page.url : `${page.url}#${anchor}`}`;
  const blocks = chunks.map((chunk) => chunk.text);
  const fitted = fitBlocks(header, blocks, maxTokens, tokenizer);
  const rest = blocks.length - fitted.kept;
  const note = `\n\n(${rest} more passage${rest === 1 ? '' : 's'} left out to stay within ${maxTokens} tokens.)`;
  return rest > 0 && tokenizer.count(fitted.text + note) <= maxTokens ? fitted.text + note : fitted.text;
}

function isUnder(headingPath: readonly string[], section: readonly string[]): boolean {
  return headingPath.length > section.length && section.every((heading, index) => headingPath[index] === heading);
}
