/** The CLI's input and output, and what the program hands each group of subcommands it registers. */
import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stderr is a terminal: progress is drawn only there. */
  interactive: boolean;
  /**
   * Aborted when the user interrupts (Ctrl-C): long work stops cleanly and reports, and the run
   * exits with 130. An abort whose reason is `new Interruption('SIGTERM')` is an orderly stop instead.
   */
  signal?: AbortSignal;
}

/** The options every command shares. */
export interface CommonOptions {
  db?: string;
  embedder?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** What `citedocs serve`, `mcp` and `web` take from the program that registers them. */
export interface CommandKit {
  withCommon: (command: Command) => Command;
  withEmbedder: (command: Command) => Command;
  engineFor: (options: { db?: string; config?: string; embedder?: string }) => Engine;
  warn: (code: string, message: string) => void;
}
