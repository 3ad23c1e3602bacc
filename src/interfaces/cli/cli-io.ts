/** The CLI's input and output, and what the program hands each group of subcommands it registers. */
import type { Command } from 'commander';
import type { CitedocsConfigInput } from '../../core/config.js';
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
  /**
   * Runs a command's work on an engine of its options, closed when it ends. With `lockTimeout`
   * (the commands that write), first waits until no other process writes the index (`creates`:
   * the command may create it); the lock is released after the engine is closed.
   */
  withEngine: <T>(options: { db?: string; config?: string; embedder?: string; lockTimeout?: number }, run: (engine: Engine) => Promise<T>, lock?: { creates: boolean }) => Promise<T>;
  warn: (code: string, message: string) => void;
}

/** What every subcommand takes from the program: the common kit, its output and its exit code. */
export interface ProgramKit extends CommandKit {
  /** The configuration of a command's options (--config, --db, --embedder, the environment), for an engine built elsewhere (serve's workers). */
  configFor: (options: { db?: string; config?: string; embedder?: string }, dbPath?: string) => { values: CitedocsConfigInput; dependencies: { env: Record<string, string | undefined>; configOrigin?: string } };
  engineFor: (options: { db?: string; config?: string; embedder?: string }, dbPath?: string) => Engine;
  /** The result on stdout: JSON with --json, else the human text. */
  print: (options: CommonOptions, json: unknown, human: string) => void;
  /** A failure the command reports itself (its result may still be printed): exit code 1. Without a message, the output already said why. */
  fail: (message?: string) => void;
}
