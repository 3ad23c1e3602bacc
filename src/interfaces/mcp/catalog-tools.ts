import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import type { Tokenizer } from '../../core/types.js';
import type { Engine, IngestJob } from '../../engine/engine-types.js';
import { describeIssues, getDocsFields, getDocsRequest, given, indexDocsFields, indexDocsRequest, resolveLibraryFields, resolveLibraryRequest } from '../requests.js';
import { fitBlocks } from './fit.js';
import { ANNOTATIONS } from './tool-schemas.js';

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
    <Schema extends z.ZodType>(schema: Schema, run: (args: z.output<Schema>, tokenizer: Tokenizer, extra: Extra) => Promise<{ text: string; structured: Record<string, unknown> }>) =>
    async (args: unknown, extra: Extra): Promise<CallToolResult> => {
      const parsed = schema.safeParse(args ?? {});
      if (!parsed.success) return failure(`Invalid arguments: ${describeIssues(parsed.error)}.`);
      try {
        const tokenizer = await tokens();
        const { text, structured } = await run(parsed.data, tokenizer, extra);
        // Every tool's text fits its maxTokens: whole lines from the start.
        const budget = (parsed.data as { maxTokens?: number }).maxTokens ?? DEFAULT_LIST_TOKENS;
        const [first = '', ...lines] = text.split('\n');
        return { content: [{ type: 'text', text: tokenizer.count(text) <= budget ? text : fitBlocks(first, lines, budget, tokenizer, '\n').text }], structuredContent: structured };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    };

  server.registerTool(
    'resolve_library',
    {
      title: 'Find a library in the index',
      description: 'The libraries of the index a name may mean (any case, -/_/. variants, a typo away), best first, with their versions, page counts and a one-line description. Call before get_docs or search_docs with a library.',
      inputSchema: z.object(resolveLibraryFields).meta({ examples: [{ libraryName: 'PyTest' }, { libraryName: 'nextjs', limit: 3 }] }),
      outputSchema: resolveLibraryOutput,
      annotations: { title: 'Find a library in the index', ...ANNOTATIONS.index },
    },
    tool(resolveLibraryRequest, async ({ libraryName, limit }) => {
      const candidates = await engine.resolveLibrary(libraryName, limit ?? 5);
      if (candidates.length === 0) {
        const known = (await engine.listSources()).map((source) => source.library);
        return { text: `No library in the index is named like "${libraryName}". The index holds: ${[...new Set(known)].join(', ') || 'nothing yet'}.`, structured: { libraryName, candidates } };
      }
      const lines = candidates.map((match) => `- ${match.library} (versions: ${match.versions.join(', ')}; ${match.pages} pages; match ${match.score}) — ${match.description} ${match.url}`.trimEnd());
      return { text: `Libraries for "${libraryName}", best first:\n${lines.join('\n')}`, structured: { libraryName, candidates } };
    }),
  );

  server.registerTool(
    'get_docs',
    {
      title: "Read a library's documentation",
      description: 'The passages of one library (at a version: exact, a range like 5.x, or latest) about a topic, best first, within maxTokens, each with its URL#anchor. An unknown library or version is an error that lists the ones there are.',
      inputSchema: z.object(getDocsFields).meta({ examples: [{ library: 'pytest', topic: 'fixture teardown', maxTokens: 3000 }, { library: 'django', version: '5.x', topic: 'select_related' }] }),
      outputSchema: getDocsOutput,
      annotations: { title: "Read a library's documentation", ...ANNOTATIONS.index },
    },
    tool(getDocsRequest, async ({ library, version, topic, maxTokens }, tokenizer, extra) => {
      const budget = maxTokens ?? DEFAULT_DOCS_TOKENS;
      const query = topic ?? library;
      const response = await engine.search(query, { library, ...given({ version }), maxTokens: budget, signal: extra.signal });
      const first = response.results[0];
      const header = `${first === undefined ? library : `${first.library}@${first.version}`} documentation${topic === undefined ? '' : ` on "${topic}"`}:`;
      const blocks = response.results.map((result, index) => `[${index + 1}] ${[result.title, ...result.headingPath.slice(1)].join(' › ')}\n${result.url}\n\n${result.text}`);
      const fitted = blocks.length === 0 ? fitBlocks(`Nothing in ${library} matches "${query}".`, [], budget, tokenizer) : fitBlocks(header, blocks, budget, tokenizer);
      const results = response.results.slice(0, fitted.kept).map((result, index) => ({ n: index + 1, url: result.url, library: result.library, version: result.version, title: result.title, text: result.text }));
      return { text: fitted.text, structured: { library, ...(first === undefined ? {} : { version: first.version }), results, omitted: response.results.length - results.length } };
    }),
  );

  server.registerTool(
    'index_docs',
    {
      title: 'Index a documentation site',
      description:
        'Starts crawling a documentation site into the index as a library at a version, as a background job; returns its id at once (follow it with the jobs tool). With wait: true it answers when the job ends, sending progress notifications meanwhile. Only when the server was started with --allow-indexing.',
      inputSchema: z
        .object({ ...indexDocsFields, wait: z.boolean().optional().describe('answer when the job has ended, with progress notifications meanwhile'), ...maxTokensField })
        .meta({ examples: [{ url: 'https://docs.pytest.org/en/stable/', library: 'pytest', version: '8.3' }] }),
      outputSchema: jobOutput,
      annotations: { title: 'Index a documentation site', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
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
      if (wait !== true) {
        return { text: `Started job ${job.id}: indexing ${url}${library === undefined ? '' : ` as ${library}${version === undefined ? '' : `@${version}`}`}. Call jobs to follow it.`, structured: { job: { id: job.id, state: 'running', url } } };
      }
      const ended = await job.done;
      return { text: describeJob(ended), structured: { job: jobData(ended) } };
    }),
  );

  server.registerTool(
    'jobs',
    {
      title: 'List indexing jobs',
      description: 'The background indexing jobs (index_docs), newest first: state, library@version, URL, pages so far.',
      inputSchema: z.object(maxTokensField).meta({ examples: [{}] }),
      outputSchema: z.object({ jobs: z.array(jobDataSchema()) }),
      annotations: { title: 'List indexing jobs', ...ANNOTATIONS.index },
    },
    tool(z.object(maxTokensField).strict(), async () => {
      const jobs = (await engine.listJobs()).slice(0, 20);
      return { text: jobs.length === 0 ? 'No indexing jobs.' : jobs.map(describeJob).join('\n'), structured: { jobs: jobs.map(jobData) } };
    }),
  );
}

