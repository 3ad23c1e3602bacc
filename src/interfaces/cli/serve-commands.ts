import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { listen, type ServeFlags, type ServeKit } from './serve-listen.js';
import { collect, port, positiveInteger } from './option-parsers.js';

/** A repeatable option whose every use may also hold a comma-separated list. */
function collectList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim()).filter((item) => item !== '')];
}

const ALLOWED_HOSTS_HELP = 'also answer requests for these host names (name or name:port; comma-separated or repeated; * for any): localhost and IP addresses always work, other names get 403 (DNS rebinding)';
const ALLOWED_ORIGINS_HELP = "let pages of these origins (scheme://host[:port]; comma-separated or repeated; * for any) call the API: other sites' pages get 403";

/** `citedocs serve` (HTTP API, chat page, MCP at /mcp) and `citedocs mcp` (MCP over stdio, or HTTP with --port). */
export function registerServeCommands(program: Command, io: CliIo, kit: ServeKit): void {
  kit
    .withEmbedder(
      kit.withCommon(
        program
          .command('serve')
          .description('serve the index over HTTP: POST /search, /ask, /api/chat(/stream), MCP at /mcp, and a chat page at /')
          .option('--port <n>', 'port to listen on (0: any free port)', port, 8787)
          .option('--host <address>', 'address to bind; anything but loopback is reachable from other machines', '127.0.0.1'),
      ),
    )
    .option('--api-key <key>', 'require this bearer token (repeat for several; env CITEDOCS_API_KEYS, comma-separated)', collect, [])
    .option('--cors-origin <origin>', 'allow browser calls from this origin (repeatable)', collect, [])
    .option('--allowed-hosts <hosts>', ALLOWED_HOSTS_HELP, collectList, [])
    .option('--allowed-origins <origins>', ALLOWED_ORIGINS_HELP, collectList, [])
    .option('--example <question>', 'a question the chat page suggests before the first one (repeatable; default: topics from page titles)', collect, [])
    .option('--timeout <ms>', 'stop a request that takes longer than this many milliseconds', positiveInteger, 60_000)
    .option('--workers <n>', 'processes that serve requests, sharing the port and the index (default: one per CPU core, or 1 with --allow-indexing; 1: this process alone)', positiveInteger)
    .option('--allow-indexing', 'let agents index documentation sites over MCP (index_docs runs background crawl jobs; served by one process, the index writer)')
    .action(async (options: ServeFlags) => listen(options, 'serve', io, kit));

  kit
    .withEmbedder(
      kit.withCommon(
        program
          .command('mcp')
          .description('serve the index to agents over MCP: stdio by default, streamable HTTP at /mcp with --port')
          .option('--port <n>', 'serve MCP over HTTP on this port instead of stdio', port)
          .option('--host <address>', 'address to bind with --port', '127.0.0.1')
          .option('--allow-indexing', 'let agents index documentation sites (index_docs runs background crawl jobs)'),
      ),
    )
    .option('--api-key <key>', 'with --port: require this bearer token (repeatable)', collect, [])
    .option('--allowed-hosts <hosts>', `with --port: ${ALLOWED_HOSTS_HELP}`, collectList, [])
    .option('--allowed-origins <origins>', `with --port: ${ALLOWED_ORIGINS_HELP}`, collectList, [])
    .action(async (options: Omit<ServeFlags, 'port' | 'corsOrigin' | 'example' | 'timeout'> & { port?: number }) => {
      if (options.port !== undefined) return listen({ ...options, port: options.port, corsOrigin: [], example: [], timeout: 60_000 }, 'mcp', io, kit);
      await kit.withEngine(options, async (engine) => {
        // A server that may index starts on an empty index; one that may not needs an index now.
        if (options.allowIndexing !== true) await engine.stats();
        const { runMcpOverStdio } = await import('../mcp/transports.js');
        await runMcpOverStdio(engine, {}, { allowIndexing: options.allowIndexing === true });
      });
    });
}
