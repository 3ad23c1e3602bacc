import cluster, { type Worker } from 'node:cluster';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CitedocsConfigInput } from '../../core/config.js';
import type { LogLevels } from '../../core/log.js';
import { CitedocsError } from '../../core/errors.js';
import type { HttpServerOptions } from './server.js';

/**
 * What a worker process needs to serve: plain JSON, sent to it over the cluster's IPC channel.
 * The primary has already validated all of it (the index opens, the host and origin lists parse).
 */
export interface WorkerSettings {
  config: { values: CitedocsConfigInput; configOrigin?: string };
  server: Omit<HttpServerOptions, 'logStream' | 'logger'>;
  host: string;
  port: number;
  /** The primary's log levels (--quiet, --verbose, CITEDOCS_LOG): a worker logs as it would, JSON lines on its stderr. */
  logging: LogLevels;
}

/** Messages between the primary and a worker. */
export type ToWorker = { type: 'start'; settings: WorkerSettings } | { type: 'stop' };
export type FromWorker = { type: 'ready' } | { type: 'listening'; address: string } | { type: 'failed'; code?: string; message: string };

export interface ServeWorkersOptions {
  workers: number;
  settings: WorkerSettings;
  /** Aborted to stop: every worker finishes its requests in flight, closes its index and exits. */
  signal?: AbortSignal;
  /** Where the primary reports a worker that died and its replacement. */
  log: (line: string) => void;
  /** Called once, when every first worker listens, with the address they share. */
  onListening: (address: string) => void;
  /** A worker that dies is replaced at most this many times within `restartWindowMs`; then serving stops. */
  maxRestarts?: number;
  restartWindowMs?: number;
  /** A worker still running this long after it was asked to stop is killed. */
  stopTimeoutMs?: number;
}

export const SERVE_WORKER_DEFAULTS = { maxRestarts: 5, restartWindowMs: 60_000, stopTimeoutMs: 70_000 } as const;

/** The worker's entry module beside this one: `.ts` when run from source (tsx), `.js` when built. */
function workerModule(): string {
  const here = fileURLToPath(import.meta.url);
  return fileURLToPath(new URL(`./serve-worker${extname(here)}`, import.meta.url));
}

function isFromWorker(message: unknown): message is FromWorker {
  const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  return type === 'ready' || type === 'listening' || type === 'failed';
}

/**
 * Serves with `workers` processes (node:cluster) sharing one listening socket and one index
 * file, each with its own read connection: the primary only supervises. Resolves once every
 * worker has exited after `signal` aborts; rejects when the first workers cannot listen (the
 * port is taken) or when workers keep dying (more than `maxRestarts` within `restartWindowMs`).
 */
export async function serveWithWorkers(options: ServeWorkersOptions): Promise<void> {
  const maxRestarts = options.maxRestarts ?? SERVE_WORKER_DEFAULTS.maxRestarts;
  const restartWindowMs = options.restartWindowMs ?? SERVE_WORKER_DEFAULTS.restartWindowMs;
  const stopTimeoutMs = options.stopTimeoutMs ?? SERVE_WORKER_DEFAULTS.stopTimeoutMs;
  cluster.setupPrimary({ exec: workerModule(), execArgv: process.execArgv, silent: false });
  const running = new Set<Worker>();
  const listeningWorkers = new Set<Worker>();
  const restarts: number[] = [];
  let stopping = false;
  let listening = false;

  return new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    const stopAll = (error?: Error) => {
      failure ??= error;
      if (stopping) return;
      stopping = true;
      for (const worker of running) {
        if (worker.isConnected()) worker.send({ type: 'stop' } satisfies ToWorker);
        // The worker closes its server (requests in flight finish, up to their timeout) and its index.
        setTimeout(() => worker.process.kill('SIGKILL'), stopTimeoutMs).unref();
      }
      if (running.size === 0) finish();
    };
    const finish = () => {
      options.signal?.removeEventListener('abort', onAbort);
      if (failure === undefined) resolve();
      else reject(failure);
    };
    const onAbort = () => stopAll();

    const start = () => {
      const worker = cluster.fork();
      running.add(worker);
      let workerListening = false;
      // A message to a worker that just died fails with an 'error' event: its 'exit' follows, and is handled there.
      worker.on('error', () => undefined);
      worker.on('message', (message: unknown) => {
        if (!isFromWorker(message)) return;
        // A message sent before the worker's module has loaded would be lost: it asks when it can hear.
        if (message.type === 'ready') {
          const reply: ToWorker = stopping ? { type: 'stop' } : { type: 'start', settings: options.settings };
          worker.send(reply);
          return;
        }
        if (message.type === 'failed') {
          const reason = message.code === 'EADDRINUSE' || message.code === 'EACCES' ? `Cannot listen on ${options.settings.host}:${options.settings.port} (${message.code}). Choose another --port.` : `A worker could not start: ${message.message}`;
          stopAll(new CitedocsError(reason));
          return;
        }
        workerListening = true;
        listeningWorkers.add(worker);
        // The address is announced once, when the first workers all serve; a replacement joins silently.
        if (!listening && listeningWorkers.size >= options.workers) {
          listening = true;
          options.onListening(message.address);
        }
      });
      worker.once('exit', (code, signal) => {
        running.delete(worker);
        listeningWorkers.delete(worker);
        if (stopping) {
          if (running.size === 0) finish();
          return;
        }
        const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
        if (!workerListening && !listening) {
          stopAll(new CitedocsError(`A worker exited before it could serve (${how}); see the error above.`));
          return;
        }
        const now = Date.now();
        while (restarts[0] !== undefined && restarts[0] <= now - restartWindowMs) restarts.shift();
        if (restarts.length >= maxRestarts) {
          options.log(`citedocs: worker ${worker.process.pid ?? '?'} died (${how}); ${maxRestarts} restarts in ${restartWindowMs / 1000} s already, so serving stops.\n`);
          stopAll(new CitedocsError(`Workers keep dying (${maxRestarts + 1} in ${restartWindowMs / 1000} s); see their errors above. Try --workers 1 to see the failure in one process.`));
          return;
        }
        restarts.push(now);
        options.log(`citedocs: worker ${worker.process.pid ?? '?'} died (${how}); starting another (restart ${restarts.length} of at most ${maxRestarts} in ${restartWindowMs / 1000} s).\n`);
        start();
      });
    };

    if (options.signal?.aborted === true) {
      resolve();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    for (let index = 0; index < options.workers; index += 1) start();
  });
}
