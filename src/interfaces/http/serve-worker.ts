/**
 * One worker process of `citedocs serve --workers N` (started by serveWithWorkers through
 * node:cluster): it waits for its settings from the primary, opens the index read-only, serves
 * HTTP on the socket the workers share, and closes cleanly when the primary says stop or goes away.
 */
import { configureLogging, logger } from '../../core/log.js';
import { createEngine } from '../../engine/engine.js';
import { createHttpServer } from './server.js';
import type { FromWorker, ToWorker } from './serve-workers.js';

const report = (message: FromWorker) => {
  if (process.connected) process.send?.(message);
};

// Ctrl-C reaches every process of the terminal's group, and a service manager may signal them
// all: the primary alone decides when workers stop, so a worker never stops half the server.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

let stop: (() => Promise<void>) | undefined;
let stopping = false;
const stopOnce = async () => {
  if (stopping) return;
  stopping = true;
  await stop?.();
  process.exit(0);
};

process.on('message', (message: ToWorker) => {
  if (message.type === 'stop') void stopOnce();
  if (message.type !== 'start') return;
  const { config, server, host, port, logging } = message.settings;
  configureLogging({ ...logging, format: 'json', write: (line) => process.stderr.write(line) });
  const engine = createEngine(config.values, { env: process.env, ...(config.configOrigin === undefined ? {} : { configOrigin: config.configOrigin }) });
  void (async () => {
    try {
      const app = await createHttpServer(engine, { ...server, logger: logger('http') });
      stop = async () => {
        await app.close();
        await engine.close();
      };
      const address = await app.listen({ host, port });
      report({ type: 'listening', address });
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      report({ type: 'failed', ...(failure.code === undefined ? {} : { code: failure.code }), message: failure.message });
      await engine.close();
      process.exit(1);
    }
  })();
});
report({ type: 'ready' });
// The primary died (kill -9): nobody will say stop, and nobody would restart this worker.
process.on('disconnect', () => void stopOnce());
