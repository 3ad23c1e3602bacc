import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import { keywords } from '../lexical/keywords.js';
import type { Candidate, LexicalRanking, TextHit, TextIndex } from '../core/types.js';
import type { Embedder } from '../embed/embedder.js';
import type { Llm } from '../llm/llm.js';
import type { VectorHit, VectorSearch } from '../store/vectors.js';
import { unsupportedTerms } from './follow-up.js';
import { type FusionOptions, fuseLists, type RankedList } from './fusion.js';
import { definedAliasPairs } from './aliases.js';
import { joinedPairs } from './compounds.js';
import { numberWords } from './number-words.js';
import { liftGuideSections } from './guide-sections.js';
import { hypotheticalPassage, judgeCoverage, queryVariants } from './llm-techniques.js';
import { feedbackTerms } from './prf.js';
import { liftByProximity } from './proximity.js';
import { coverageTerms, weighByCoverage } from './term-coverage.js';

export interface TechniqueSettings {
  prf: { enabled: boolean; weight: number; feedbackDocs: number; expansionTerms: number };
  aliases: { enabled: boolean; weight: number };
  compounds: { enabled: boolean; weight: number };
  /** Small numbers in digits also searched as words, in the question's own query (`numberWords`). */
  numbers: { enabled: boolean };
  /** Passages that hold the question's neighbouring words close together are lifted (`liftByProximity`). */
  proximity: { enabled: boolean; weight: number; window: number };
  /** Passages weighed by the share of the question's words their own text holds (`weighByCoverage`). */
  coverage: { enabled: boolean; weight: number };
  hyde: { enabled: boolean; weight: number };
  expansion: { enabled: boolean; weight: number; variants: number };
  /** Skip every expansion when BM25's best hit leads the next by this share of its score (0: never skip). */
  confidentMargin: number;
}

export interface HybridOptions {
  topK: number;
  ranking: LexicalRanking;
  fusion: FusionOptions;
  techniques: TechniqueSettings;
  followUp: { enabled: boolean; maxQueries: number; weight: number; inspect: number };
  /** Lift prose sections that link to several of the passages found (`liftGuideSections`). */
  guides: { enabled: boolean };
  dense: Pick<VectorSearch, 'coarseK'>;
  abortSignal?: AbortSignal;
}

export interface HybridSources {
  index: TextIndex;
  /** Dense search: both or neither. */
  embedder?: Embedder;
  searchVectors?: (query: Float32Array, options: VectorSearch) => Promise<VectorHit[]>;
  llm?: Llm;
}

export interface HybridResult {
  candidates: Candidate[];
  /** What ran, for the explain output: `bm25:original`, `dense:hyde`, … */
  lists: string[];
  /** Techniques that failed or were skipped for a reason the caller should know. */
  diagnostics: Diagnostic[];
}

/**
 * Retrieval as the seeds describe it: the question and its variants (PRF terms, HyDE passage,
 * LLM rewrites) run in parallel against BM25 and the dense index; a failing technique costs
 * only its own list. The lists are fused; then, when part of the question found no support in
 * the top candidates, targeted follow-up queries run and are merged in.
 */
