import type { IncomingMessage, ServerResponse } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Engine } from '../../engine/engine-types.js';
import { createMcpServer } from './server.js';
import type { CatalogToolOptions } from './catalog-tools.js';

/** Serves MCP over this process's stdin/stdout until the client closes stdin. */
export async function runMcpOverStdio(engine: Engine, streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}, options: CatalogToolOptions = {}): Promise<void> {
  const server = createMcpServer(engine, options);
  const transport = new StdioServerTransport(streams.stdin as NodeJS.ReadStream | undefined, streams.stdout as NodeJS.WriteStream | undefined);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    (streams.stdin ?? process.stdin).once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}

/**
 * Answers one streamable-HTTP MCP request, statelessly: each request gets its own server and
 * transport (the tools keep no session state), so any number of clients can call at once.
 */
export async function handleMcpHttpRequest(engine: Engine, request: IncomingMessage, response: ServerResponse, body: unknown, options: CatalogToolOptions = {}): Promise<void> {
  const server = createMcpServer(engine, options);
  // One JSON answer, unless the client asked for progress: notifications need the event stream
  // (in JSON mode the SDK drops them), so such a request is answered as server-sent events.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: !asksForProgress(body) });
  response.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

/** Whether a JSON-RPC message (or batch) carries a progress token: `params._meta.progressToken`. */
export function asksForProgress(body: unknown): boolean {
  if (Array.isArray(body)) return body.some(asksForProgress);
  if (typeof body !== 'object' || body === null) return false;
  const params = (body as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && (meta as { progressToken?: unknown }).progressToken !== undefined;
}
