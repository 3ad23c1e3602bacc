import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './sse.js';

function body(parts: (string | Uint8Array)[]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  const encoder = new TextEncoder();
  const queue = [...parts];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = queue.shift();
      if (part === undefined) controller.close();
      else controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function events(parts: (string | Uint8Array)[]): Promise<string[]> {
  const all: string[] = [];
  for await (const data of readServerSentEvents(body(parts).stream)) all.push(data);
  return all;
}

describe('readServerSentEvents', () => {
  it('yields the data of each event and skips comments and other fields', async () => {
    expect(await events([': keep-alive\n\n', 'event: message\nid: 1\ndata: {"a":1}\n\n', 'retry: 10\n\n', 'data: [DONE]\n\n'])).toEqual(['{"a":1}', '[DONE]']);
  });

  it('joins lines split anywhere across reads, whatever the line endings', async () => {
    expect(await events(['da', 'ta: one\r', '\n\r\ndata:two', '\r\rdata: three\n', '\n'])).toEqual(['one', 'two', 'three']);
  });

  it('decodes a character split between reads', async () => {
    const bytes = new TextEncoder().encode('data: café ☕\n\n');
    expect(await events([bytes.subarray(0, 10), bytes.subarray(10, 15), bytes.subarray(15)])).toEqual(['café ☕']);
  });

  it('joins multi-line data with newlines and keeps the last event when the closing blank line is missing', async () => {
    expect(await events(['data: first\ndata:  second\n\ndata: last'])).toEqual(['first\n second', 'last']);
  });

  it('cancels the body when the reader leaves early', async () => {
    const source = body(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
    for await (const data of readServerSentEvents(source.stream)) if (data === '1') break;
    expect(source.cancelled()).toBe(true);
  });

  it('calls onRead after every read', async () => {
    let reads = 0;
    for await (const _data of readServerSentEvents(body(['data: a\n', '\n', 'data: b\n\n']).stream, { onRead: () => (reads += 1) })) {
      // Only the count of reads matters.
    }
    expect(reads).toBe(4);
  });

  it('rejects a waiting read with the reason of the signal, and cancels the body', async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 10);
    const iterate = async (): Promise<void> => {
      for await (const _data of readServerSentEvents(stalled, { signal: controller.signal })) {
        // Nothing arrives.
      }
    };
    await expect(iterate()).rejects.toThrow('stop');
    expect(cancelled).toBe(true);
  });
});
