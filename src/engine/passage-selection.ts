import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import { UsageError } from '../core/errors.js';
import { logger } from '../core/log.js';
import { type Candidate, chunkUrl, type DroppedCandidate, type Selection } from '../core/types.js';
import { orderWithinSources } from '../retrieve/source-order.js';
import { selectCandidates } from '../select/selector.js';
import type { EngineContext } from './engine-context.js';
import type { ScopeOptions } from './engine-types.js';
import { namedLibrarySources, routeByNamedLibrary, scopedSourceIds, sourceIdOfCandidates } from './library-catalog.js';
import { createReranking, type Reranking } from './reranking.js';
import { retrieve, type RetrievalOutcome, type RetrievalWiring } from './retrieval.js';
import { passageTrimmer, selectionOptions } from './selection-options.js';

/** Sources of an unscoped ranking re-ordered by their own statistics, at most: one extra retrieval and one term-statistics read each. */
const MAX_SOURCES_REORDERED = 8;

export interface PassageRequest {
  query: string;
  /** Passages at most. */
  limit: number;
  maxTokens: number;
  /** Distinct pages at most; undefined: the configuration's. */
  maxPages: number | undefined;
  scope: ScopeOptions;
  signal?: AbortSignal | undefined;
}

export interface PassageSelection {
  selection: Selection;
  diagnostics: Diagnostic[];
  /** How the candidates were retrieved: the embedder of the dense lists, and the lists fused. */
  retrieval: { embedder?: string; lists: string[] };
}

/** The query pipeline of `search` and `ask`: retrieve (routed and ordered by library), rerank, select within the budget. */
export type SelectPassages = (request: PassageRequest) => Promise<PassageSelection>;

export function createPassageSelection(context: EngineContext): SelectPassages {
  const { config } = context;
  let reranking: Reranking | undefined;
  const wiring: RetrievalWiring = { config, store: context.store, embedderFor: context.queryEmbedder, llm: context.llm };
  return async ({ query, limit, maxTokens, maxPages, scope, signal }) => {
    const text = query.trim();
    if (text === '') throw new UsageError('The question is empty. Ask something, like: citedocs ask "how do I create an index"');
    const index = context.store();
    if (!(await index.hasChunks())) throw new UsageError(`The index at ${config.dbPath} has no passages yet. Run \`citedocs ingest <url|folder>\` first.`);
    const topK = Math.max(config.retrieve.topK, limit);
    const { retrieval, routed } = await retrieveByLibrary(text, topK, wiring, await scopedSourceIds(index, scope), signal);
    const reranked = await (reranking ??= createReranking(config, context.llm)).rerank(text, retrieval.candidates, signal);
    const candidates = routed ? (await routeByNamedLibrary(text, reranked.candidates, index)).candidates : reranked.candidates;
    // Selection follows the reranked order (a model's judgement is not on the fused scale).
    const position = new Map(candidates.map((candidate, rank) => [candidate.chunk.id, 1 - rank / Math.max(candidates.length, 1)]));
    const order = (candidate: Candidate) => position.get(candidate.chunk.id) ?? 0;
    const trim = passageTrimmer(text, await context.tokenizer());
    const selection = selectCandidates(candidates, await selectionOptions(config, index, context.now(), { candidates, limit, maxTokens, maxPages, order, trim }));
    logger('select').info({ candidates: candidates.length, selected: selection.candidates.length, tokens: selection.totalTokens, maxTokens, dropped: countReasons(selection.dropped) }, 'passages selected');
    const diagnostics: Diagnostic[] = [...retrieval.diagnostics, ...reranked.diagnostics, ...selectionNotes(text, candidates.length, selection, maxTokens)];
    return { selection, diagnostics, retrieval: { ...(retrieval.embedder === undefined ? {} : { embedder: retrieval.embedder }), lists: retrieval.lists } };
  };
}

/**
 * Retrieval within the scope's sources; unscoped, a question that names libraries of the index
 * ("pytest fixture teardown") is retrieved within their latest versions first (their own
 * statistics, as if scoped), then over the whole index for the rest: their passages come first,
 * the others after (`routed`). Otherwise each library is ranked as if searched alone, and the
 * rankings are merged by how likely the question is about each (`orderWithinSources`); so are
 * the libraries a question names when it names several ("python -m pytest").
 */
async function retrieveByLibrary(text: string, topK: number, wiring: RetrievalWiring, sourceIds: number[] | undefined, signal: AbortSignal | undefined): Promise<{ retrieval: RetrievalOutcome; routed: boolean }> {
  const index = wiring.store();
  const named = sourceIds === undefined ? await namedLibrarySources(index, text) : undefined;
  const retrieval = await retrieve(text, topK, wiring, signal, sourceIds ?? named);
  const orderBySource = async (candidates: readonly Candidate[], among?: readonly number[]) =>
    orderWithinSources(candidates, {
      ...(among === undefined ? {} : { allSources: among }),
      question: text,
      termStatsWithin: (sourceId, words) => index.termStats(words, [sourceId]),
      sourceOf: await sourceIdOfCandidates(index, candidates),
      retrieveWithin: async (sourceId) => (await retrieve(text, topK, wiring, signal, [sourceId])).candidates,
      quotedWeight: wiring.config.retrieve.lexical.quotedWeight,
      maxSources: MAX_SOURCES_REORDERED,
    });
  if (named !== undefined) {
    // A question that names several libraries ("python -m pytest") is mostly about one of them.
    if (named.length > 1) retrieval.candidates = await orderBySource(retrieval.candidates, named);
    const rest = await retrieve(text, topK, wiring, signal);
    const seen = new Set(retrieval.candidates.map((candidate) => candidate.chunk.id));
    retrieval.candidates.push(...rest.candidates.filter((candidate) => !seen.has(candidate.chunk.id)).slice(0, Math.max(0, topK - retrieval.candidates.length)));
  } else if (sourceIds === undefined) {
    retrieval.candidates = await orderBySource(retrieval.candidates, (await index.catalog.sourceNames()).map((source) => source.id));
  }
  return { retrieval, routed: named !== undefined };
}

/** What the reader should know of the selection: nothing matched, the budget is below every passage, the best one was cut. */
function selectionNotes(text: string, matched: number, selection: Selection, maxTokens: number): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (matched === 0) notes.push(diagnostic('retrieve.no-match', `No passage in the index matches "${text}".`));
  if (matched > 0 && selection.candidates.length === 0 && selection.dropped.every((drop) => drop.reason === 'budget')) {
    notes.push(diagnostic('budget.below-heading', `${matched === 1 ? '1 passage matches' : `${matched} passages match`}, but the budget of ${maxTokens} tokens is below even the best one's heading; raise --max-tokens.`));
  }
  const trimmed = selection.candidates.find((candidate) => candidate.trimmed === true);
  if (trimmed !== undefined) notes.push(diagnostic('budget.trimmed', `The best passage (${chunkUrl(trimmed.chunk)}) was cut to its most relevant part to fit the budget of ${maxTokens} tokens; raise --max-tokens for all of it.`));
  return notes;
}

function countReasons(dropped: readonly DroppedCandidate[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const drop of dropped) counts[drop.reason] = (counts[drop.reason] ?? 0) + 1;
  return counts;
}
