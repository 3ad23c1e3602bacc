import type { Citation } from '../../core/types.js';
import type { LinkIndex } from './link-index.js';
import { createSentenceRenderer, type CitationResult, type Source } from './render.js';
import { firstSentence, type Token } from './tokenize.js';

export interface CitationStream {
  /** Takes the next piece of the answer; returns the corrected text that is safe to show now. Await each push before the next. */
  push(delta: string): Promise<string>;
  /**
   * Ends the answer: `text` is the rest of the corrected text, so everything `push` returned
   * followed by `text` is exactly `processCitations(whole answer).text`.
   */
  end(): Promise<CitationResult>;
  /** The sources cited so far by the finished sentences `push` has returned, numbered as in the final answer. */
  citations(): Citation[];
}

interface Fence {
  char: string;
  length: number;
}

/** Past this length an unfinished sentence is previewed only every PREVIEW_EVERY_CHARS characters. */
const LONG_SENTENCE_CHARS = 2048;
const PREVIEW_EVERY_CHARS = 256;

/** A fence opener line: three or more backticks (no backtick in the info string) or tildes. */
const OPENER = /^[ \t]*(`{3,}|~{3,})([^\n]*)$/;
const CLOSER = /^[ \t]*(`{3,}|~{3,})[ \t]*\r?$/;
/** An unfinished line that more text could still turn into a fence opener. */
const MAY_OPEN = /^[ \t]*(?:`{0,2}|~{0,2}|`{3,}[^`\n]*|~{3,}[^\n]*)$/;

/**
 * Post-processes an answer as it streams in. Text is held back only while the next characters
 * can still change it: an unfinished `[…`, `[label](…` or URL, an unfinished sentence whose
 * link depends on the markers that end it, a line that may open a code fence. Code inside a
 * fence passes through as it comes. Numbers are given at first use, as in the batch.
 */
export function createCitationStream(sources: readonly Source[], index: LinkIndex): CitationStream {
  const renderer = createSentenceRenderer(sources, index);
  /** Text not yet settled; in prose it starts at the start of a sentence. */
  let pending = '';
  /** Whether `pending` starts at the start of a line. */
  let lineStart = true;
  let fence: Fence | undefined;
  /** The part of the current fenced line already passed through. */
  let fenceLine = '';
  /** How much of the output of the sentence at the start of `pending` has been emitted. */
  let shown = 0;
  /** Tokens at the start of `pending` that no later text can change. */
  let settled: Token[] = [];
  /** Length of the unfinished sentence at its last preview. */
  let previewedAt = 0;
  let ended = false;

  const prose = async (text: string, blockEnded: boolean): Promise<{ output: string; consumed: number }> => {
    let output = '';
    let consumed = 0;
    while (consumed < text.length) {
      const { tokens, end } = firstSentence(text.slice(consumed), blockEnded, consumed === 0 ? settled : []);
      if (end === undefined && !blockEnded) {
        // All but the last token stay as they are however the text goes on: tokenize only the rest next time.
        settled = tokens.slice(0, -1);
        const length = text.length - consumed;
        // A preview renders the whole unfinished sentence: in a very long one, not at every push.
        if (length >= LONG_SENTENCE_CHARS && length - previewedAt < PREVIEW_EVERY_CHARS) break;
        previewedAt = length;
        const preview = await renderer.preview(tokens);
        if (preview.length > shown) {
          output += preview.slice(shown);
          shown = preview.length;
        }
        break;
      }
      const sentence = end === undefined ? tokens : tokens.slice(0, end);
      output += (await renderer.commit(sentence)).slice(shown);
      shown = 0;
      settled = [];
      previewedAt = 0;
      consumed += sentence.reduce((length, token) => length + token.raw.length, 0);
    }
    return { output, consumed };
  };

  const settle = async (final: boolean): Promise<string> => {
    let output = '';
    for (;;) {
      if (fence !== undefined) {
        const newline = pending.indexOf('\n');
        if (newline === -1) {
          output += pending;
          fenceLine += pending;
          pending = '';
          return output;
        }
        const line = fenceLine + pending.slice(0, newline);
        output += pending.slice(0, newline + 1);
        pending = pending.slice(newline + 1);
        fenceLine = '';
        lineStart = true;
        if (closes(line, fence)) fence = undefined;
        continue;
      }
      const opener = findOpener(pending, lineStart, final);
      const proseEnd = opener?.start ?? pending.length - (final ? 0 : heldLine(pending, lineStart));
      const { output: text, consumed } = await prose(pending.slice(0, proseEnd), opener !== undefined || final);
      output += text;
      if (opener === undefined) {
        pending = pending.slice(consumed);
        if (consumed > 0) lineStart = false;
        return output;
      }
      output += pending.slice(opener.start, opener.end);
      pending = pending.slice(opener.end);
      fence = opener.fence;
      fenceLine = '';
      shown = 0;
    }
  };

  return {
    async push(delta) {
      if (ended) throw new Error('The citation stream has ended: push() after end() cannot be post-processed. Create a new stream per answer.');
      pending += delta;
      return settle(false);
    },
    async end() {
      if (ended) throw new Error('The citation stream has already ended. Create a new stream per answer.');
      ended = true;
      return { text: await settle(true), citations: renderer.citations(), warnings: renderer.warnings() };
    },
    citations: () => renderer.citations(),
  };
}

/** The first complete line of `text` that opens a fence (with `final`, the unfinished last line too). */
function findOpener(text: string, lineStart: boolean, final: boolean): { start: number; end: number; fence: Fence } | undefined {
  let start = lineStart ? 0 : text.indexOf('\n') + 1;
  if (start === 0 && !lineStart) return undefined;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) {
      const fence = final && start < text.length ? openerOf(text.slice(start)) : undefined;
      return fence === undefined ? undefined : { start, end: text.length, fence };
    }
    const fence = openerOf(text.slice(start, newline));
    if (fence !== undefined) return { start, end: newline + 1, fence };
    start = newline + 1;
  }
  return undefined;
}

/** Length of the unfinished last line when it may still open a fence (then it waits). */
function heldLine(text: string, lineStart: boolean): number {
  const newline = text.lastIndexOf('\n');
  if (newline === -1 && !lineStart) return 0;
  const line = text.slice(newline + 1);
  return MAY_OPEN.test(line) ? line.length : 0;
}

function openerOf(line: string): Fence | undefined {
  const match = OPENER.exec(line);
  const run = match?.[1];
  if (run === undefined || (run.startsWith('`') && (match?.[2] ?? '').includes('`'))) return undefined;
  return { char: run.charAt(0), length: run.length };
}

function closes(line: string, fence: Fence): boolean {
  const run = CLOSER.exec(line)?.[1];
  return run !== undefined && run.charAt(0) === fence.char && run.length >= fence.length;
}
