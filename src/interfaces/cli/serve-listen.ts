import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { CitedocsError, UsageError } from '../../core/errors.js';
import { logger, logLevels } from '../../core/log.js';
import { plural } from '../../core/plural.js';
import type { Engine, IndexStats } from '../../engine/engine.js';
import type { CliIo, CommandKit, ProgramKit } from './cli-io.js';

export interface ServeFlags {
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
export type ServeKit = CommandKit & Pick<ProgramKit, 'configFor'>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Serves the index over HTTP (`serve`: API, chat page and MCP; `mcp --port`: MCP alone), in this
 * process or in worker processes sharing the port, until the signal stops it. The address goes to
 * stdout, the one line there; everything else to stderr.
 */
export async function listen(options: ServeFlags, mode: 'serve' | 'mcp', io: CliIo, kit: ServeKit): Promise<void> {
  const engine = kit.engineFor(options);
  try {
    // A missing or unreadable index is refused now, not at the first request; a server that may index starts on an empty one.
    const stats = options.allowIndexing === true && !existsSync(engine.config.dbPath) ? undefined : await engine.stats();
    const serverOptions = serverOptionsOf(options, io, kit);
    const announce = announcer(io, engine.config.dbPath, stats, mode);
    if (options.allowIndexing === true && options.workers !== undefined && options.workers > 1) {
      throw new UsageError(`--allow-indexing runs ingest jobs in the serving process, which must be the index's one writer: drop --workers ${options.workers} (or serve a second, read-only server with --workers beside it).`);
    }
    const workers = options.workers ?? (mode === 'serve' && options.allowIndexing !== true ? availableParallelism() : 1);
    if (workers > 1) await serveInWorkers(workers, engine, serverOptions, options, io, kit, announce);
    else await serveHere(engine, serverOptions, options, io, announce);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new CitedocsError(`Cannot listen on ${options.host}:${options.port} (${code}). Choose another --port.`);
    throw error;
  } finally {
    await engine.close();
  }
}

type ServerOptions = ReturnType<typeof serverOptionsOf>;
type Announce = (address: string, workers: number) => void;

/** The server's options from the flags: its API keys (flags and CITEDOCS_API_KEYS), the hosts and origins it answers. */
function serverOptionsOf(options: ServeFlags, io: CliIo, kit: ServeKit) {
  const apiKeys = [...options.apiKey, ...(io.env['CITEDOCS_API_KEYS'] ?? '').split(',').map((key) => key.trim()).filter(Boolean)];
  if (!LOOPBACK.has(options.host) && apiKeys.length === 0) {
    kit.warn('open-server', `listening on ${options.host} without --api-key: anyone who can reach this machine can query the index.`);
  }
  // The name it is bound to is one it answers to; a wildcard address names none.
  const boundName = isIP(options.host) === 0 && !LOOPBACK.has(options.host) ? [options.host] : [];
  return {
    apiKeys,
    corsOrigins: options.corsOrigin,
    allowedHosts: [...boundName, ...options.allowedHosts],
    allowedOrigins: options.allowedOrigins,
    exampleQuestions: options.example,
    requestTimeoutMs: options.timeout,
    allowIndexing: options.allowIndexing === true,
  };
}

/** Says once where the server listens: what it serves on stderr, its address alone on stdout (for scripts). */
function announcer(io: CliIo, dbPath: string, stats: IndexStats | undefined, mode: 'serve' | 'mcp'): Announce {
  return (address, workers) => {
    const what = mode === 'serve' ? `chat page ${address}/, API ${address}/openapi.json, MCP ${address}/mcp` : `MCP ${address}/mcp`;
    const by = workers === 1 ? '' : `; ${workers} worker processes`;
    const holding = stats === undefined ? 'no index yet: agents may index with index_docs' : `${plural(stats.pages, 'page')}, ${plural(stats.chunks, 'passage')}`;
    io.stderr(`citedocs: serving ${dbPath} (${holding}): ${what}${by}\n`);
    // The one line on stdout, for scripts: where to send requests. Everything else goes to stderr.
    io.stdout(`${address}\n`);
  };
}

/** Worker processes share the port; each opens the index itself, and this process only supervises them. */
async function serveInWorkers(workers: number, engine: Engine, serverOptions: ServerOptions, options: ServeFlags, io: CliIo, kit: ServeKit, announce: Announce): Promise<void> {
  // Refused here, once, rather than by every worker: a host or origin that does not parse.
  const { createHostCheck } = await import('../http/host-check.js');
  createHostCheck({ allowedHosts: serverOptions.allowedHosts, allowedOrigins: [...serverOptions.allowedOrigins, ...serverOptions.corsOrigins] });
  const { values, dependencies } = kit.configFor(options);
  const { serveWithWorkers } = await import('../http/serve-workers.js');
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
}

/** This process serves, until the signal aborts. */
async function serveHere(engine: Engine, serverOptions: ServerOptions, options: ServeFlags, io: CliIo, announce: Announce): Promise<void> {
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
}
