import { inspectPage } from './catalog.js';
import { labelFor, matchLibraries, namedLibrarySources, removeSources, routeByNamedLibrary, scopedSourceIds, sourceIdOfCandidates, sourcesNamed, summariseCatalog } from './library-catalog.js';
import { orderWithinSources } from '../retrieve/source-order.js';
import { folderRootUrl, type SourceRequest, sourceResolver } from './source-resolver.js';
import { createJobRunner } from './ingest-jobs.js';
import { siteReport } from './site-report.js';
import { retrievalQuery } from '../retrieve/conversation.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { linkIndexOfStore } from '../answer/citations/link-index.js';
import { answerWithSources } from '../answer/citations/process.js';
import { type Diagnostic, diagnostic, logDiagnostics, withWarnings } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import { createUsageMeter, meterEmbedder, meterLlm, metering, requestMeter } from './usage.js';
import { type AnchorMap, checkLink } from '../answer/link-check.js';
import { type CitedocsConfigInput, parseConfig } from '../core/config.js';
import { CitedocsError, UsageError } from '../core/errors.js';
import { redactPasswords } from '../core/redact.js';
import { given } from '../core/given.js';
import { chunkUrl, type Candidate, type Tokenizer } from '../core/types.js';
import { assertEmbedderUsable, EMBEDDER_NAMES_HELP, type EmbedderDependencies } from '../embed/create-embedder.js';
import type { Embedder } from '../embed/embedder.js';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible.js';
import type { Llm } from '../llm/llm.js';
import { selectCandidates } from '../select/selector.js';
import { passageTrimmer, selectionOptions } from './selection-options.js';
import { assertStoreLocation, createStoreIfMissing, openStoreHandle, storeExists } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import type { DatabaseHealth } from '../store/postgres/pg-version-watch.js';
import { loadTokenizer } from '../tokenize/tokenizer.js';
import type { EmbedReport } from './embed-pass.js';
import type { IngestDependencies, IngestOptions, IngestReport } from './ingest.js';
import { createReranking, type Reranking } from './reranking.js';
import { embedderRegistry, retrieve } from './retrieval.js';
import { writeAnswer } from './answering.js';

import type { AskResponse, EmbedOptions, Engine, EngineDependencies, LabelledCitation, RefreshReport, ScopeOptions, SearchResult } from './engine-types.js';
import type { Citation } from '../core/types.js';
import { round } from '../core/round.js';
import { groupByPage } from './page-groups.js';

export type { AskEvent, AskOptions, AskResponse, EmbedOptions, Engine, EngineDependencies, IndexStats, PageGroup, PageInspection, SearchOptions, SearchResponse, SearchResult, SiteReport } from './engine-types.js';

/** Sources of an unscoped ranking re-ordered by their own statistics, at most: one extra retrieval each. */
const MAX_SOURCES_REORDERED = 8;

