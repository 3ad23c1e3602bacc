import { type LevelWithSilent, type Logger, pino } from 'pino';
import { UsageError } from './errors.js';
import { redactPasswords } from './redact.js';
import { isStage, STAGES, type Stage } from './stages.js';

export type { Logger } from 'pino';
export type LogLevel = LevelWithSilent;
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** A level for every stage: `level`, unless `stages` names another for it. */
export interface LogLevels {
  level: LogLevel;
  stages: Partial<Record<Stage, LogLevel>>;
}

export interface LogSettings extends LogLevels {
  /** `json`: one pino JSON object a line (servers, scripts); `text`: one readable line (a person at a terminal). */
  format: 'json' | 'text';
  /** Where each line goes (always stderr in the CLI and servers: stdout holds results). */
  write: (line: string) => void;
  /** Text format only: paints the level name (the CLI's colours, off with NO_COLOR). */
  paint?: (level: LogLevel, text: string) => string;
}

/**
 * One logger for the process, with a child per stage: `logger('crawl').debug({ url }, 'fetched')`.
 * Silent until an interface (the CLI, a server) calls `configureLogging`, so a library user's
 * process gets no output it did not ask for. Children are made on first use and remade when the
 * settings change, so a module may ask for its stage's logger at call time, never keep it.
 */
let root: Logger = pino({ level: 'silent' });
let levels: LogLevels = { level: 'silent', stages: {} };
const children = new Map<Stage, Logger>();

export function configureLogging(settings: LogSettings): void {
  // A log line never shows a password (of a --db URL quoted in a message or a field).
  const write = settings.format === 'json' ? (line: string) => settings.write(redactPasswords(line)) : textWriter((line) => settings.write(redactPasswords(line)), settings.paint);
  // The root logs nothing itself; each stage's child has its own level.
  // Request logs (the http stage) never show a client's credentials.
  root = pino({ level: 'silent', redact: ['req.headers.authorization'], ...(settings.format === 'text' ? { base: null, timestamp: false } : {}) }, { write });
  levels = { level: settings.level, stages: { ...settings.stages } };
  children.clear();
}

/** The levels set now: what a worker process is given to log as its parent does. */
export function logLevels(): LogLevels {
  return { level: levels.level, stages: { ...levels.stages } };
}

/** The logger of one stage, at its configured level. */
export function logger(stage: Stage): Logger {
  let child = children.get(stage);
  if (child === undefined) {
    child = root.child({ stage }, { level: levels.stages[stage] ?? levels.level });
    children.set(stage, child);
  }
  return child;
}

/** Milliseconds since `start` (a `performance.now()`), rounded to 0.1 ms: the `ms` field of timed log lines. */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/**
 * Reads a log specification as `CITEDOCS_LOG` takes it: a default level and/or `stage=level`
 * pairs, separated by commas (`debug`, `crawl=debug,rank=info`, `warn,retrieve=debug`).
 * A wrong stage or level is a usage error that names it and lists the right ones.
 */
export function parseLogSpec(spec: string, origin = 'CITEDOCS_LOG'): Partial<LogLevels> & { stages: Partial<Record<Stage, LogLevel>> } {
  const result: Partial<LogLevels> & { stages: Partial<Record<Stage, LogLevel>> } = { stages: {} };
  for (const part of spec.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')) {
    const [name, value, extra] = part.split('=').map((entry) => entry.trim().toLowerCase());
    if (extra !== undefined) throw new UsageError(`${origin} has "${part}": write stage=level, like crawl=debug.`);
    if (value === undefined) {
      result.level = levelNamed(name ?? '', part, origin);
      continue;
    }
    if (name === undefined || !isStage(name)) throw new UsageError(`${origin} names the stage "${name ?? ''}" in "${part}": the stages are ${STAGES.join(', ')}.`);
    result.stages[name] = levelNamed(value, part, origin);
  }
  return result;
}

function levelNamed(name: string, part: string, origin: string): LogLevel {
  if (name === 'warning') return 'warn';
  if ((LOG_LEVELS as readonly string[]).includes(name)) return name as LogLevel;
  throw new UsageError(`${origin} has the level "${name}" in "${part}": the levels are ${LOG_LEVELS.join(', ')}.`);
}

const LEVEL_NAMES: Record<number, LogLevel> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Fields of pino's JSON that the text line shows otherwise (or not at all). */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'stage', 'msg']);

/** pino's JSON line as a person reads it: `citedocs: debug [crawl] fetched https://… status=200 ms=12`. */
function textWriter(write: (line: string) => void, paint: LogSettings['paint'] = (_level, text) => text) {
  return (line: string) => {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      write(line);
      return;
    }
    const level = LEVEL_NAMES[typeof record['level'] === 'number' ? record['level'] : 30] ?? 'info';
    const stage = typeof record['stage'] === 'string' ? ` [${record['stage']}]` : '';
    const fields = Object.entries(record)
      .filter(([key]) => !SHOWN_APART.has(key))
      .map(([key, value]) => ` ${key}=${typeof value === 'string' && !/[\s"=]/.test(value) ? value : JSON.stringify(value)}`)
      .join('');
    write(`citedocs: ${paint(level, level)}${stage} ${String(record['msg'] ?? '')}${fields}\n`);
  };
}
