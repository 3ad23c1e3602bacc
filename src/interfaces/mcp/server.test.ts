import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine.js';
import type { Engine } from '../../engine/engine-types.js';
import { createMcpServer } from './server.js';

const base = createEngine({ dbPath: join(mkdtempSync(join(tmpdir(), 'citedocs-mcp-cancel-')), 'index.db') });
afterAll(() => base.close());

/** An engine whose slow operation starts, then waits for its signal: it records whether the signal came. */
function stalledEngine(method: 'search' | 'ask' | 'web') {
  let entered: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (entered = resolve));
  const seen = { aborted: false };
  const wait = (_text: string, options?: { signal?: AbortSignal }) =>
    new Promise<never>((_resolve, reject) => {
      entered();
      const signal = options?.signal;
      if (signal === undefined) return;
      signal.addEventListener('abort', () => {
        seen.aborted = true;
        reject(signal.reason as Error);
      });
    });
  const engine: Engine = { ...base, [method]: wait };
  return { engine, started, seen };
}

async function connect(engine: Engine): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(engine).connect(serverSide);
  const client = new Client({ name: 'cancel-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('MCP cancellation', () => {
  it.each([
    ['search_docs', 'search', { query: 'index' }],
    ['ask_docs', 'ask', { question: 'how do I index' }],
    ['find_web_docs', 'web', { query: 'flatMap' }],
  ] as const)('%s passes the request’s abort signal to the engine: a cancelled call stops its work', async (tool, method, args) => {
    const { engine, started, seen } = stalledEngine(method);
    const client = await connect(engine);
    const controller = new AbortController();
    const call = client.callTool({ name: tool, arguments: args }, undefined, { signal: controller.signal });
    await started;
    controller.abort(new Error('the agent gave up'));
    await expect(call).rejects.toThrow(/the agent gave up/);
    // The cancellation is a notification: give it a bounded time to reach the server.
    for (let poll = 0; poll < 100 && !seen.aborted; poll += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.aborted).toBe(true);
    await client.close();
  });
});
