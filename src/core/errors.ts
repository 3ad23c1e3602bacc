import { redactPasswords } from './redact.js';

/**
 * Errors a user can act on. `message` is one sentence naming the input and the fix; the CLI
 * prints it without a stack. Anything that is not a CitedocsError is a bug and keeps its stack.
 */
export class CitedocsError extends Error {
  override readonly name: string = 'CitedocsError';
  /** Usage errors (bad flags or arguments) exit with 2, everything else with 1. */
  readonly exitCode: 1 | 2;

  constructor(message: string, options: { cause?: unknown; exitCode?: 1 | 2 } = {}) {
    // A message may quote the --db URL: it never shows its password, whoever prints it.
    super(redactPasswords(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
  }
}

export class UsageError extends CitedocsError {
  override readonly name = 'UsageError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 2 });
  }
}

export class ConfigError extends CitedocsError {
  override readonly name = 'ConfigError';
}

export class SourceError extends CitedocsError {
  override readonly name = 'SourceError';
  readonly input: string;
  constructor(message: string, input: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.input = input;
  }
}

export class StoreError extends CitedocsError {
  override readonly name: string = 'StoreError';
  readonly path: string;
  constructor(message: string, path: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.path = redactPasswords(path);
  }
}

/**
 * The disk holding the index is full. The write in progress was rolled back; everything
 * written before it is kept, and the same ingest run again continues.
 */
export class StoreFullError extends StoreError {
  override readonly name = 'StoreFullError';
}

/** A short human description of an unknown thrown value, following `cause` chains of fetch errors. */
export function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      return code === undefined ? cause.message : `${code}: ${cause.message}`;
    }
    return error.message;
  }
  return String(error);
}
