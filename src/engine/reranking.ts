import type { CitedocsConfig } from '../core/config.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import { UsageError } from '../core/errors.js';
import type { Candidate } from '../core/types.js';
import type { Llm } from '../llm/llm.js';
import { createCrossEncoderReranker } from '../rank/cross-encoder.js';
import { createFusedOrderReranker } from '../rank/fused-order.js';
import { createMemoryJudgementCache } from '../rank/judgement-cache.js';
import { createLlmListwiseReranker } from '../rank/llm-listwise.js';
import { createLlmPointwiseReranker } from '../rank/llm-pointwise.js';
import { rerankWithPolicy } from '../rank/policy.js';
import type { Reranker } from '../rank/reranker.js';

export interface Reranking {
  /** The reranker's name (`fused-order` when no model judges). */
  readonly name: string;
  rerank(query: string, candidates: readonly Candidate[], abortSignal?: AbortSignal): Promise<{ candidates: Candidate[]; diagnostics: Diagnostic[] }>;
}

/**
 * The rank stage as configured: the reranker judges the best `rerank.candidates` under the
 * policy (too few → retrieval order; a failure → retrieval order and a warning; nothing
 * relevant → the top few by retrieval score); the other candidates follow in retrieval order.
 */
export function createReranking(config: CitedocsConfig, llm: () => Llm | undefined): Reranking {
  const settings = config.rerank;
  const cache = settings.cacheEntries > 0 ? createMemoryJudgementCache({ maxEntries: settings.cacheEntries }) : undefined;
  const method = settings.method === 'auto' ? (llm() === undefined ? 'fused' : 'llm-pointwise') : settings.method;
  const needLlm = (): Llm => {
    const model = llm();
    if (model === undefined) throw new UsageError(`rerank.method "${method}" needs an LLM: set llm.model (and llm.baseUrl) in the configuration, or use rerank.method "fused".`);
    return model;
  };
  let reranker: Reranker;
  switch (method) {
    case 'llm-pointwise':
      reranker = createLlmPointwiseReranker({ llm: needLlm(), ...settings.pointwise, ...(cache === undefined ? {} : { cache }) });
      break;
    case 'llm-listwise':
      reranker = createLlmListwiseReranker({ llm: needLlm(), maxCandidates: settings.candidates, ...settings.listwise, ...(cache === undefined ? {} : { cache }) });
      break;
    case 'cross-encoder':
      if (settings.crossEncoderModel === undefined) throw new UsageError('rerank.method "cross-encoder" needs rerank.crossEncoderModel, e.g. "Xenova/ms-marco-MiniLM-L-6-v2".');
      reranker = createCrossEncoderReranker({ model: settings.crossEncoderModel, ...settings.crossEncoder, allowRemote: config.embed.transformers.allowRemote, ...(config.embed.transformers.cacheDir === undefined ? {} : { cacheDir: config.embed.transformers.cacheDir }) });
      break;
    default:
      reranker = createFusedOrderReranker();
  }
  return {
    name: reranker.name,
    async rerank(query, candidates, abortSignal) {
      if (method === 'fused') {
        logger('rank').debug({ reranker: 'fused-order', kept: candidates.length }, 'fused-score order kept: no reranker configured');
        return { candidates: [...candidates], diagnostics: [] };
      }
      const judged = candidates.slice(0, settings.candidates);
      const started = performance.now();
      const result = await rerankWithPolicy(
        reranker,
        { query, candidates: judged, ...(abortSignal === undefined ? {} : { abortSignal }) },
        {
          minCandidatesForAssessment: settings.minCandidatesForAssessment,
          relevanceThreshold: settings.relevanceThreshold,
          topOnNoneRelevant: settings.topOnNoneRelevant,
          protectTopK: settings.protectTopK,
          maxDemotion: settings.maxDemotion,
          ...(settings.retrievalWeight === undefined ? {} : { retrievalWeight: settings.retrievalWeight }),
        },
      );
      // "Nothing relevant" keeps only the top few: the unjudged rest is not added back then.
      const rest = result.outcome === 'none-relevant' ? [] : candidates.slice(settings.candidates);
      logger('rank').info({ reranker: reranker.name, outcome: result.outcome, judged: judged.length, kept: result.candidates.length + rest.length, ms: elapsedMs(started) }, 'candidates reranked');
      return { candidates: [...result.candidates, ...rest], diagnostics: result.diagnostics };
    },
  };
}
