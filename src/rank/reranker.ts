import { CitedocsError } from '../core/errors.js';
import type { Candidate, ScoreTrace } from '../core/types.js';
import { round } from '../core/round.js';

export interface RerankRequest {
  query: string;
  /** In retrieval order (fused score, best first); a reranker never changes these objects. */
  candidates: readonly Candidate[];
  abortSignal?: AbortSignal;
}

export interface RerankResult {
  /**
   * Every input candidate exactly once, reordered, as copies: `scores.rerank` is set on the
   * ones the model judged (0 = irrelevant … 1 = answers the question), and each carries a
   * trace entry `{ technique: 'rerank:<name>', rank, score, detail }` (rank from 1).
   */
  candidates: Candidate[];
  warnings: string[];
}

/**
 * Reorders retrieval candidates by how well they answer the query. Implementations fail by
 * throwing (RerankError, LlmError, the abort reason); `rerankWithPolicy` turns a failure into
 * the fused-score order with a warning.
 */
export interface Reranker {
  /** fused-order, llm-pointwise, llm-listwise, cross-encoder: the `rerank:<name>` of traces and warnings. */
  readonly name: string;
  rerank(request: RerankRequest): Promise<RerankResult>;
}

/** A reranker that could not judge: the message names the reranker, the input or model, and what to try. */
export class RerankError extends CitedocsError {
  override readonly name = 'RerankError';
  readonly reranker: string;

  constructor(message: string, reranker: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.reranker = reranker;
  }
}

/** Retrieval order: fused score descending, ties by chunk id, so equal scores order the same on every run. */
export function byFusedScore(a: Candidate, b: Candidate): number {
  return b.scores.fused - a.scores.fused || a.chunk.id.localeCompare(b.chunk.id);
}

/** A copy of the candidate that can take a rerank score and trace entries without touching the input. */
export function copyCandidate(candidate: Candidate): Candidate {
  return { ...candidate, scores: { ...candidate.scores }, techniques: [...candidate.techniques], trace: [...candidate.trace] };
}

/**
 * Copies `ordered` with `rank` = position from 1 and the reranker's trace entry; `judge`
 * gives each candidate's rerank score (undefined: not judged, the trace shows its fused score).
 */
export function rankedResult(
  name: string,
  ordered: readonly Candidate[],
  judge: (candidate: Candidate) => { score?: number; detail: string },
  warnings: string[] = [],
): RerankResult {
  const candidates = ordered.map((candidate, index) => {
    const copy = copyCandidate(candidate);
    const { score, detail } = judge(candidate);
    if (score === undefined) delete copy.scores.rerank;
    else copy.scores.rerank = score;
    const entry: ScoreTrace = { technique: `rerank:${name}`, rank: index + 1, score: round(score ?? candidate.scores.fused), detail };
    copy.trace.push(entry);
    return copy;
  });
  return { candidates, warnings };
}

/** The passage as a model sees it: "Title › Heading › Sub" then the text, cut at a word near `maxChars`. */
export function passageSnippet(candidate: Candidate, maxChars: number): { heading: string; text: string } {
  const heading = [candidate.chunk.pageTitle, ...candidate.chunk.headingPath].filter((part) => part.trim() !== '').join(' › ');
  return { heading, text: truncate(candidate.chunk.text.replace(/\s+/g, ' ').trim(), maxChars) };
}

export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Passages are data: text that looks like the fences around them (`<passage …>`,
 * `</passage>`, `<question>`) is defused, so a passage cannot end its own fence and speak
 * as the prompt.
 */
export function defuse(text: string): string {
  return text.replace(/<(\/?\s*(?:passage|question|candidate)s?\b)/gi, '‹$1');
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}


export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

export { round };
