import type { LinkIndex } from '../answer/citations/link-index.js';
import { processCitations } from '../answer/citations/process.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { streamLlmAnswer } from '../answer/llm-answer.js';
import type { CitedocsConfig } from '../core/config.js';
import { type Diagnostic, diagnostic } from '../core/diagnostics.js';
import { elapsedMs, logger } from '../core/log.js';
import type { Citation, Selection } from '../core/types.js';
import type { Llm } from '../llm/llm.js';

/**
 * `delta`: more answer text (its links checked); `done`: the whole answer `text` and the sources
 * it cites as data. The sources list is not part of the text: each renderer formats it.
 */
export type WrittenAnswer = { type: 'delta'; text: string; citations?: Citation[] } | { type: 'done'; text: string; citations: Citation[]; diagnostics: Diagnostic[] };

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
 * they stream), or the quoted sentences when there is no model or it fails before writing.
 */
export async function* writeAnswer(question: string, selection: Selection, diagnostics: readonly Diagnostic[], context: AnswerContext): AsyncGenerator<WrittenAnswer> {
  const notes = [...diagnostics];
  const started = performance.now();
  if (selection.candidates.length === 0) {
    const text = 'The indexed documentation has nothing on this question.';
    yield { type: 'delta', text };
    yield { type: 'done', text, citations: [], diagnostics: notes };
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
        notes.push(diagnostic('answer.llm-failed', `The LLM answer failed (${event.failure}); quoted the sources instead.`));
        break;
      }
      const all = [...notes, ...linkNotes(event.result.warnings)];
      if (event.failure !== undefined) all.push(diagnostic('answer.llm-stopped', `The model stopped before the end of its answer (${event.failure}).`));
      logger('answer').info({ mode: 'llm', model: context.llm.modelId, citations: event.result.citations.length, ms: elapsedMs(started) }, 'answer written');
      yield { type: 'done', text, citations: event.result.citations, diagnostics: all };
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
  logger('answer').info({ mode: 'extractive', citations: checked.citations.length, ms: elapsedMs(started) }, 'answer written');
  yield { type: 'delta', text: checked.text };
  yield { type: 'done', text: checked.text, citations: checked.citations, diagnostics: [...notes, ...linkNotes(checked.warnings)] };
}

/** What the citation checker corrected or removed (a source not indexed, an anchor the page lacks, a link it rewrote). */
function linkNotes(warnings: readonly string[]): Diagnostic[] {
  return warnings.map((warning) => diagnostic('answer.link-corrected', warning));
}
