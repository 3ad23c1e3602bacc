import { raceAbort } from '../core/http/retry.js';

/**
 * The `data` of each server-sent event in a response body, in order (multi-line data joined
 * with "\n"). Comments (": keep-alive"), other fields and blank events are skipped; lines may
 * be split anywhere across reads and end in \n, \r\n or \r. `onRead` runs after every read, so
 * an idle timer can be restarted; a read waiting when `signal` aborts rejects with its reason.
 * Leaving the loop early, or failing, cancels the body.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: { signal?: AbortSignal; onRead?: () => void } = {},
): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await (options.signal === undefined ? reader.read() : raceAbort(reader.read(), options.signal));
      options.onRead?.();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (let next = nextLine(buffer, done); next !== undefined; next = nextLine(buffer, done)) {
        const [line, rest] = next;
        buffer = rest;
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          if (field === 'data') data.push(colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, ''));
        }
      }
      if (done) break;
    }
    finished = true;
    // A body that ends without the closing blank line still delivers its last event.
    if (data.length > 0) yield data.join('\n');
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function nextLine(buffer: string, atEnd: boolean): [string, string] | undefined {
  const match = /\r\n|\r|\n/.exec(buffer);
  if (match === null) return atEnd && buffer !== '' ? [buffer, ''] : undefined;
  // A trailing \r may be the first half of \r\n: wait for the next read to know.
  if (match[0] === '\r' && match.index === buffer.length - 1 && !atEnd) return undefined;
  return [buffer.slice(0, match.index), buffer.slice(match.index + match[0].length)];
}
