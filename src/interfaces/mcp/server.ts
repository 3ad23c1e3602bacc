import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { answerWithSources } from '../../answer/citations/process.js';
import { elapsedMs, logger } from '../../core/log.js';
import { PACKAGE_VERSION } from '../../core/package-info.js';
import { plural } from '../../core/plural.js';
import type { Tokenizer } from '../../core/types.js';
import type { AskResponse, Engine } from '../../engine/engine-types.js';
import { webBlock } from '../../engine/web-output.js';
import { loadTokenizer } from '../../tokenize/tokenizer.js';
import { askRequest, describeIssues, given, listSourcesRequest, searchRequest, webRequest } from '../requests.js';
import { fitBlocks } from './fit.js';
import { readPage } from './page-tool.js';
import { type CatalogToolOptions, registerCatalogTools } from './catalog-tools.js';
import {
  ANNOTATIONS,
  askInput,
  askOutput,
  DEFAULT_TOKENS,
  getPageArguments,
  getPageInput,
  getPageOutput,
  listSourcesInput,
  listSourcesOutput,
  searchInput,
  searchOutput,
  webInput,
  webOutput,
} from './tool-schemas.js';

/** What an agent reads when it connects: which tool answers what, and how to read on. */
export const SERVER_INSTRUCTIONS = [
  'citedocs answers from an index of documentation with passages whose URLs and #anchors exist on the pages.',
  'Start with search_docs for an API name, an error message or a question: it returns the best passages, best first, each with the URL#anchor of its section.',
  'Use get_page with a URL from search_docs (keep the #anchor to read one section) to read more of a page. When a page is longer than maxTokens, get_page says it was truncated and gives a cursor: call it again with the same url and that cursor to read on.',
  'ask_docs gives a short answer with [n] citations, for a summary rather than passages.',
  'list_sources says which documentation sets the index holds; when the one you need is not there, find_web_docs searches the web for documentation pages.',
  'Every tool takes maxTokens and never returns more text than that. Cite the URLs as they are given.',
].join('\n');

type ToolOutput<Schema extends z.ZodType> = { text: string; structured: z.output<Schema> };

/**
 * The MCP server for coding agents: the index's search, answers, pages and sources as tools.
 * Every tool takes `maxTokens` and its text never counts more (with the configured tokenizer);
 * beside the text, `structuredContent` holds the same results as data (the tool's outputSchema).
 * Arguments are checked by the same schemas as the HTTP API, and a wrong one is a tool error
 * naming the field, so the agent can correct its call. A cancelled call stops its work: the
 * request's abort signal reaches the engine (and its LLM calls).
 */