export async function retrieveHybrid(question: string, sources: HybridSources, options: HybridOptions): Promise<HybridResult> {
  const warnings: Diagnostic[] = [];
  const signal = options.abortSignal;
  const dense = sources.embedder !== undefined && sources.searchVectors !== undefined ? { embedder: sources.embedder, search: sources.searchVectors } : undefined;

  const bm25List = async (technique: string, weight: number, text: string, followUp = false): Promise<{ list: RankedList; hits: TextHit[] }> => {
    const hits = await sources.index.searchText({ text, limit: options.topK, ranking: options.ranking, explain: true });
    const ranked = hits.map((hit) => ({ chunk: hit.chunk, score: hit.bm25, ...(hit.fields === undefined ? {} : { why: fieldsExplained(hit) }) }));
    return { hits, list: { retriever: 'bm25', technique, weight, query: keywords(text).join(' '), hits: ranked, ...(followUp ? { followUp } : {}) } };
  };
  const denseList = async (technique: string, weight: number, text: string, mode: 'query' | 'passage', followUp = false): Promise<RankedList> => {
    if (dense === undefined) throw new Error('no embedder');
    const [vector] = await dense.embedder.embed({ texts: [text], mode, ...(signal === undefined ? {} : { abortSignal: signal }) });
    if (vector === undefined) throw new Error('the embedder returned no vector');
    const hits = await dense.search(vector, { limit: options.topK, coarseK: options.dense.coarseK });
    return { retriever: 'dense', technique, weight, query: text.length > 80 ? `${text.slice(0, 77)}...` : text, hits: hits.map((hit) => ({ chunk: hit.chunk, score: hit.similarity })), ...(followUp ? { followUp } : {}) };
  };

  // Round one: the question itself, on both retrievers.
  const started = performance.now();
  const written = options.techniques.numbers.enabled ? numberWords(question) : [];
  const original = await bm25List('original', 1, written.length === 0 ? question : `${question} ${written.join(' ')}`);
  logger('retrieve').debug({ technique: 'bm25:original', hits: original.hits.length, ms: elapsedMs(started) }, 'technique ran');
  const lists: RankedList[] = [original.list];
  const pending: { name: string; run: () => Promise<RankedList[]> }[] = [];
  if (dense !== undefined) pending.push({ name: 'dense search', run: async () => [await denseList('original', 1, question, 'query')] });

  const { techniques } = options;
  const confident = techniques.confidentMargin > 0 && isConfident(original.hits, techniques.confidentMargin);
  // The docs' aliases are searched (when not confident) and count for coverage.
  const aliasPairs = techniques.aliases.enabled && original.hits.length > 0 && (!confident || techniques.coverage.enabled) ? definedAliasPairs(question, original.hits.map((hit) => hit.chunk.text)) : [];
  const aliases = aliasPairs.map(({ alias }) => alias);
  if (!confident) {
    if (techniques.prf.enabled && original.hits.length > 0) {
      pending.push({
        name: 'pseudo-relevance feedback',
        run: async () => {
          const extra = await feedbackTerms(question, original.hits, (words) => sources.index.termStats(words), techniques.prf);
          return extra.length === 0 ? [] : [(await bm25List('prf', techniques.prf.weight, `${keywords(question).join(' ')} ${extra.join(' ')}`)).list];
        },
      });
    }
    if (aliases.length > 0) pending.push({ name: 'aliases the docs define', run: async () => [(await bm25List('aliases', techniques.aliases.weight, `${question} ${aliases.join(' ')}`)).list] });
    if (techniques.compounds.enabled) {
      const pairs = joinedPairs(question);
      if (pairs.length > 0) {
        pending.push({
          name: 'neighbouring words written as one',
          run: async () => {
            const { documentFrequency } = await sources.index.termStats(pairs);
            const held = pairs.filter((word) => (documentFrequency.get(word) ?? 0) > 0);
            return held.length === 0 ? [] : [(await bm25List('compounds', techniques.compounds.weight, `${question} ${held.join(' ')}`)).list];
          },
        });
      }
    }
    const llm = sources.llm;
    if (llm !== undefined && techniques.hyde.enabled && dense !== undefined) {
      pending.push({ name: 'HyDE', run: async () => [await denseList('hyde', techniques.hyde.weight, await hypotheticalPassage(llm, question, signal), 'passage')] });
    }
    if (llm !== undefined && techniques.expansion.enabled) {
      pending.push({
        name: 'query expansion',
        run: async () => {
          const variants = await queryVariants(llm, question, techniques.expansion.variants, signal);
          const weight = techniques.expansion.weight;
          const lexical = await Promise.all(variants.keywords.map(async (variant) => (await bm25List('expansion', weight, variant)).list));
          const semantic = dense === undefined ? [] : await Promise.all(variants.paraphrases.map((variant) => denseList('expansion', weight, variant, 'query')));
          return [...lexical, ...semantic];
        },
      });
    }
  }
  lists.push(...(await settle(pending, warnings, signal)));
  let candidates = fuseLists(lists, options.fusion);

  // Round two: follow-up queries for what the first round left uncovered.
  if (options.followUp.enabled && candidates.length > 0) {
    const top = candidates.slice(0, options.followUp.inspect);
    const queries: string[] = [];
    if (sources.llm !== undefined) {
      const llm = sources.llm;
      const verdict = await judgeCoverage(llm, question, top.map((candidate) => candidate.chunk.text), options.followUp.maxQueries, signal).catch((error: unknown) => {
        warnings.push(diagnostic('retrieve.follow-up-failed', `Follow-up analysis failed (${describe(error)}); kept the first round's candidates.`));
        return { covered: true, followUpQueries: [] };
      });
      signal?.throwIfAborted();
      if (!verdict.covered) queries.push(...verdict.followUpQueries);
    } else {
      const missing = unsupportedTerms(question, top);
      if (missing.length > 0) queries.push(missing.join(' '));
    }
    if (queries.length > 0) {
      const followUps = queries.slice(0, options.followUp.maxQueries).flatMap((query) => {
        const runs: { name: string; run: () => Promise<RankedList[]> }[] = [{ name: `follow-up "${query}"`, run: async () => [(await bm25List('follow-up', options.followUp.weight, query, true)).list] }];
        if (dense !== undefined) runs.push({ name: `dense follow-up "${query}"`, run: async () => [await denseList('follow-up', options.followUp.weight, query, 'query', true)] });
        return runs;
      });
      lists.push(...(await settle(followUps, warnings, signal)));
      candidates = fuseLists(lists, options.fusion);
    }
  }
  // Coverage needs the question's words' statistics: when they cannot be read, the order stands.
  const weighed = async (candidates: Candidate[]): Promise<Candidate[]> => {
    try {
      return weighByCoverage(candidates, await coverageTerms(question, aliasPairs, (words) => sources.index.termStats(words)), techniques.coverage);
    } catch (error) {
      signal?.throwIfAborted();
      warnings.push(diagnostic('retrieve.coverage-failed', `Weighing the passages by the question's words failed (${describe(error)}); kept their order.`));
      return candidates;
    }
  };
  // Among the candidates kept only: a lift of at most `weight` rarely carries one in from further down.
  const kept = candidates.slice(0, options.topK);
  const near = techniques.proximity.enabled ? liftByProximity(kept, question, techniques.proximity) : kept;
  const top = techniques.coverage.enabled && near.length > 0 ? await weighed(near) : near;
  logger('retrieve').info({ lists: lists.length, candidates: top.length, confident, ms: elapsedMs(started) }, 'candidates retrieved');
  return { candidates: options.guides.enabled ? liftGuideSections(top) : top, lists: lists.map((list) => `${list.retriever}:${list.technique}`), diagnostics: warnings };
}

