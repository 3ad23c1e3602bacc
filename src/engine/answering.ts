import type { LinkIndex } from '../answer/citations/link-index.js';
import { formatSourcesList, processCitations } from '../answer/citations/process.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { streamLlmAnswer } from '../answer/llm-answer.js';
import type { CitedocsConfig } from '../core/config.js';
import type { Citation, Selection } from '../core/types.js';
import type { Llm } from '../llm/llm.js';

export type WrittenAnswer = { type: 'delta'; text: string; citations?: Citation[] } | { type: 'done'; answer: string; citations: Citation[]; warnings: string[] };

export interface AnswerContext {
  config: CitedocsConfig;
  /** The model that writes the answer; undefined: the quoted (extractive) answer. */
  llm: Llm | undefined;
  links: LinkIndex;
  /** Counts tokens as the target model does, to keep a quoted answer within answer.maxAnswerTokens. */
  countTokens?: (text: string) => number;
  abortSignal?: AbortSignal;
}

/**
 * The answer from the selected passages, as it is written: the model's (its links checked as
 * they stream), or the quoted sentences when there is no model or it fails before writing. Both
 * end with the list of the sources they cite.
 */
export async function* writeAnswer(question: string, selection: Selection, warnings: readonly string[], context: AnswerContext): AsyncGenerator<WrittenAnswer> {
  const notes = [...warnings];
  if (selection.candidates.length === 0) {
    const answer = 'The indexed documentation has nothing on this question.';
    yield { type: 'delta', text: answer };
    yield { type: 'done', answer, citations: [], warnings: notes };
    return;
  }
  const { config } = context;
  if (context.llm !== undefined) {
    let text = '';
    for await (const event of streamLlmAnswer(context.llm, question, selection.candidates, context.links, {
      maxTokens: config.answer.maxAnswerTokens,
      prompt: {
        ...(config.answer.systemPrompt === undefined ? {} : { systemPrompt: config.answer.systemPrompt }),
        ...(config.answer.userTemplate === undefined ? {} : { userTemplate: config.answer.userTemplate }),
      },
      ...(context.abortSignal === undefined ? {} : { abortSignal: context.abortSignal }),
    })) {
      if (event.type === 'delta') {
        text += event.text;
        yield event;
        continue;
      }
      if (event.failure !== undefined && text.trim() === '') {
        // Nothing written: the quoted answer still answers.
        notes.push(`The LLM answer failed (${event.failure}); quoted the sources instead.`);
        break;
      }
      const all = [...notes, ...event.result.warnings];
      if (event.failure !== undefined) all.push(`The model stopped before the end of its answer (${event.failure}).`);
      const list = sourcesList(event.result.citations);
      if (list !== '') yield { type: 'delta', text: list };
      yield { type: 'done', answer: text + list, citations: event.result.citations, warnings: all };
      return;
    }
  }
  const draft = extractiveAnswer(question, selection.candidates, {
    maxSentences: config.answer.maxSentences,
    maxTokens: config.answer.maxAnswerTokens,
    ...(context.countTokens === undefined ? {} : { countTokens: context.countTokens }),
  });
  // Quoted sentences may hold links of their own: they are checked like a model's.
  const checked = await processCitations(
    draft.text,
    draft.citations.map((citation) => ({ n: citation.n, url: citation.url, title: citation.title })),
    context.links,
  );
  const answer = checked.text + sourcesList(checked.citations);
  yield { type: 'delta', text: answer };
  yield { type: 'done', answer, citations: checked.citations, warnings: [...notes, ...checked.warnings] };
}

/** The list of sources appended to an answer, after a blank line (none when nothing is cited). */
function sourcesList(citations: readonly Citation[]): string {
  const list = formatSourcesList(citations);
  return list === '' ? '' : `\n\n${list}`;
}
