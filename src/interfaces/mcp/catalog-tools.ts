import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import type { Tokenizer } from '../../core/types.js';
import type { Engine, IngestJob } from '../../engine/engine-types.js';
import { describeIssues, getDocsFields, getDocsRequest, given, indexDocsFields, indexDocsRequest, resolveLibraryFields, resolveLibraryRequest } from '../requests.js';
import { fitBlocks } from './fit.js';

export interface CatalogToolOptions {
  /** `index_docs` runs only when the server was started with --allow-indexing. */
  allowIndexing?: boolean;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const DEFAULT_DOCS_TOKENS = 5000;
const DEFAULT_LIST_TOKENS = 2000;
const maxTokensField = { maxTokens: z.number().int().min(1).max(100_000).optional().describe('token budget of the text returned') };

/**
 * The catalog tools agents use the way they use Context7 and docs-mcp-server: resolve a
 * library name as typed, read its docs on a topic within a budget, and (when allowed) index a
 * new doc set as a background job whose progress they can follow.
 */
export function registerCatalogTools(server: McpServer, engine: Engine, tokens: () => Promise<Tokenizer>, options: CatalogToolOptions): void {
  const tool =
    <Schema extends z.ZodType>(schema: Schema, run: (args: z.output<Schema>, tokenizer: Tokenizer, extra: Extra) => Promise<string>) =>
    async (args: unknown, extra: Extra): Promise<CallToolResult> => {
      const parsed = schema.safeParse(args ?? {});
      if (!parsed.success) return failure(`Invalid arguments: ${describeIssues(parsed.error)}.`);
      try {
        const tokenizer = await tokens();
        const text = await run(parsed.data, tokenizer, extra);
        // Every tool's text fits its maxTokens: whole lines from the start.
        const budget = (parsed.data as { maxTokens?: number }).maxTokens ?? DEFAULT_LIST_TOKENS;
        const [first = '', ...lines] = text.split('\n');
        return { content: [{ type: 'text', text: tokenizer.count(text) <= budget ? text : fitBlocks(first, lines, budget, tokenizer, '\n').text }] };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    };

  server.registerTool(
    'resolve_library',
    {
      title: 'Find a library in the index',
      description: 'The libraries of the index a name may mean (any case, -/_/. variants, a typo away), best first, with their versions, page counts and a one-line description. Call before get_docs or search_docs with a library.',
      inputSchema: resolveLibraryFields,
    },
    tool(resolveLibraryRequest, ({ libraryName, limit }) => {
      const matches = engine.resolveLibrary(libraryName, limit ?? 5);
      if (matches.length === 0) {
        const known = engine.listSources().map((source) => source.library);
        return Promise.resolve(`No library in the index is named like "${libraryName}". The index holds: ${[...new Set(known)].join(', ') || 'nothing yet'}.`);
      }
      const lines = matches.map((match) => `- ${match.library} (versions: ${match.versions.join(', ')}; ${match.pages} pages; match ${match.score}) — ${match.description} ${match.url}`.trimEnd());
      return Promise.resolve(`Libraries for "${libraryName}", best first:\n${lines.join('\n')}`);
    }),
  );

  server.registerTool(
    'get_docs',
    {
      title: 'Read a library\'s documentation',
      description: 'The passages of one library (at a version: exact, a range like 5.x, or latest) about a topic, best first, within maxTokens, each with its URL#anchor. An unknown library or version is an error that lists the ones there are.',
      inputSchema: getDocsFields,
    },
    tool(getDocsRequest, async ({ library, version, topic, maxTokens }, tokenizer, extra) => {
      const budget = maxTokens ?? DEFAULT_DOCS_TOKENS;
      const query = topic ?? library;
      const response = await engine.search(query, { library, ...given({ version }), maxTokens: budget, signal: extra.signal });
      const first = response.results[0];
      const header = `${first === undefined ? library : `${first.library}@${first.version}`} documentation${topic === undefined ? '' : ` on "${topic}"`}:`;
      const blocks = response.results.map((result, index) => `[${index + 1}] ${[result.title, ...result.headingPath.slice(1)].join(' › ')}\n${result.url}\n\n${result.text}`);
      if (blocks.length === 0) return fitBlocks(`Nothing in ${library} matches "${query}".`, [], budget, tokenizer).text;
      return fitBlocks(header, blocks, budget, tokenizer).text;
    }),
  );

  server.registerTool(
    'index_docs',
    {
      title: 'Index a documentation site',
      description:
        'Starts crawling a documentation site into the index as a library at a version, as a background job; returns its id at once (follow it with the jobs tool). With wait: true it answers when the job ends, sending progress notifications meanwhile. Only when the server was started with --allow-indexing.',
      inputSchema: { ...indexDocsFields, wait: z.boolean().optional().describe('answer when the job has ended, with progress notifications meanwhile'), ...maxTokensField },
    },
    tool(indexDocsRequest.extend({ wait: z.boolean().optional(), ...maxTokensField }), async ({ url, library, version, wait }, _tokenizer, extra) => {
      if (options.allowIndexing !== true) throw new Error('Indexing is disabled on this server: start it with `citedocs mcp --allow-indexing` (or `serve --allow-indexing`) to let agents index documentation.');
      if (!/^https?:\/\//i.test(url)) throw new Error(`Cannot index ${url}: give an http(s) URL of a documentation site.`);
      const progressToken = extra._meta?.progressToken;
      let step = 0;
      const job = await engine.startIngestJob(url, {
        ...given({ library, version }),
        onProgress: (progress) => {
          if (wait !== true || progressToken === undefined) return;
          step += 1;
          void extra
            .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, message: `${progress.pages} pages stored, ${progress.queued} queued, ${progress.errors} errors` } })
            .catch(() => undefined);
        },
      });
      if (wait !== true) return `Started job ${job.id}: indexing ${url}${library === undefined ? '' : ` as ${library}${version === undefined ? '' : `@${version}`}`}. Call jobs to follow it.`;
      return describeJob(await job.done);
    }),
  );

  server.registerTool(
    'jobs',
    { title: 'List indexing jobs', description: 'The background indexing jobs (index_docs), newest first: state, library@version, URL, pages so far.', inputSchema: maxTokensField },
    tool(z.object(maxTokensField).strict(), () => {
      const jobs = engine.listJobs();
      return Promise.resolve(jobs.length === 0 ? 'No indexing jobs.' : jobs.slice(0, 20).map(describeJob).join('\n'));
    }),
  );
}

function describeJob(job: IngestJob): string {
  const name = job.library === '' ? job.url : `${job.library}@${job.version} (${job.url})`;
  return `Job ${job.id}: ${job.state} — ${name}, ${job.progress.pages ?? 0} pages${job.error === undefined ? '' : `: ${job.error}`}`;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
