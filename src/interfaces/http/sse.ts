import type { FastifyReply } from 'fastify';
import { formatSourcesList } from '../../answer/citations/process.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { AskEvent } from '../../engine/engine-types.js';

/** What `/api/chat/stream` sends, one `data:` line each, in this order. */
export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  /** The sources cited so far, numbered as in the answer: sent before a delta whenever new ones were numbered, so `[n]` can be linked while the answer streams. */
  | { type: 'cited'; citations: unknown[] }
  | { type: 'citations'; citations: unknown[] }
  /** `diagnostics`: the same warnings as data (code, stage, message). */
  | { type: 'warnings'; warnings: string[]; diagnostics: Diagnostic[] }
  | { type: 'done'; answer: string; selection: unknown }
  | { type: 'error'; error: string; message: string };

/**
 * Streams an answer as server-sent events: the text deltas as they are written (links already
 * checked; a `cited` event before a delta when new sources were numbered), the sources list as
 * the last delta, then the citations, the warnings, and `done` with the whole answer, so a client
 * that joins the deltas ends with exactly the answer `/api/chat` returns. A failure after the stream
 * began is an `error` event (the status line is already sent).
 */
export async function streamChat(reply: FastifyReply, events: AsyncGenerator<AskEvent>, describe: (error: unknown) => { code: string; message: string }): Promise<void> {
  // The first event decides the status: a request refused before any text is a plain JSON error.
  const first = await events.next();
  reply.hijack();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const send = (event: ChatStreamEvent) => reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
  try {
    for (let step = first; step.done !== true; step = await events.next()) {
      const event = step.value;
      if (event.type === 'delta') {
        if (event.citations !== undefined) send({ type: 'cited', citations: event.citations });
        send({ type: 'delta', text: event.text });
        continue;
      }
      const list = formatSourcesList(event.response.citations);
      if (list !== '') send({ type: 'delta', text: `\n\n${list}` });
      send({ type: 'citations', citations: event.response.citations });
      send({ type: 'warnings', warnings: event.response.warnings, diagnostics: event.response.diagnostics });
      send({ type: 'done', answer: event.response.answer, selection: event.response.selection });
    }
  } catch (error) {
    const failure = describe(error);
    if (!reply.raw.destroyed) send({ type: 'error', error: failure.code, message: failure.message });
  } finally {
    reply.raw.end();
  }
}