function jobDataSchema() {
  return z.object({
    id: z.number().int(),
    state: z.string().describe('running, complete or failed'),
    url: z.string(),
    library: z.string().optional(),
    version: z.string().optional(),
    pages: z.number().int().optional().describe('pages stored so far'),
    stoppedBy: z
      .object({ limit: z.string(), value: z.number(), remaining: z.number(), unit: z.string(), flag: z.string(), setting: z.string().optional(), resumes: z.boolean() })
      .optional()
      .describe('present when a limit ended the ingest early: which, its value, what is left'),
    error: z.string().optional(),
  });
}

const jobOutput = z.object({ job: jobDataSchema() });

const resolveLibraryOutput = z.object({
  libraryName: z.string(),
  candidates: z
    .array(z.object({ library: z.string(), score: z.number(), versions: z.array(z.string()).describe('highest first'), pages: z.number().int(), description: z.string(), url: z.string() }))
    .describe('best first'),
});

const getDocsOutput = z.object({
  library: z.string(),
  version: z.string().optional().describe('the version read'),
  results: z.array(z.object({ n: z.number().int(), url: z.string(), library: z.string(), version: z.string(), title: z.string(), text: z.string() })),
  omitted: z.number().int().describe('passages left out to stay within maxTokens'),
});

function jobData(job: IngestJob) {
  return {
    id: job.id,
    state: job.state,
    url: job.url,
    ...(job.library === '' ? {} : { library: job.library, version: job.version }),
    ...(job.progress.pages === undefined ? {} : { pages: job.progress.pages }),
    ...(job.progress.stoppedBy === undefined ? {} : { stoppedBy: job.progress.stoppedBy }),
    ...(job.error === undefined ? {} : { error: job.error }),
  };
}

function describeJob(job: IngestJob): string {
  const name = job.library === '' ? job.url : `${job.library}@${job.version} (${job.url})`;
  const stopped = job.progress.stoppedBy;
  const notice = stopped === undefined ? '' : ` — not complete: ${stopped.flag} ${stopped.value} (setting ${stopped.setting ?? stopped.limit}) ended it with ${stopped.remaining} ${stopped.unit === 'files' ? 'files' : 'URLs'} left; run index_docs again to continue, or raise the setting`;
  return `Job ${job.id}: ${job.state} — ${name}, ${job.progress.pages ?? 0} pages${notice}${job.error === undefined ? '' : `: ${job.error}`}`;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
