import { configureLogging, type LogLevel, parseLogSpec } from '../../core/log.js';
import type { colorsFor } from './output.js';

/** The commands that run as servers: their logs are JSON, and requests are logged (info) by default. */
const SERVER_COMMANDS = new Set(['serve', 'mcp']);

/**
 * Sets the process's logging for one CLI run, always on stderr (stdout holds results):
 * - the level of every stage: `--quiet` silent, `--verbose` debug, else `CITEDOCS_LOG`'s default
 *   level, else info for the servers and error for other commands (their warnings are printed
 *   as part of their output already);
 * - `CITEDOCS_LOG`'s `stage=level` pairs on top (`crawl=debug,rank=info`), except under --quiet;
 * - JSON lines for the servers, for --json and when stderr is not a terminal; otherwise one
 *   readable line each.
 * A wrong CITEDOCS_LOG is a usage error naming it.
 */
export function configureCliLogging(argv: readonly string[], io: { env: Record<string, string | undefined>; interactive: boolean; stderr: (text: string) => void }, json: boolean, colors: ReturnType<typeof colorsFor>): void {
  const command = argv.find((argument) => !argument.startsWith('-'));
  const server = command !== undefined && SERVER_COMMANDS.has(command);
  const quiet = argv.includes('--quiet') || argv.includes('-q');
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const spec = parseLogSpec(io.env['CITEDOCS_LOG'] ?? '');
  const level: LogLevel = quiet ? 'silent' : verbose ? 'debug' : (spec.level ?? (server ? 'info' : 'error'));
  const paint = (name: LogLevel, text: string) => (name === 'warn' ? colors.yellow(text) : name === 'error' || name === 'fatal' ? colors.red(text) : name === 'info' ? text : colors.dim(text));
  configureLogging({ level, stages: quiet ? {} : spec.stages, format: server || json || !io.interactive ? 'json' : 'text', write: io.stderr, paint });
}
