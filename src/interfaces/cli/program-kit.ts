import { Option, type Command } from 'commander';
import { EMBEDDER_NAMES_HELP } from '../../embed/create-embedder.js';
import { createEngine } from '../../engine/engine.js';
import type { CliIo, CommonOptions, ProgramKit } from './cli-io.js';
import { readConfigFile } from './config-file.js';
import { indexLocker } from './index-lock.js';
import { type colorsFor, errorJson, EXIT, warningJson } from './output.js';

/** The kit the program hands its subcommands, and the exit code their failures set. */
export function createProgramKit(io: CliIo, json: boolean, colors: ReturnType<typeof colorsFor>): ProgramKit & { exitCode: () => number } {
  let exitCode: number = EXIT.ok;
  const warn = (code: string, message: string) => io.stderr(json ? warningJson(code, message) : `citedocs: ${colors.yellow('warning:')} ${message}\n`);
  const configFor: ProgramKit['configFor'] = (options, dbPath) => {
    const file = readConfigFile(options.config, io.cwd);
    const embed = typeof file.values['embed'] === 'object' && file.values['embed'] !== null ? (file.values['embed'] as Record<string, unknown>) : {};
    return {
      values: {
        ...file.values,
        dbPath: dbPath ?? options.db ?? io.env['CITEDOCS_DB'] ?? (typeof file.values['dbPath'] === 'string' ? file.values['dbPath'] : undefined) ?? './citedocs.db',
        ...(options.embedder === undefined ? {} : { embed: { ...embed, embedder: options.embedder } }),
      },
      dependencies: { env: io.env, ...(file.path === undefined ? {} : { configOrigin: file.path }) },
    };
  };
  const engineFor: ProgramKit['engineFor'] = (options, dbPath) => {
    const { values, dependencies } = configFor(options, dbPath);
    return createEngine(values, dependencies);
  };
  const lockIndex = indexLocker(warn, io.signal);
  return {
    withCommon: (command: Command): Command =>
      command
        .addOption(new Option('--db <path>', 'index file').env('CITEDOCS_DB'))
        .option('--config <path>', 'JSON config file (default: ./citedocs.config.json when present)')
        .option('--json', 'print one JSON object for scripts')
        .option('-q, --quiet', 'no progress output, no logs')
        .option('-v, --verbose', 'debug logs of every stage on stderr, and the stack of an error (CITEDOCS_LOG=crawl=debug,rank=info sets levels per stage)'),
    withEmbedder: (command: Command): Command => command.option('--embedder <name>', `embedder for dense retrieval: ${EMBEDDER_NAMES_HELP} (default: the index's own, or none)`),
    configFor,
    engineFor,
    async withEngine(options, run, lock) {
      const engine = engineFor(options);
      const held = options.lockTimeout === undefined ? undefined : await lockIndex(engine.config.dbPath, options.lockTimeout, lock?.creates ?? false);
      try {
        return await run(engine);
      } finally {
        await engine.close();
        held?.release();
      }
    },
    warn,
    print: (options: CommonOptions, value: unknown, human: string) => io.stdout(`${options.json ? JSON.stringify(value, null, 2) : human}\n`),
    fail(message) {
      if (message !== undefined) io.stderr(json ? errorJson({ name: 'CitedocsError', message, exitCode: EXIT.failure }) : `citedocs: ${colors.red(message)}\n`);
      exitCode = EXIT.failure;
    },
    exitCode: () => exitCode,
  };
}
