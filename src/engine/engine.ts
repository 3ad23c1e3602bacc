import { inspectPage } from './catalog.js';
import { matchLibraries, removeSources, sourcesNamed, summariseCatalog } from './library-catalog.js';
import { siteReport } from './site-report.js';
import { type CitedocsConfigInput, parseConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { given } from '../core/given.js';
import { createUsageMeter, metering } from './usage.js';
import { createEngineContext } from './engine-context.js';
import { createIngesting } from './ingesting.js';
import { createPassageSelection } from './passage-selection.js';
import { searchPassages } from './searching.js';
import { askQuestion } from './asking.js';
import type { AskResponse, Engine, EngineDependencies } from './engine-types.js';
import type { DatabaseHealth } from '../store/postgres/pg-version-watch.js';

export type { AskEvent, AskOptions, AskResponse, EmbedOptions, Engine, EngineDependencies, IndexStats, PageGroup, PageInspection, SearchOptions, SearchResponse, SearchResult, SiteReport } from './engine-types.js';

/**
 * The composition root: the one place that turns configuration into wired pipeline stages. The
 * work is done by its parts: ingesting (the writing side), passage selection with searching and
 * asking (the query side); the engine hands each call to its part.
 */
export function createEngine(configInput: CitedocsConfigInput = {}, dependencies: EngineDependencies = {}): Engine {
  const config = parseConfig(configInput, dependencies.configOrigin);
  const context = createEngineContext(config, dependencies);
  const ingesting = createIngesting(context);
  const selectPassages = createPassageSelection(context);
  const engine: Engine = {
    config,
    ingest: (input, options = {}) => ingesting.ingest(input, options),
    ingestGit: (repository, options = {}) => ingesting.ingestGit(repository, options),
    ingestDocuments: (documents, options = {}) => ingesting.ingestDocuments(documents, options),
    embed: (options = {}) => ingesting.embed(options),
    refresh: (spec, options = {}) => ingesting.refresh(spec, options),
    startIngestJob: (url, options) => ingesting.startIngestJob(url, options),

    async countPagesUnder(prefix) {
      const index = context.existingStore();
      return index === undefined ? 0 : (await index.pageUrlsUnder(prefix)).length;
    },

    search: (query, options = {}) => searchPassages(context, selectPassages, query, options),

    async ask(question, options = {}) {
      let response: AskResponse | undefined;
      for await (const event of engine.askStream(question, options)) if (event.type === 'done') response = event.response;
      if (response === undefined) throw new Error('askStream ended without an answer');
      return response;
    },

    askStream: (question, options = {}) => askQuestion(context, selectPassages, question, options),

    async web(query, options = {}) {
      const { findWebDocs } = await import('./web-finding.js');
      const embedderName = config.embed.embedder;
      const embedder = embedderName === undefined || embedderName === 'none' ? undefined : context.queryEmbedder(embedderName);
      const meter = createUsageMeter();
      const response = await metering(meter, () =>
        findWebDocs(query, options, {
          config,
          tokenizer: context.tokenizer,
          llm: context.llm,
          ...given({ embedder, fetch: dependencies.fetch, lookup: dependencies.lookup, searchBackend: dependencies.searchBackend, env: dependencies.env, now: dependencies.now }),
          save: (pages) => ingesting.saveWebPages(pages, options.signal),
        }),
      );
      return { ...response, usage: meter.total() };
    },

    stats: () => context.store().stats(),
    inspect: (url) => inspectPage(context.store(), url),
    siteReport: (site) => siteReport(context.store(), site),

    async listSources() {
      const index = context.existingStore();
      if (index === undefined) return [];
      return summariseCatalog(await index.catalog.listSources(), await index.crawlState.latestRuns(), context.now());
    },

    async removeSources(spec) {
      const index = context.existingStore();
      if (index === undefined) throw new UsageError(`No index at ${config.dbPath}: nothing to remove.`);
      await ingesting.idle();
      return removeSources(index, sourcesNamed(await index.catalog.listSources(), spec));
    },

    async resolveLibrary(name, limit) {
      const index = context.existingStore();
      return index === undefined ? [] : matchLibraries(await index.catalog.listSources(), name, limit);
    },

    async listJobs() {
      const index = context.existingStore();
      return index === undefined ? [] : index.catalog.listJobs();
    },

    async samplePages(limit) {
      const index = context.existingStore();
      if (index === undefined || limit < 1) return [];
      const urls = (await index.pageUrlsUnder('')).sort();
      const step = Math.max(1, urls.length / limit);
      const picked = Array.from({ length: Math.min(limit, urls.length) }, (_, position) => urls[Math.floor(position * step)] ?? '');
      const pages: { url: string; title: string }[] = [];
      for (const url of picked) {
        const page = await index.getPage(url);
        if (page !== undefined) pages.push({ url: page.url, title: page.title });
      }
      return pages;
    },

    indexVersion() {
      const handle = context.openedStore();
      return handle !== undefined && 'indexGeneration' in handle && typeof handle.indexGeneration === 'function' ? (handle.indexGeneration as () => number)() : undefined;
    },

    databaseHealth() {
      const handle = context.openedStore();
      return handle !== undefined && 'databaseHealth' in handle && typeof handle.databaseHealth === 'function' ? (handle.databaseHealth as () => DatabaseHealth)() : undefined;
    },

    async close() {
      await ingesting.idle();
      await context.close();
    },
  };
  return engine;
}
