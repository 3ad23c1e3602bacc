import { existsSync } from 'node:fs';
import { extractiveAnswer } from '../answer/extractive.js';
import { type AnchorMap, checkLink } from '../answer/link-check.js';
import { type CitedocsConfig, type CitedocsConfigInput, parseConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { chunkUrl, type Candidate, type Citation, type Selection, type Tokenizer } from '../core/types.js';
import { retrieveLexical } from '../retrieve/retriever.js';
import { selectCandidates } from '../select/selector.js';
import type { FetchLike } from '../sources/crawl/fetch-page.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store, StoreStats } from '../store/store.js';
import { loadTokenizer } from '../tokenize/tokenizer.js';
import type { IngestOptions, IngestReport } from './ingest.js';
import type { DirectDocument } from './ingest-documents.js';

/** Pages, chunks, anchors and bytes of the index. */
export type IndexStats = StoreStats;

export interface SearchOptions {
  limit?: number;
  maxTokens?: number;
  explain?: boolean;
}

export interface SearchResult {
  url: string;
  title: string;
  headingPath: string[];
  text: string;
  score: number;
  tokenCount: number;
  explain?: Candidate['trace'];
}

export interface SearchResponse {
  results: SearchResult[];
  warnings: string[];
}

export interface AskOptions {
  maxTokens?: number;
}

export interface AskResponse {
  answer: string;
  citations: Citation[];
  warnings: string[];
}

/** What the index holds for one page: `citedocs inspect`. */
export interface PageInspection {
  url: string;
  title: string;
  anchors: string[];
  chunks: { anchor?: string; headingPath: string[]; text: string; tokenCount: number }[];
}

export interface EngineDependencies {
  /** Where the configuration came from (a file path), named in configuration errors. */
  configOrigin?: string;
  fetch?: FetchLike;
  now?: () => Date;
}

export interface Engine {
  readonly config: CitedocsConfig;
  ingest(input: string, options?: IngestOptions): Promise<IngestReport>;
  /** Indexes documents given as Markdown (no crawl): evaluation corpora, a caller's own pages. */
  ingestDocuments(documents: Iterable<DirectDocument>): Promise<IngestReport>;
  /** How many stored pages have URLs starting with this prefix (0 when there is no index yet). */
  countPagesUnder(prefix: string): number;
  search(query: string, options?: SearchOptions): SearchResponse;
  ask(question: string, options?: AskOptions): AskResponse;
  stats(): StoreStats;
  /** The stored page at this URL (or an alias of it); undefined when the index has no such page. */
  inspect(url: string): PageInspection | undefined;
  close(): void;
}

/** The composition root: the one place that turns configuration into wired pipeline stages. */
export function createEngine(configInput: CitedocsConfigInput = {}, dependencies: EngineDependencies = {}): Engine {
  const config = parseConfig(configInput, dependencies.configOrigin);
  let tokenizer: Promise<Tokenizer> | undefined;
  let reader: Store | undefined;
  let writer: Store | undefined;

  const readStore = (): Store => (reader ??= createSqliteStore(config.dbPath, 'read'));
  const anchorMapOf = (store: Store): AnchorMap => {
    const cache = new Map<string, ReadonlySet<string> | undefined>();
    const lookup = (url: string) => {
      if (!cache.has(url)) cache.set(url, store.getPage(url) === undefined ? undefined : store.anchorsOf(url));
      return cache.get(url);
    };
    return { hasPage: (url) => lookup(url) !== undefined, anchorsOf: (url) => lookup(url) ?? new Set() };
  };

  const retrieveAndSelect = (query: string, limit: number, maxTokens: number): { selection: Selection; warnings: string[] } => {
    const text = query.trim();
    if (text === '') throw new UsageError('The question is empty. Ask something, like: citedocs ask "how do I create an index"');
    const store = readStore();
    if (!store.hasChunks()) throw new UsageError(`The index at ${config.dbPath} has no passages yet. Run \`citedocs ingest <url|folder>\` first.`);
    const candidates = retrieveLexical(store, text, { topK: Math.max(config.retrieve.topK, limit), fieldWeights: config.retrieve.fieldWeights });
    const selection = selectCandidates(candidates, { limit, maxTotalTokens: maxTokens });
    const warnings = candidates.length === 0 ? [`No passage in the index matches "${text}".`] : [];
    if (candidates.length > 0 && selection.candidates.length === 0 && selection.dropped.every((drop) => drop.reason === 'budget')) {
      const smallest = Math.min(...candidates.map((candidate) => candidate.chunk.tokenCount));
      warnings.push(`${candidates.length} passages match, but none fits the budget of ${maxTokens} tokens (the smallest has ${smallest}); raise --max-tokens.`);
    }
    return { selection, warnings };
  };

  return {
    config,
    async ingest(input, options = {}) {
      reader?.close();
      reader = undefined;
      try {
        // The ingest stages (HTML parsing, Markdown, tokenizer tables) load only when ingesting.
        const { ingest } = await import('./ingest.js');
        return await ingest(input, options, {
          config,
          tokenizer: () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding)),
          openStore: () => (writer ??= createSqliteStore(config.dbPath, 'write')),
          existingStore: () => writer ?? (existsSync(config.dbPath) ? (writer = createSqliteStore(config.dbPath, 'write')) : undefined),
          ...(dependencies.fetch === undefined ? {} : { fetch: dependencies.fetch }),
          ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
        });
      } finally {
        writer?.close();
        writer = undefined;
      }
    },

    async ingestDocuments(documents) {
      reader?.close();
      reader = undefined;
      try {
        const { ingestDocuments } = await import('./ingest-documents.js');
        return await ingestDocuments(documents, {
          config,
          openStore: () => (writer ??= createSqliteStore(config.dbPath, 'write')),
          tokenizer: () => (tokenizer ??= loadTokenizer(config.tokenizer.encoding)),
          ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
        });
      } finally {
        writer?.close();
        writer = undefined;
      }
    },

    countPagesUnder(prefix) {
      if (!existsSync(config.dbPath)) return 0;
      return readStore().pageUrlsUnder(prefix).length;
    },

    search(query, options = {}) {
      const limit = options.limit ?? config.select.finalK;
      const { selection, warnings } = retrieveAndSelect(query, limit, options.maxTokens ?? config.select.maxTotalTokens);
      const anchors = anchorMapOf(readStore());
      const results: SearchResult[] = [];
      for (const candidate of selection.candidates) {
        const verdict = checkLink(chunkUrl(candidate.chunk), anchors);
        if (!verdict.ok) warnings.push(verdict.warning);
        if (verdict.url === undefined) continue;
        results.push({
          url: verdict.url,
          title: candidate.chunk.pageTitle,
          headingPath: candidate.chunk.headingPath,
          text: candidate.chunk.text,
          score: round(candidate.scores.fused),
          tokenCount: candidate.chunk.tokenCount,
          ...(options.explain === true ? { explain: candidate.trace } : {}),
        });
      }
      return { results, warnings };
    },

    ask(question, options = {}) {
      const { selection, warnings } = retrieveAndSelect(question, config.select.finalK, options.maxTokens ?? config.select.maxTotalTokens);
      if (selection.candidates.length === 0) {
        return { answer: 'The indexed documentation has nothing on this question.', citations: [], warnings };
      }
      const draft = extractiveAnswer(question, selection.candidates, { maxSentences: config.answer.maxSentences });
      const anchors = anchorMapOf(readStore());
      const citations: Citation[] = [];
      let answer = draft.text;
      for (const citation of draft.citations) {
        const verdict = checkLink(citation.url, anchors);
        if (!verdict.ok) warnings.push(verdict.warning);
        if (verdict.url === undefined) {
          answer = answer.replaceAll(` [${citation.n}]`, '').replaceAll(`\n[${citation.n}]`, '');
          continue;
        }
        const { anchor: _anchor, ...rest } = citation;
        citations.push(verdict.ok ? citation : { ...rest, url: verdict.url });
      }
      return { answer, citations, warnings };
    },

    stats() {
      return readStore().stats();
    },

    inspect(url) {
      const store = readStore();
      const pageUrl = store.resolvePageUrl(url.split('#')[0] ?? url);
      const page = pageUrl === undefined ? undefined : store.getPage(pageUrl);
      if (page === undefined) return undefined;
      return {
        url: page.url,
        title: page.title,
        anchors: [...store.anchorsOf(page.url)].sort(),
        chunks: store.chunksOf(page.url).map((chunk) => ({
          ...(chunk.anchor === undefined ? {} : { anchor: chunk.anchor }),
          headingPath: chunk.headingPath,
          text: chunk.text,
          tokenCount: chunk.tokenCount,
        })),
      };
    },

    close() {
      reader?.close();
      writer?.close();
      reader = undefined;
      writer = undefined;
    },
  };
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
