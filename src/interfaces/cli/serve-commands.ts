import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { CitedocsError, UsageError } from '../../core/errors.js';
import { logger, logLevels } from '../../core/log.js';
import { plural } from '../../core/plural.js';
import type { CliIo, CommandKit, ProgramKit } from './cli-io.js';
import { collect, port, positiveInteger } from './option-parsers.js';

interface ServeFlags {
  db?: string;
  config?: string;
  embedder?: string;
  quiet?: boolean;
  port: number;
  host: string;
  apiKey: string[];
  corsOrigin: string[];
  allowedHosts: string[];
  allowedOrigins: string[];
  example: string[];
  timeout: number;
  /** Processes serving requests; undefined: one per core. */
  workers?: number;
  allowIndexing?: boolean;
}

/** What serve takes beyond the common kit: the configuration, for worker processes to build their engines from. */
type ServeKit = CommandKit & Pick<ProgramKit, 'configFor'>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

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
    .action(async (options: ServeFlags) => listen(options, 'serve'));

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
      if (options.port !== undefined) return listen({ ...options, port: options.port, corsOrigin: [], example: [], timeout: 60_000 }, 'mcp');
      const engine = kit.engineFor(options);
      try {
        // A server that may index starts on an empty index; one that may not needs an index now.
        if (options.allowIndexing !== true) await engine.stats();
        const { runMcpOverStdio } = await import('../mcp/transports.js');
        await runMcpOverStdio(engine, {}, { allowIndexing: options.allowIndexing === true });
      } finally {
        await engine.close();
      }
    });

  async function listen(options: ServeFlags, mode: 'serve' | 'mcp'): Promise<void> {
    const engine = kit.engineFor(options);
    try {
      // A missing or unreadable index is refused now, not at the first request; a server that may index starts on an empty one.
      const stats = options.allowIndexing === true && !existsSync(engine.config.dbPath) ? undefined : await engine.stats();
      const apiKeys = [...options.apiKey, ...(io.env['CITEDOCS_API_KEYS'] ?? '').split(',').map((key) => key.trim()).filter(Boolean)];
      if (!LOOPBACK.has(options.host) && apiKeys.length === 0) {
        kit.warn('open-server', `listening on ${options.host} without --api-key: anyone who can reach this machine can query the index.`);
      }
      // The name it is bound to is one it answers to; a wildcard address names none.
      const boundName = isIP(options.host) === 0 && !LOOPBACK.has(options.host) ? [options.host] : [];
      const serverOptions = {
        apiKeys,
        corsOrigins: options.corsOrigin,
        allowedHosts: [...boundName, ...options.allowedHosts],
        allowedOrigins: options.allowedOrigins,
        exampleQuestions: options.example,
        requestTimeoutMs: options.timeout,
        allowIndexing: options.allowIndexing === true,
      };
      const announce = (address: string, workers: number) => {
        const what = mode === 'serve' ? `chat page ${address}/, API ${address}/openapi.json, MCP ${address}/mcp` : `MCP ${address}/mcp`;
        const by = workers === 1 ? '' : `; ${workers} worker processes`;
        const holding = stats === undefined ? 'no index yet: agents may index with index_docs' : `${plural(stats.pages, 'page')}, ${plural(stats.chunks, 'passage')}`;
        io.stderr(`citedocs: serving ${engine.config.dbPath} (${holding}): ${what}${by}\n`);
        // The one line on stdout, for scripts: where to send requests. Everything else goes to stderr.
        io.stdout(`${address}\n`);
      };
      if (options.allowIndexing === true && options.workers !== undefined && options.workers > 1) {
        throw new UsageError(`--allow-indexing runs ingest jobs in the serving process, which must be the index's one writer: drop --workers ${options.workers} (or serve a second, read-only server with --workers beside it).`);
      }
      const workers = options.workers ?? (mode === 'serve' && options.allowIndexing !== true ? availableParallelism() : 1);
      if (workers > 1) {
        // Refused here, once, rather than by every worker: a host or origin that does not parse.
        const { createHostCheck } = await import('../http/host-check.js');
        createHostCheck({ allowedHosts: serverOptions.allowedHosts, allowedOrigins: [...serverOptions.allowedOrigins, ...serverOptions.corsOrigins] });
        const { values, dependencies } = kit.configFor(options);
        const { serveWithWorkers } = await import('../http/serve-workers.js');
        // Each worker opens the index itself; this process only supervises them.
        await engine.close();
        await serveWithWorkers({
          workers,
          settings: {
            config: { values: { ...values, dbPath: engine.config.dbPath }, ...(dependencies.configOrigin === undefined ? {} : { configOrigin: dependencies.configOrigin }) },
            server: serverOptions,
            host: options.host,
            port: options.port,
            // Workers log as this process would: request logs are the http stage's, JSON on stderr.
            logging: logLevels(),
          },
          ...(io.signal === undefined ? {} : { signal: io.signal }),
          log: io.stderr,
          onListening: (address) => announce(address, workers),
        });
        return;
      }
      const { createHttpServer } = await import('../http/server.js');
      // Request logs are the http stage's: info by default, silent with --quiet, JSON on stderr.
      const app = await createHttpServer(engine, { ...serverOptions, logger: logger('http') });
      announce(await app.listen({ host: options.host, port: options.port }), 1);
      await new Promise<void>((resolve) => {
        if (io.signal === undefined) return;
        if (io.signal.aborted) resolve();
        io.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await app.close();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') throw new CitedocsError(`Cannot listen on ${options.host}:${options.port} (${code}). Choose another --port.`);
      throw error;
    } finally {
      await engine.close();
    }
  }
}
