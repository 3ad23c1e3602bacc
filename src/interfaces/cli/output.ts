import { CitedocsError } from '../../core/errors.js';

/** Exit codes: the shell's own convention for Ctrl-C is 128 + SIGINT (2). */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** The abort reason `citedocs` gives its signal: which signal stopped the run. */
export class Interruption extends Error {
  override readonly name = 'Interruption';
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(signal === 'SIGINT' ? 'Interrupted (Ctrl-C).' : 'Stopped (SIGTERM).');
  }
}

/**
 * Whether a run whose signal is aborted counts as interrupted by the user (exit 130): Ctrl-C, or
 * any abort of an embedding caller's own signal. SIGTERM is a service manager's orderly stop.
 */
export function interruptedByUser(signal: AbortSignal | undefined): boolean {
  if (signal?.aborted !== true) return false;
  return !(signal.reason instanceof Interruption && signal.reason.signal === 'SIGTERM');
}

/** `--json`, or `--format json` (web): errors and warnings on stderr become JSON too. */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some((argument, index) => argument === '--json' || argument === '--format=json' || (argument === '--format' && argv[index + 1] === 'json'));
}

/** Colour on stderr only on a terminal, and never with NO_COLOR set to anything (https://no-color.org). */
export function colorsFor(io: { interactive: boolean; env: Record<string, string | undefined> }) {
  const enabled = io.interactive && (io.env['NO_COLOR'] ?? '') === '' && io.env['TERM'] !== 'dumb';
  const paint = (open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { enabled, red: paint(31, 39), yellow: paint(33, 39), dim: paint(2, 22), bold: paint(1, 22) };
}

export interface ErrorReport {
  name: string;
  message: string;
  exitCode: number;
  stack?: string;
}

/** The JSON line `--json` prints on stderr for an error: `{"error":{"name","message","exitCode"}}`. */
export function errorJson(report: ErrorReport): string {
  return `${JSON.stringify({ error: report })}\n`;
}

/** The JSON line `--json` prints on stderr for a warning: `{"warning":{"code","message"}}`. */
export function warningJson(code: string, message: string): string {
  return `${JSON.stringify({ warning: { code, message } })}\n`;
}

/** What a thrown value becomes for the user: its exit code, and whether it is a bug (kept with its stack). */
export function describeFailure(error: unknown): ErrorReport & { bug: boolean } {
  if (error instanceof CitedocsError) return { name: error.name, message: error.message, exitCode: error.exitCode, bug: false, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  const known = error instanceof Error;
  return {
    name: known ? error.name : 'Error',
    message: known ? error.message : String(error),
    exitCode: EXIT.failure,
    bug: true,
    ...(known && error.stack !== undefined ? { stack: error.stack } : {}),
  };
}