/** The composition root: the one place that turns configuration into wired pipeline stages. */
export function createEngine(configInput: CitedocsConfigInput = {}, dependencies: EngineDependencies = {}): Engine {
  const config = parseConfig(configInput, dependencies.configOrigin);
  let tokenizer: Promise<Tokenizer> | undefined;
  // One store handle for the engine's life: searches and writes share it, and writes never close
  // it, so a search running while an ingest writes keeps going (each read sees a committed state).
  let handle: Store | undefined;
  const store = (): Store => (handle ??= openStoreHandle(config.dbPath));
  /** The store when the index exists already (what a re-crawl knows), without creating it. */
  const existingStore = (): Store | undefined => (handle !== undefined || storeExists(config.dbPath, existsSync) ? store() : undefined);
  /** The store, its index created first when missing: for writers that read before their first write. */
  const createdStore = async (): Promise<Store> => {
    await createStoreIfMissing(config.dbPath, existsSync);
    return store();
  };
  let reranking: Reranking | undefined;
  const embedderDependencies: EmbedderDependencies = {
    ...(dependencies.env === undefined ? {} : { env: dependencies.env }),
  };
  const embedders = embedderRegistry(config, embedderDependencies, dependencies.embedder);
  let llm: Llm | undefined | null = dependencies.llm ?? null;
  /** The configured LLM, its calls counted on the meter of the request that makes them. */
  let metered: Llm | undefined;
  const llmOf = (): Llm | undefined => {
    const model = rawLlmOf();
    if (model !== undefined && metered === undefined) metered = meterLlm(model, requestMeter, tokenizerOf);
    return metered;
  };
  const tokenizerOf = () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding));
  const meteredEmbedders = new Map<Embedder, Embedder>();
  /** A query-time embedder, its calls counted on the meter of the request that makes them. */
  const queryEmbedder = (name: string): Embedder | undefined => {
    const embedder = embedders.get(name);
    if (embedder === undefined) return undefined;
    let wrapped = meteredEmbedders.get(embedder);
    if (wrapped === undefined) meteredEmbedders.set(embedder, (wrapped = meterEmbedder(embedder, requestMeter, tokenizerOf)));
    return wrapped;
  };
  const rawLlmOf = (): Llm | undefined => {
    if (llm === null) {
      const { model, baseUrl, apiKeyEnv, timeoutMs, retries, retryBaseDelayMs } = config.llm;
      const apiKey = dependencies.env?.[apiKeyEnv];
      llm =
        model === undefined
          ? undefined
          : createOpenAiCompatibleLlm({ baseUrl, model, timeoutMs, retries, retryBaseDelayMs, ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }) });
    }
    return llm;
  };
  /** The embedder ingest and `embed` write vectors with: the configured one, else the index's own. */
  const ingestEmbedder = async (store: Store | undefined): Promise<Embedder | undefined> => {
    const name = config.embed.embedder ?? (await store?.vectors.info())?.modelId;
    return name === undefined ? undefined : embedders.get(name);
  };
  const runEmbedPass = async (store: Store, embedder: Embedder, options: EmbedOptions): Promise<EmbedReport> => {
    const { embedPending } = await import('./embed-pass.js');
    const started = performance.now();
    const report = await embedPending(store, embedder, {
      concurrency: config.embed.concurrency,
      ...(config.embed.batchSize === undefined ? {} : { batchSize: config.embed.batchSize }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    logger('embed').info({ model: report.model, embedded: report.embedded, reused: report.reused, pending: report.pending, interrupted: report.interrupted, ms: elapsedMs(started) }, 'passages embedded');
    return report;
  };

  /** The anchor map of these pages, read before the links to them are checked. */
  const anchorMapOf = async (store: Store, pageUrls: readonly string[]): Promise<AnchorMap> => {
    const anchors = new Map<string, ReadonlySet<string>>();
    // The pages are looked up at once: on a database each look-up is a round trip, and they add up per answer.
    await Promise.all(
      [...new Set(pageUrls)].map(async (url) => {
        if ((await store.getPage(url)) !== undefined) anchors.set(url, await store.anchorsOf(url));
      }),
    );
    return { hasPage: (url) => anchors.has(url), anchorsOf: (url) => anchors.get(url) ?? new Set() };
  };

  const retrieveAndSelect = async (query: string, limit: number, maxTokens: number, maxPages: number | undefined, scope: ScopeOptions, signal?: AbortSignal) => {
    const text = query.trim();
    if (text === '') throw new UsageError('The question is empty. Ask something, like: citedocs ask "how do I create an index"');
    const index = store();
    if (!(await index.hasChunks())) throw new UsageError(`The index at ${config.dbPath} has no passages yet. Run \`citedocs ingest <url|folder>\` first.`);
    const sourceIds = await scopedSourceIds(index, scope);
    const wiring = { config, store, embedderFor: queryEmbedder, llm: llmOf };
    const topK = Math.max(config.retrieve.topK, limit);
    // An unscoped question that names libraries of the index ("pytest fixture teardown") is
    // retrieved within their latest versions first (their own statistics, as if scoped), then
    // over the whole index for the rest: their passages come first, the others after.
    const routed = sourceIds === undefined ? await namedLibrarySources(index, text) : undefined;
    const retrieval = await retrieve(text, topK, wiring, signal, sourceIds ?? routed);
    if (routed !== undefined) {
      const rest = await retrieve(text, topK, wiring, signal);
      const seen = new Set(retrieval.candidates.map((candidate) => candidate.chunk.id));
      retrieval.candidates.push(...rest.candidates.filter((candidate) => !seen.has(candidate.chunk.id)).slice(0, Math.max(0, topK - retrieval.candidates.length)));
    } else if (sourceIds === undefined) {
      // Over several libraries: each keeps its slots in the ranking, filled in its own order (as if indexed alone).
      retrieval.candidates = await orderWithinSources(retrieval.candidates, {
        question: text,
        termStatsWithin: (sourceId, words) => index.termStats(words, [sourceId]),
        sourceOf: await sourceIdOfCandidates(index, retrieval.candidates),
        retrieveWithin: async (sourceId) => (await retrieve(text, topK, wiring, signal, [sourceId])).candidates,
        maxSources: MAX_SOURCES_REORDERED,
      });
    }
    const reranked = await (reranking ??= createReranking(config, llmOf)).rerank(text, retrieval.candidates, signal);
    const candidates = routed === undefined ? reranked.candidates : (await routeByNamedLibrary(text, reranked.candidates, index)).candidates;
    // Selection follows the reranked order (a model's judgement is not on the fused scale).
    const position = new Map(candidates.map((candidate, index) => [candidate.chunk.id, 1 - index / Math.max(candidates.length, 1)]));
    const order = (candidate: Candidate) => position.get(candidate.chunk.id) ?? 0;
    const trim = passageTrimmer(text, await (tokenizer ??= loadTokenizer(config.tokenizer.encoding)));
    const selection = selectCandidates(candidates, await selectionOptions(config, index, (dependencies.now ?? (() => new Date()))(), { candidates, limit, maxTokens, maxPages, order, trim }));
    logger('select').info({ candidates: candidates.length, selected: selection.candidates.length, tokens: selection.totalTokens, maxTokens, dropped: countReasons(selection.dropped) }, 'passages selected');
    const diagnostics: Diagnostic[] = [...retrieval.diagnostics, ...reranked.diagnostics];
    if (candidates.length === 0) diagnostics.push(diagnostic('retrieve.no-match', `No passage in the index matches "${text}".`));
    if (candidates.length > 0 && selection.candidates.length === 0 && selection.dropped.every((drop) => drop.reason === 'budget')) {
      diagnostics.push(diagnostic('budget.below-heading', `${candidates.length === 1 ? '1 passage matches' : `${candidates.length} passages match`}, but the budget of ${maxTokens} tokens is below even the best one's heading; raise --max-tokens.`));
    }
    const trimmed = selection.candidates.find((candidate) => candidate.trimmed === true);
    if (trimmed !== undefined) diagnostics.push(diagnostic('budget.trimmed', `The best passage (${chunkUrl(trimmed.chunk)}) was cut to its most relevant part to fit the budget of ${maxTokens} tokens; raise --max-tokens for all of it.`));
    return { selection, diagnostics, retrieval: { ...(retrieval.embedder === undefined ? {} : { embedder: retrieval.embedder }), lists: retrieval.lists } };
  };

  /** After an ingest: the embedding pass. */
  const finishIngest = async (report: IngestReport, options: IngestOptions): Promise<IngestReport> => {
    const store = existingStore();
    if (store === undefined || report.interrupted || config.embed.embedder === 'none' || !(await store.hasChunks())) return report;
    const embedder = await ingestEmbedder(store);
    if (embedder === undefined) return report;
    try {
      const embedding = await runEmbedPass(store, embedder, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onEmbedProgress === undefined ? {} : { onProgress: options.onEmbedProgress }),
      });
      return { ...report, embedding, interrupted: report.interrupted || embedding.interrupted };
    } catch (error) {
      // The pages are stored: a model that fails costs the vectors only, and `citedocs embed` retries.
      if (!(error instanceof CitedocsError)) throw error;
      return { ...report, errors: [...report.errors, { input: embedder.modelId, message: `Embedding failed: ${error.message} The pages are stored; run \`citedocs embed\` to retry.` }] };
    }
  };

  /** One ingest: pages read from `input` (or from `documents`), stored as the source the request names. */
  const runIngest = async (input: string, options: IngestOptions, request: Omit<SourceRequest, 'now'>, documents?: IngestDependencies['documents']): Promise<IngestReport> => {
    // A wrong embedder name, or one whose optional packages are missing, is refused before the crawl, not after it.
    if (config.embed.embedder !== undefined) assertEmbedderUsable(config.embed.embedder);
    // An index path that cannot be created fails now, not after the crawl's first pages.
    assertStoreLocation(config.dbPath);
    // The ingest stages (HTML parsing, Markdown, tokenizer tables) load only when ingesting.
    const { ingest } = await import('./ingest.js');
    const now = dependencies.now ?? (() => new Date());
    const source = sourceResolver({ ...request, now });
    const ingested = await ingest(input, options, {
      source,
      ...(documents === undefined ? {} : { documents }),
      config,
      tokenizer: () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding)),
      openStore: store,
      existingStore,
      ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
      ...(dependencies.lookup === undefined ? {} : { lookup: dependencies.lookup }),
      ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
    });
    const stored = source.resolved();
    if (stored !== undefined) await existingStore()?.catalog.recordCrawl(stored.id, now().toISOString());
    const report = stored === undefined ? ingested : { library: stored.library, version: stored.version, ...ingested };
    return await finishIngest(report, options);
  };

  const jobs = createJobRunner(store, (input, options) => engine.ingest(input, options), dependencies.now ?? (() => new Date()));
  const engine: Engine = {
    config,
    async ingest(input, options = {}) {
      const crawl = /^https?:\/\//i.test(input);
      return runIngest(input, options, {
        rootUrl: crawl ? input : folderRootUrl(input, options.baseUrl),
        kind: crawl ? 'crawl' : 'local',
        ...(crawl ? {} : { path: resolve(input) }),
        ...given({ library: options.library, version: options.version }),
        settings: ingestSettings(crawl ? input : resolve(input), options),
      });
    },

    async ingestGit(repository, options = {}) {
      // A wrong embedder or index path is refused before git runs, as for any ingest.
      if (config.embed.embedder !== undefined) assertEmbedderUsable(config.embed.embedder);
      assertStoreLocation(config.dbPath);
      const { ingestGitRepository } = await import('./git-ingest.js');
      return ingestGitRepository(repository, options, config.local.urlStyle, (plan) =>
        runIngest(plan.label, options, { rootUrl: plan.rootUrl, kind: 'git', library: plan.library, version: plan.version, settings: plan.settings }, { files: plan.files, baseUrl: plan.rootUrl, urlStyle: plan.urlStyle }),
      );
    },

    async ingestDocuments(documents, options = {}) {
      const { ingestDocuments } = await import('./ingest-documents.js');
      const index = await createdStore();
      const report = await ingestDocuments(documents, {
        config,
        openStore: () => index,
        tokenizer: () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding)),
        ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
      });
      return await finishIngest(report, options);
    },

    async countPagesUnder(prefix) {
      const index = existingStore();
      return index === undefined ? 0 : (await index.pageUrlsUnder(prefix)).length;
    },

    async embed(options = {}) {
      const index = existingStore();
      if (index === undefined) throw new UsageError(`No index at ${config.dbPath}. Run \`citedocs ingest <url|folder>\` first, or pass --db with the path of an existing index.`);
      if (!(await index.hasChunks())) throw new UsageError(`The index at ${config.dbPath} has no passages to embed. Run \`citedocs ingest <url|folder>\` first.`);
      const embedder = await ingestEmbedder(index);
      if (embedder === undefined) throw new UsageError(`Choose an embedder: citedocs embed --embedder <${EMBEDDER_NAMES_HELP}>.`);
      return await runEmbedPass(index, embedder, options);
    },

    async search(query, options = {}) {
      const limit = options.limit ?? config.select.finalK;
      const meter = createUsageMeter();
      const started = performance.now();
      const { selection, diagnostics, retrieval } = await metering(meter, () => retrieveAndSelect(query, limit, options.maxTokens ?? config.select.maxTotalTokens, options.maxPages, options, options.signal));
      const anchors = await anchorMapOf(store(), selection.candidates.map((candidate) => candidate.chunk.pageUrl));
      const labels = await store().catalog.sourceLabels(selection.candidates.map((candidate) => candidate.chunk.pageUrl));
      const results: SearchResult[] = [];
      for (const candidate of selection.candidates) {
        const verdict = checkLink(chunkUrl(candidate.chunk), anchors);
        if (!verdict.ok) diagnostics.push(diagnostic('answer.link-corrected', verdict.warning));
        if (verdict.url === undefined) continue;
        results.push({
          url: verdict.url,
          ...labelFor(labels, verdict.url),
          title: candidate.chunk.pageTitle,
          headingPath: candidate.chunk.headingPath,
          text: candidate.chunk.text,
          score: round(candidate.scores.fused),
          tokenCount: candidate.chunk.tokenCount,
          ...(candidate.trimmed === true ? { trimmed: true } : {}),
          ...(candidate.retrievalType === undefined ? {} : { retrievalType: candidate.retrievalType, followUpQuery: candidate.followUpQuery ?? '' }),
          ...(options.explain === true ? { explain: candidate.trace } : {}),
        });
      }
      const usage = meter.total();
      logDiagnostics(diagnostics);
      logger('retrieve').info({ query, results: results.length, usage, ms: elapsedMs(started) }, 'search answered');
      return { results, ...(options.groupByPage === true ? { pages: groupByPage(results) } : {}), ...withWarnings(diagnostics), retrieval, usage, ...(options.explain === true ? { selection: { totalTokens: selection.totalTokens, dropped: selection.dropped } } : {}) };
    },

    async ask(question, options = {}) {
      let response: AskResponse | undefined;
      for await (const event of engine.askStream(question, options)) if (event.type === 'done') response = event.response;
      if (response === undefined) throw new Error('askStream ended without an answer');
      return response;
    },

    async *askStream(question, options = {}) {
      const query = retrievalQuery(question, options.earlierQuestions ?? []);
      const meter = createUsageMeter();
      const { selection, diagnostics } = await metering(meter, () => retrieveAndSelect(query, config.select.finalK, options.maxTokens ?? config.select.maxTotalTokens, options.maxPages, options, options.signal));
      const labels = await store().catalog.sourceLabels(selection.candidates.map((candidate) => candidate.chunk.pageUrl));
      const label = (citations: Citation[]): LabelledCitation[] => citations.map((citation) => ({ ...citation, ...labelFor(labels, citation.url) }));
      // The selection the answer was drawn from; with --explain, also every candidate left out.
      const explained = {
        selection: {
          totalTokens: selection.totalTokens,
          sources: selection.candidates.map((candidate) => ({ url: chunkUrl(candidate.chunk), ...labelFor(labels, candidate.chunk.pageUrl), score: round(candidate.scores.rerank ?? candidate.scores.fused), tokenCount: candidate.chunk.tokenCount })),
          ...(options.explain === true ? { dropped: selection.dropped } : {}),
        },
      };
      // The answer is written while the caller iterates, outside `metering`: its model is bound to this request's meter.
      const model = config.answer.mode === 'extractive' ? undefined : rawLlmOf();
      const llm = model === undefined ? undefined : meterLlm(model, () => meter, tokenizerOf);
      if (config.answer.mode === 'llm' && llm === undefined) throw new UsageError('answer.mode "llm" needs an LLM: set llm.model (and llm.baseUrl) in the configuration.');
      // The quoted answer is measured in the target model's tokens; a model's answer is bounded by its own maxTokens.
      const counter = llm === undefined ? await (tokenizer ??= loadTokenizer(config.tokenizer.encoding)) : undefined;
      const written = writeAnswer(question, selection, diagnostics, {
        config,
        llm,
        links: linkIndexOfStore(store()),
        ...(counter === undefined ? {} : { countTokens: (text: string) => counter.count(text) }),
        ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
      });
      for await (const event of written) {
        if (event.type === 'delta') yield event.citations === undefined ? event : { ...event, citations: label(event.citations) };
        else {
          logDiagnostics(event.diagnostics);
          const citations = label(event.citations);
          // `answer` keeps the text scripts have read since the first release: the answer, then its sources list.
          yield { type: 'done', response: { answer: answerWithSources(event.text, citations), text: event.text, citations, ...withWarnings(event.diagnostics), usage: meter.total(), ...explained } };
        }
      }
    },

    async web(query, options = {}) {
      const { findWebDocs } = await import('./web-finding.js');
      const embedderName = config.embed.embedder;
      const embedder = embedderName === undefined || embedderName === 'none' ? undefined : queryEmbedder(embedderName);
      const meter = createUsageMeter();
      const response = await metering(meter, () => findWebDocs(query, options, {
        config,
        tokenizer: () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding)),
        llm: llmOf,
        ...given({ embedder, fetch: dependencies.fetch, lookup: dependencies.lookup, searchBackend: dependencies.searchBackend, env: dependencies.env, now: dependencies.now }),
        save: async (pages) => {
          const index = await createdStore();
          // Pages saved from the web belong to one source, web@latest, so scoping and `remove web` reach them.
          const saved =
            (await index.catalog.listSources()).find((source) => source.library === 'web' && source.version === 'latest') ??
            (await index.catalog.upsertSource({ library: 'web', version: 'latest', rootUrl: 'web:', kind: 'web', createdAt: (dependencies.now ?? (() => new Date()))().toISOString() }));
          let chunks = 0;
          for (const { page, chunks: pageChunks } of pages) {
            await index.upsertPage(page, pageChunks, { rechunked: (await index.getPage(page.url))?.chunking !== page.chunking, sourceId: saved.id });
            chunks += pageChunks.length;
          }
          await finishIngest({ pages: pages.length, chunks, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], warnings: [], diagnostics: [], interrupted: false }, options.signal === undefined ? {} : { signal: options.signal });
          return { pages: pages.length, chunks, dbPath: redactPasswords(config.dbPath) };
        },
      }));
      return { ...response, usage: meter.total() };
    },

    stats() {
      return store().stats();
    },

    inspect(url) {
      return inspectPage(store(), url);
    },

    siteReport(site) {
      return siteReport(store(), site);
    },

    async listSources() {
      const index = existingStore();
      if (index === undefined) return [];
      return summariseCatalog(await index.catalog.listSources(), await index.crawlState.latestRuns(), (dependencies.now ?? (() => new Date()))());
    },

    async removeSources(spec) {
      const index = existingStore();
      if (index === undefined) throw new UsageError(`No index at ${config.dbPath}: nothing to remove.`);
      await jobs.idle();
      return removeSources(index, sourcesNamed(await index.catalog.listSources(), spec));
    },

    async refresh(spec, options = {}) {
      const index = existingStore();
      if (index === undefined) throw new UsageError(`No index at ${config.dbPath}: nothing to refresh. Run \`citedocs ingest <url|folder>\` first.`);
      const all = await index.catalog.listSources();
      const chosen = (spec === undefined ? all : sourcesNamed(all, spec)).filter((source) => source.kind === 'crawl' || source.kind === 'local' || source.kind === 'git');
      const reports: RefreshReport[] = [];
      for (const source of chosen) {
        if (source.kind === 'git') {
          // A git version is its one tag read again: unchanged files are stored pages confirmed, not rewritten.
          const { gitRefreshRequest } = await import('./git-ingest.js');
          const again = gitRefreshRequest(source.settings);
          if (again === undefined) continue;
          const read = await engine.ingestGit(again.repository, { ...again.options, ...options, library: source.library, version: source.version });
          for (const report of read.versions) reports.push({ library: source.library, version: source.version, url: source.rootUrl, report });
          if (options.signal?.aborted) break;
          continue;
        }
        const { input, ...settings } = source.settings as { input?: string } & Record<string, unknown>;
        if (typeof input !== 'string') continue;
        const report = await engine.ingest(input, { ...(settings as IngestOptions), ...options, library: source.library, version: source.version });
        reports.push({ library: source.library, version: source.version, url: source.rootUrl, report });
        if (options.signal?.aborted) break;
      }
      return reports;
    },

    async resolveLibrary(name, limit) {
      const index = existingStore();
      return index === undefined ? [] : matchLibraries(await index.catalog.listSources(), name, limit);
    },

    async listJobs() {
      const index = existingStore();
      return index === undefined ? [] : index.catalog.listJobs();
    },

    startIngestJob(url, options) {
      return jobs.start(url, options);
    },

    async samplePages(limit) {
      const index = existingStore();
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
      return handle !== undefined && 'indexGeneration' in handle && typeof handle.indexGeneration === 'function' ? (handle.indexGeneration as () => number)() : undefined;
    },
    databaseHealth() {
      return handle !== undefined && 'databaseHealth' in handle && typeof handle.databaseHealth === 'function' ? (handle.databaseHealth as () => DatabaseHealth)() : undefined;
    },
    async close() {
      await jobs.idle();
      const open = handle;
      handle = undefined;
      await open?.close();
      await embedders.close();
    },
  };
  return engine;
}


function countReasons(dropped: readonly { reason: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const drop of dropped) counts[drop.reason] = (counts[drop.reason] ?? 0) + 1;
  return counts;
}

/** What `refresh` repeats of an ingest: its input and the options that shape what is read. */
function ingestSettings(input: string, options: IngestOptions): Record<string, unknown> {
  const { maxPages, maxDepth, concurrency, userAgent, include, exclude, baseUrl, urlStyle, allowPrivateHosts, allowedHosts } = options;
  return { input, ...given({ maxPages, maxDepth, concurrency, userAgent, include, exclude, baseUrl, urlStyle, allowPrivateHosts, allowedHosts }) };
}
