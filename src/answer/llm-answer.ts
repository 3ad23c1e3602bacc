import type { Candidate, Citation } from '../core/types.js';
import type { Llm } from '../llm/llm.js';
import type { LinkIndex } from './citations/link-index.js';
import type { CitationResult } from './citations/process.js';
import { createCitationStream } from './citations/stream.js';
import { buildAnswerPrompt, type PromptOptions, promptSources } from './prompt.js';

/** A delta carries `citations` (every source cited so far) when it is the first text after a new one was numbered. */
export type AnswerEvent = { type: 'delta'; text: string; citations?: Citation[] } | { type: 'done'; result: CitationResult; failure?: string };

export interface LlmAnswerOptions {
  maxTokens: number;
  prompt?: PromptOptions;
  abortSignal?: AbortSignal;
}

/**
 * An answer written by the model from the selected passages, streamed: each delta is already
 * post-processed (citations renumbered, every link checked against the index, corrected or
 * unlinked), so what the caller shows never holds a broken link. A model that fails midway
 * ends the answer with what it wrote and `failure`.
 */
export async function* streamLlmAnswer(llm: Llm, question: string, candidates: readonly Candidate[], index: LinkIndex, options: LlmAnswerOptions): AsyncGenerator<AnswerEvent> {
  const sources = promptSources(candidates);
  const messages = buildAnswerPrompt(question, sources, options.prompt);
  const citations = createCitationStream(
    sources.map((source) => ({ n: source.n, url: source.url, title: source.breadcrumb })),
    index,
  );
  let failure: string | undefined;
  // A reader shows `[n]` as a link while the answer streams, so new numbers go out with the next text.
  let announced = 0;
  const withCitations = (text: string): AnswerEvent => {
    const cited = citations.citations();
    if (cited.length === announced) return { type: 'delta', text };
    announced = cited.length;
    return { type: 'delta', text, citations: cited };
  };
  try {
    for await (const delta of llm.stream({ messages, maxTokens: options.maxTokens, temperature: 0, ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) })) {
      const safe = await citations.push(delta);
      if (safe !== '') yield withCitations(safe);
    }
  } catch (error) {
    options.abortSignal?.throwIfAborted();
    failure = error instanceof Error ? error.message : String(error);
  }
  const result = await citations.end();
  if (result.text !== '') yield withCitations(result.text);
  yield { type: 'done', result, ...(failure === undefined ? {} : { failure }) };
}
