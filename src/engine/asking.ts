import { linkIndexOfStore } from '../answer/citations/link-index.js';
import { answerWithSources } from '../answer/citations/process.js';
import { logDiagnostics, withWarnings } from '../core/diagnostics.js';
import { UsageError } from '../core/errors.js';
import { round } from '../core/round.js';
import { type Citation, chunkUrl } from '../core/types.js';
import { writeAnswer } from './answering.js';
import type { EngineContext } from './engine-context.js';
import type { AskEvent, AskOptions, LabelledCitation } from './engine-types.js';
import { labelFor } from './library-catalog.js';
import type { SelectPassages } from './passage-selection.js';
import { retrievalQuery } from '../retrieve/conversation.js';
import { createUsageMeter, meterLlm, metering } from './usage.js';

/** `ask`, as it is written: the answer's text deltas (links already checked), then the whole response. */
export async function* askQuestion(context: EngineContext, selectPassages: SelectPassages, question: string, options: AskOptions): AsyncGenerator<AskEvent> {
  const { config } = context;
  const query = retrievalQuery(question, options.earlierQuestions ?? []);
  const meter = createUsageMeter();
  const { selection, diagnostics } = await metering(meter, () =>
    selectPassages({ query, limit: config.select.finalK, maxTokens: options.maxTokens ?? config.select.maxTotalTokens, maxPages: options.maxPages, scope: options, signal: options.signal }),
  );
  const labels = await context.store().catalog.sourceLabels(selection.candidates.map((candidate) => candidate.chunk.pageUrl));
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
  const model = config.answer.mode === 'extractive' ? undefined : context.rawLlm();
  const llm = model === undefined ? undefined : meterLlm(model, () => meter, context.tokenizer);
  if (config.answer.mode === 'llm' && llm === undefined) throw new UsageError('answer.mode "llm" needs an LLM: set llm.model (and llm.baseUrl) in the configuration.');
  // The quoted answer is measured in the target model's tokens; a model's answer is bounded by its own maxTokens.
  const counter = llm === undefined ? await context.tokenizer() : undefined;
  const written = writeAnswer(question, selection, diagnostics, {
    config,
    llm,
    links: linkIndexOfStore(context.store()),
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
}
