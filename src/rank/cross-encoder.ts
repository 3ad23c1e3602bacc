import { prepareTransformers, transformersInstallHint } from '../core/transformers-runtime.js';
import type { Candidate } from '../core/types.js';
import { byFusedScore, passageSnippet, RerankError, type Reranker, rankedResult, round, sigmoid } from './reranker.js';

export const CROSS_ENCODER = 'cross-encoder';

export interface CrossEncoderRerankerOptions {
  /** A Hugging Face cross-encoder with ONNX weights (`Xenova/ms-marco-MiniLM-L-6-v2`) or a local folder holding one. */
  model: string;
  /** Where downloaded models are cached (Transformers.js's own default when unset). */
  cacheDir?: string;
  /** Download the model when it is not in the cache. Off by default: citedocs works offline. */
  allowRemote: boolean;
  /** Weights precision to load (`fp32`, `q8`, …); the model's default when unset. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';
  /** (query, passage) pairs scored in one model run (`rerank.crossEncoder.batchSize`). */
  batchSize: number;
  /** Tokens of one pair; longer pairs are truncated (`rerank.crossEncoder.maxTokens`). */
  maxTokens: number;
}

interface Tensor {
  tolist(): unknown;
}
type Tokenize = (queries: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean; max_length: number }) => Record<string, unknown>;
type Classify = (inputs: Record<string, unknown>) => Promise<{ logits?: Tensor }>;
interface CrossEncoder {
  tokenize: Tokenize;
  classify: Classify;
}

/**
 * A cross-encoder through Transformers.js (`@huggingface/transformers`, an optional
 * dependency): the model reads the query and each passage together and scores the pair.
 * A single logit becomes a probability through the sigmoid; with several labels the score is
 * the softmax probability of the last one (the "relevant" label of two-label rerankers).
 * The model is read from a local folder or the cache; it is downloaded only when `allowRemote` is set.
 */
export function createCrossEncoderReranker(options: CrossEncoderRerankerOptions): Reranker {
  const batchSize = Math.max(1, Math.floor(options.batchSize));
  const maxTokens = Math.max(8, Math.floor(options.maxTokens));
  let encoder: Promise<CrossEncoder> | undefined;
  const load = (): Promise<CrossEncoder> =>
    (encoder ??= loadCrossEncoder(options).catch((error: unknown) => {
      encoder = undefined;
      throw error;
    }));

  async function score(query: string, batch: readonly Candidate[]): Promise<number[]> {
    const { tokenize, classify } = await load();
    const passages = batch.map((candidate) => {
      const { heading, text } = passageSnippet(candidate, maxTokens * 8);
      return heading === '' ? text : `${heading}\n${text}`;
    });
    const inputs = tokenize(batch.map(() => query), { text_pair: passages, padding: true, truncation: true, max_length: maxTokens });
    const rows = (await classify(inputs)).logits?.tolist();
    if (!Array.isArray(rows) || rows.length !== batch.length || !rows.every((row) => Array.isArray(row) && row.length > 0 && row.every((value) => typeof value === 'number'))) {
      throw new RerankError(`The model ${options.model} did not return one row of logits per (query, passage) pair; is it a cross-encoder (sequence-classification) model?`, CROSS_ENCODER);
    }
    return (rows as number[][]).map(relevance);
  }

  return {
    name: CROSS_ENCODER,
    async rerank({ query, candidates, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (candidates.length === 0) return { candidates: [], warnings: [] };
      const ordered = [...candidates].sort(byFusedScore);
      const scores = new Map<string, number>();
      for (let start = 0; start < ordered.length; start += batchSize) {
        const batch = ordered.slice(start, start + batchSize);
        const batchScores = await score(query, batch);
        batch.forEach((candidate, index) => scores.set(candidate.chunk.id, batchScores[index] ?? 0));
        abortSignal?.throwIfAborted();
      }
      const scoreOf = (candidate: Candidate): number => scores.get(candidate.chunk.id) ?? 0;
      const reordered = [...ordered].sort((a, b) => scoreOf(b) - scoreOf(a) || byFusedScore(a, b));
      return rankedResult(CROSS_ENCODER, reordered, (candidate) => ({ score: round(scoreOf(candidate)), detail: `cross-encoder ${options.model}` }));
    },
  };
}

/** One row of logits as a relevance in [0, 1]. */
export function relevance(logits: readonly number[]): number {
  if (logits.length === 1) return sigmoid(logits[0] ?? 0);
  const high = Math.max(...logits);
  const exponentials = logits.map((value) => Math.exp(value - high));
  const total = exponentials.reduce((sum, value) => sum + value, 0);
  return (exponentials[exponentials.length - 1] ?? 0) / total;
}

async function loadCrossEncoder(options: CrossEncoderRerankerOptions): Promise<CrossEncoder> {
  const { library, modelId, where } = await prepareTransformers(
    options,
    (cause) =>
      new RerankError(
        `The cross-encoder reranker needs the optional package @huggingface/transformers: install it with ${transformersInstallHint()}, or choose another reranker (fused-order, llm-pointwise, llm-listwise).`,
        CROSS_ENCODER,
        { cause },
      ),
  );
  const { AutoTokenizer, AutoModelForSequenceClassification } = library;
  const common = { local_files_only: !options.allowRemote, ...(options.cacheDir === undefined ? {} : { cache_dir: options.cacheDir }) };
  try {
    // The model first: its loader says which file is missing, where the tokenizer's fails obscurely.
    const model = await AutoModelForSequenceClassification.from_pretrained(modelId, { ...common, ...(options.dtype === undefined ? {} : { dtype: options.dtype }) });
    const tokenizer = await AutoTokenizer.from_pretrained(modelId, common);
    return {
      tokenize: tokenizer as unknown as Tokenize,
      classify: (inputs) => (model as unknown as Classify)(inputs),
    };
  } catch (error) {
    const hint = options.allowRemote
      ? 'Check the model id (it needs ONNX weights, like Xenova/ms-marco-MiniLM-L-6-v2) and the network.'
      : 'Download it once with `allowRemote: true` in the cross-encoder configuration where the network allows, or point the model at a local folder holding it (config.json, tokenizer.json, onnx/model.onnx).';
    throw new RerankError(`Could not load the cross-encoder model ${options.model} from ${where}: ${(error instanceof Error ? error.message : String(error)).replace(/\.+$/, '')}. ${hint}`, CROSS_ENCODER, {
      cause: error,
    });
  }
}