export function createMcpServer(engine: Engine, options: CatalogToolOptions = {}): McpServer {
  const server = new McpServer({ name: 'citedocs', version: PACKAGE_VERSION }, { instructions: SERVER_INSTRUCTIONS });
  const tokens = () => tokenizerOf(engine);

  const tool =
    <Schema extends z.ZodType, Output extends z.ZodType>(name: string, schema: Schema, _output: Output, run: (args: z.output<Schema>, tokenizer: Tokenizer, signal: AbortSignal | undefined) => Promise<ToolOutput<Output>> | ToolOutput<Output>) =>
    async (args: unknown, extra?: { signal?: AbortSignal }): Promise<CallToolResult> => {
      const started = performance.now();
      const parsed = schema.safeParse(args ?? {});
      if (!parsed.success) {
        logger('mcp').info({ tool: name, ok: false, ms: elapsedMs(started) }, 'tool called with invalid arguments');
        return failure(`Invalid arguments: ${describeIssues(parsed.error)}.`);
      }
      const signal = extra?.signal;
      try {
        signal?.throwIfAborted();
        const tokenizer = await tokens();
        signal?.throwIfAborted();
        const { text, structured } = await run(parsed.data, tokenizer, signal);
        logger('mcp').info({ tool: name, ok: true, tokens: tokenizer.count(text), ms: elapsedMs(started) }, 'tool called');
        return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger('mcp').warn({ tool: name, ok: false, cancelled: signal?.aborted === true, error: message, ms: elapsedMs(started) }, 'tool failed');
        return failure(message);
      }
    };
  const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      description:
        'The passages of the indexed documentation that best match a query, best first, each with the exact URL#anchor of its section, within maxTokens. Use it first, for "the docs for `FunctionName`" or a question; read on with get_page.',
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: { title: 'Search the documentation', ...ANNOTATIONS.index },
    },
    tool('search_docs', searchRequest, searchOutput, async ({ query, maxTokens, ...rest }, tokenizer, signal) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.search;
      const response = await engine.search(query, { ...given(rest), maxTokens: budget, ...withSignal(signal) });
      // Grouped: the passages page by page, each page's best first; the text names a page once, at its first passage.
      const ordered = response.pages === undefined ? response.results : response.pages.flatMap((page) => page.sections);
      const blocks = ordered.map((result, index) => {
        const heading = response.pages === undefined || ordered[index - 1]?.url.split('#')[0] !== result.url.split('#')[0] ? '' : '(same page) ';
        return `[${index + 1}] ${heading}${[result.title, ...result.headingPath.slice(1)].join(' › ')} (${result.library}@${result.version})\n${result.url}\n\n${result.text}`;
      });
      const warnings = response.warnings.length === 0 ? '' : `\n\nWarnings: ${response.warnings.join(' ')}`;
      const fitted = blocks.length === 0 ? fitBlocks(`Nothing in the index matches "${query}".${warnings}`, [], budget, tokenizer) : fitBlocks(`Passages for "${query}" (best first):`, blocks, budget, tokenizer);
      const results = ordered.slice(0, fitted.kept).map((result, index) => ({ n: index + 1, url: result.url, library: result.library, version: result.version, title: result.title, headingPath: result.headingPath, text: result.text, score: result.score, tokenCount: result.tokenCount }));
      const pages = response.pages
        ?.map((page) => ({ url: page.url, title: page.title, library: page.library, version: page.version, sections: results.filter((result) => result.url.split('#')[0] === page.url).map((result) => result.n) }))
        .filter((page) => page.sections.length > 0);
      return { text: fitted.text, structured: { query, results, ...(pages === undefined ? {} : { pages }), omitted: response.results.length - results.length, warnings: response.warnings, diagnostics: response.diagnostics } };
    }),
  );

  server.registerTool(
    'ask_docs',
    {
      title: 'Answer from the documentation',
      description: 'A short answer drawn from the indexed documentation, each statement cited as [n], with the list of sources (URL#anchor) at the end, within maxTokens.',
      inputSchema: askInput,
      outputSchema: askOutput,
      annotations: { title: 'Answer from the documentation', ...ANNOTATIONS.index },
    },
    tool('ask_docs', askRequest, askOutput, async ({ question, maxTokens, ...rest }, tokenizer, signal) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.ask;
      const response = await engine.ask(question, { ...given(rest), maxTokens: budget, ...withSignal(signal) });
      const answer = fitAnswer(response, budget, tokenizer);
      // The sources the fitted answer still cites.
      const citations = response.citations.filter((citation) => answer.includes(`[${citation.n}]`)).map(({ n, url, title }) => ({ n, url, title }));
      return { text: answer, structured: { question, answer, citations, warnings: response.warnings, diagnostics: response.diagnostics } };
    }),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a page or a section',
      description:
        'The indexed text of a documentation page, or of one section when the URL has a #anchor (the URLs search_docs and ask_docs cite), within maxTokens. A longer page ends with a note that it was truncated and a cursor: pass it back with the same url to read on.',
      inputSchema: getPageInput,
      outputSchema: getPageOutput,
      annotations: { title: 'Read a page or a section', ...ANNOTATIONS.index },
    },
    tool('get_page', getPageArguments, getPageOutput, ({ url, maxTokens, cursor }, tokenizer) => readPage(engine, { url, maxTokens: maxTokens ?? DEFAULT_TOKENS.page, ...(cursor === undefined ? {} : { cursor }) }, tokenizer)),
  );

  server.registerTool(
    'find_web_docs',
    {
      title: 'Find documentation on the web',
      description:
        'Searches the web (DuckDuckGo), reads the results and returns the best documentation pages, or their best sections, for a query such as an API name, within maxTokens, official documentation first and without near-duplicate copies. For when the index does not hold the docs you need.',
      inputSchema: webInput,
      outputSchema: webOutput,
      annotations: { title: 'Find documentation on the web', ...ANNOTATIONS.web },
    },
    tool('find_web_docs', webRequest, webOutput, async ({ query, maxTokens, ...rest }, tokenizer, signal) => {
      const budget = maxTokens ?? DEFAULT_TOKENS.web;
      const header = `Web documentation for "${query}" (best first):`;
      // Result URLs are untrusted: never fetched on private addresses from MCP, whatever the configuration says.
      const response = await engine.web(query, { ...given(rest), maxTokens: Math.max(1, budget - tokenizer.count(header) - 2), allowPrivateHosts: false, ...withSignal(signal) });
      const blocks = response.results.map((result, index) => webBlock(index + 1, result, result.text));
      const warnings = response.warnings.length === 0 ? '' : `\n\nWarnings: ${response.warnings.join(' ')}`;
      const fitted =
        blocks.length === 0 ? fitBlocks(`No web page was selected for "${query}" (${plural(response.searched.length, 'search result')} examined).${warnings}`, [], budget, tokenizer) : fitBlocks(header, blocks, budget, tokenizer);
      const results = response.results.slice(0, fitted.kept).map((result, index) => ({ n: index + 1, url: result.url, title: result.title, text: result.text, score: result.score, tokenCount: result.tokenCount }));
      return { text: fitted.text, structured: { query, results, searched: response.searched.length, omitted: response.results.length - results.length, warnings: response.warnings, diagnostics: response.diagnostics } };
    }),
  );

  server.registerTool(
    'list_sources',
    {
      title: 'List the indexed documentation',
      description: 'The documentation sets this index holds, with their page counts, largest first.',
      inputSchema: listSourcesInput,
      outputSchema: listSourcesOutput,
      annotations: { title: 'List the indexed documentation', ...ANNOTATIONS.index },
    },
    tool('list_sources', listSourcesRequest, listSourcesOutput, async ({ maxTokens }, tokenizer) => {
      const sources = await engine.listSources();
      const totalPages = sources.reduce((sum, source) => sum + source.pages, 0);
      const header = `The index holds ${plural(totalPages, 'page')} in ${plural(sources.length, 'documentation set')}:`;
      const fitted = fitBlocks(header, sources.map((source) => `- ${source.url} (${plural(source.pages, 'page')}) — ${source.library}@${source.version}`), maxTokens ?? DEFAULT_TOKENS.sources, tokenizer, '\n');
      const kept = sources.slice(0, fitted.kept).map(({ url, pages, library, version }) => ({ url, pages, library, version }));
      return { text: fitted.text, structured: { totalPages, sources: kept, omitted: sources.length - kept.length } };
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

/** The answer within the budget: whole paragraphs from the start, and the list of the sources they still cite. */
function fitAnswer(response: Pick<AskResponse, 'answer' | 'text' | 'citations'>, maxTokens: number, tokenizer: Tokenizer): string {
  if (tokenizer.count(response.answer) <= maxTokens) return response.answer;
  const paragraphs = response.text.split('\n\n');
  for (let keep = paragraphs.length; keep > 0; keep -= 1) {
    const text = paragraphs.slice(0, keep).join('\n\n');
    const candidate = answerWithSources(text, response.citations.filter((citation) => text.includes(`[${citation.n}]`)));
    if (tokenizer.count(candidate) <= maxTokens) return candidate;
  }
  return fitBlocks('', [response.answer], maxTokens, tokenizer).text;
}