/** Runs the techniques side by side; a failure is reported and costs only its own lists. */
async function settle(pending: readonly { name: string; run: () => Promise<RankedList[]> }[], warnings: Diagnostic[], signal: AbortSignal | undefined): Promise<RankedList[]> {
  const outcomes = await Promise.allSettled(pending.map((technique) => timed(technique)));
  signal?.throwIfAborted();
  const lists: RankedList[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') lists.push(...outcome.value);
    else warnings.push(diagnostic('retrieve.technique-failed', `${pending[index]?.name ?? 'A technique'} failed (${describe(outcome.reason)}); the other techniques' results were used.`));
  });
  return lists;
}

/** Runs one technique and logs (debug) its lists' sizes and how long it took, or that it failed. */
async function timed(technique: { name: string; run: () => Promise<RankedList[]> }): Promise<RankedList[]> {
  const started = performance.now();
  try {
    const lists = await technique.run();
    logger('retrieve').debug({ technique: technique.name, lists: lists.map((list) => `${list.retriever}:${list.technique}`), hits: lists.reduce((sum, list) => sum + list.hits.length, 0), ms: elapsedMs(started) }, 'technique ran');
    return lists;
  } catch (error) {
    logger('retrieve').debug({ technique: technique.name, error: describe(error), ms: elapsedMs(started) }, 'technique failed');
    throw error;
  }
}

function isConfident(hits: readonly TextHit[], margin: number): boolean {
  const [first, second] = hits;
  // A single hit is no sign of confidence: expansion may find the passages the words missed.
  if (first === undefined || second === undefined) return false;
  return first.bm25 > 0 && (first.bm25 - second.bm25) / first.bm25 >= margin;
}

/** "fields: identifiers 3.1, headings 1.2; link prior ×2.4": what each field added, largest first. */
function fieldsExplained(hit: TextHit): string {
  const shares = Object.entries(hit.fields ?? {})
    .filter(([, share]) => share > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([field, share]) => `${field} ${share.toFixed(2)}`);
  const prior = hit.prior !== undefined && hit.prior > 1 ? `; link prior ×${hit.prior.toFixed(2)}` : '';
  return `fields: ${shares.length > 0 ? shares.join(', ') : 'none'}${prior}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
