import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { given } from '../core/given.js';
import type { Chunk, Page } from '../core/types.js';
import { assertEmbedderUsable } from '../embed/create-embedder.js';
import { assertStoreLocation } from '../store/open-store.js';
import type { EngineContext } from './engine-context.js';
import { createEmbedding } from './embedding.js';
import type { Engine, RefreshReport } from './engine-types.js';
import type { IngestDependencies, IngestOptions, IngestReport } from './ingest.js';
import { createJobRunner } from './ingest-jobs.js';
import { sourcesNamed } from './library-catalog.js';
import { folderRootUrl, type SourceRequest, sourceResolver } from './source-resolver.js';
import { redactPasswords } from '../core/redact.js';

/** The engine's writing side: ingests (crawl, folder, git, documents, web pages), the embedding pass, refresh and jobs. */
export type Ingesting = Pick<Engine, 'ingest' | 'ingestGit' | 'ingestDocuments' | 'embed' | 'refresh' | 'startIngestJob'> & {
  /** Stores pages found on the web as the one source web@latest, then embeds them. */
  saveWebPages(pages: { page: Page; chunks: Chunk[] }[], signal: AbortSignal | undefined): Promise<{ pages: number; chunks: number; dbPath: string }>;
  /** Settles when every job started so far has ended. */
  idle(): Promise<void>;
};

export function createIngesting(context: EngineContext): Ingesting {
  const { config, dependencies } = context;

  const embedding = createEmbedding(context);
  const { finishIngest } = embedding;

  /** Refuses, before any page is read, what would fail after: a wrong or unusable embedder, an index path that cannot be created. */
  const assertIngestable = () => {
    if (config.embed.embedder !== undefined) assertEmbedderUsable(config.embed.embedder);
    assertStoreLocation(config.dbPath);
  };

  /** One ingest: pages read from `input` (or from `documents`), stored as the source the request names. */
  const runIngest = async (input: string, options: IngestOptions, request: Omit<SourceRequest, 'now'>, documents?: IngestDependencies['documents']): Promise<IngestReport> => {
    assertIngestable();
    // The ingest stages (HTML parsing, Markdown, tokenizer tables) load only when ingesting.
    const { ingest } = await import('./ingest.js');
    const source = sourceResolver({ ...request, now: context.now });
    const ingested = await ingest(input, options, {
      source,
      ...(documents === undefined ? {} : { documents }),
      config,
      tokenizer: context.tokenizer,
      openStore: context.store,
      existingStore: context.existingStore,
      ...given({ fetch: dependencies.fetch, lookup: dependencies.lookup, now: dependencies.now }),
    });
    const stored = source.resolved();
    if (stored !== undefined) await context.existingStore()?.catalog.recordCrawl(stored.id, context.now().toISOString());
    const report = stored === undefined ? ingested : { library: stored.library, version: stored.version, ...ingested };
    return await finishIngest(report, options);
  };

  const ingest: Ingesting['ingest'] = async (input, options = {}) => {
    const crawl = /^https?:\/\//i.test(input);
    return runIngest(input, options, {
      rootUrl: crawl ? input : folderRootUrl(input, options.baseUrl),
      kind: crawl ? 'crawl' : 'local',
      ...(crawl ? {} : { path: resolve(input) }),
      ...given({ library: options.library, version: options.version }),
      settings: ingestSettings(crawl ? input : resolve(input), options),
    });
  };

  const ingestGit: Ingesting['ingestGit'] = async (repository, options = {}) => {
    // A wrong embedder or index path is refused before git runs, as for any ingest.
    assertIngestable();
    const { ingestGitRepository } = await import('./git-ingest.js');
    return ingestGitRepository(repository, options, config.local.urlStyle, (plan) =>
      runIngest(plan.label, options, { rootUrl: plan.rootUrl, kind: 'git', library: plan.library, version: plan.version, settings: plan.settings }, { files: plan.files, baseUrl: plan.rootUrl, urlStyle: plan.urlStyle }),
    );
  };

  /** Each source read again as its ingest read it (a git version: its one tag); stops at the first interrupted one. */
  const refresh: Ingesting['refresh'] = async (spec, options = {}) => {
    const index = context.existingStore();
    if (index === undefined) throw new UsageError(`No index at ${config.dbPath}: nothing to refresh. Run \`citedocs ingest <url|folder>\` first.`);
    const all = await index.catalog.listSources();
    const chosen = (spec === undefined ? all : sourcesNamed(all, spec)).filter((source) => source.kind === 'crawl' || source.kind === 'local' || source.kind === 'git');
    const reports: RefreshReport[] = [];
    for (const source of chosen) {
      const done = (report: IngestReport) => reports.push({ library: source.library, version: source.version, url: source.rootUrl, report });
      const scope = { library: source.library, version: source.version };
      if (source.kind === 'git') {
        // A git version is its one tag read again: unchanged files are stored pages confirmed, not rewritten.
        const { gitRefreshRequest } = await import('./git-ingest.js');
        const again = gitRefreshRequest(source.settings);
        if (again === undefined) continue;
        for (const report of (await ingestGit(again.repository, { ...again.options, ...options, ...scope })).versions) done(report);
      } else {
        const { input, ...settings } = source.settings as { input?: string } & Record<string, unknown>;
        if (typeof input !== 'string') continue;
        done(await ingest(input, { ...(settings as IngestOptions), ...options, ...scope }));
      }
      if (options.signal?.aborted) break;
    }
    return reports;
  };

  const jobs = createJobRunner(context.store, (input, options) => ingest(input, options), context.now);

  return {
    ingest,
    ingestGit,
    refresh,

    async ingestDocuments(documents, options = {}) {
      const { ingestDocuments } = await import('./ingest-documents.js');
      const index = await context.createdStore();
      const report = await ingestDocuments(documents, { config, openStore: () => index, tokenizer: context.tokenizer, ...given({ now: dependencies.now }) });
      return await finishIngest(report, options);
    },

    embed: embedding.embed,

    async saveWebPages(pages, signal) {
      const index = await context.createdStore();
      // Pages saved from the web belong to one source, web@latest, so scoping and `remove web` reach them.
      const saved =
        (await index.catalog.listSources()).find((source) => source.library === 'web' && source.version === 'latest') ??
        (await index.catalog.upsertSource({ library: 'web', version: 'latest', rootUrl: 'web:', kind: 'web', createdAt: context.now().toISOString() }));
      let chunks = 0;
      for (const { page, chunks: pageChunks } of pages) {
        await index.upsertPage(page, pageChunks, { rechunked: (await index.getPage(page.url))?.chunking !== page.chunking, sourceId: saved.id });
        chunks += pageChunks.length;
      }
      await finishIngest({ pages: pages.length, chunks, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], warnings: [], diagnostics: [], interrupted: false }, signal === undefined ? {} : { signal });
      return { pages: pages.length, chunks, dbPath: redactPasswords(config.dbPath) };
    },

    startIngestJob: (url, options) => jobs.start(url, options),
    idle: () => jobs.idle(),
  };
}

/** What `refresh` repeats of an ingest: its input and the options that shape what is read. */
function ingestSettings(input: string, options: IngestOptions): Record<string, unknown> {
  const { maxPages, maxDepth, concurrency, userAgent, include, exclude, baseUrl, urlStyle, allowPrivateHosts, allowedHosts } = options;
  return { input, ...given({ maxPages, maxDepth, concurrency, userAgent, include, exclude, baseUrl, urlStyle, allowPrivateHosts, allowedHosts }) };
}
