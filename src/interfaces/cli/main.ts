import { Command, CommanderError } from 'commander';
import { PACKAGE_VERSION } from '../../core/package-info.js';
import { redactPasswords } from '../../core/redact.js';
import { colorsFor, describeFailure, errorJson, EXIT, interruptedByUser, wantsJson } from './output.js';
import { configureCliLogging } from './logging.js';
import { createProgramKit } from './program-kit.js';
import { registerIngestCommand } from './ingest-command.js';
import { registerQueryCommands } from './query-commands.js';
import { registerIndexCommands } from './index-commands.js';
import { registerServeCommands } from './serve-commands.js';
import { registerWebCommand } from './web-command.js';
import { registerMigrateCommand } from './migrate-command.js';
import { registerCatalogCommands } from './catalog-commands.js';
import type { CliIo } from './cli-io.js';

export type { CliIo, CommonOptions } from './cli-io.js';

/**
 * Runs the CLI; returns the exit code: 0 success, 2 usage error, 130 interrupted (Ctrl-C), 1 any
 * other failure. With --json, stdout holds only the result and every error or warning is one JSON
 * line on stderr.
 */
export async function runCli(argv: readonly string[], cliIo: CliIo): Promise<number> {
  // Whatever reaches stderr (errors, warnings, logs, the serve banner) never shows a --db URL's password.
  const io: CliIo = { ...cliIo, stderr: (text) => cliIo.stderr(redactPasswords(text)) };
  const json = wantsJson(argv);
  const colors = colorsFor(io);
  const program = new Command('citedocs')
    .description('Answers questions from documentation with passages that fit a token budget and links that exist.')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version of citedocs')
    // `citedocs --version` prints citedocs' version; after a command, --version is that command's (ingest, search, ask, eval: a library's version).
    .enablePositionalOptions()
    .exitOverride()
    // With --json, commander's own messages give way to the JSON error printed below.
    .configureOutput({
      writeOut: io.stdout,
      writeErr: (text) => (json ? undefined : io.stderr(text)),
      outputError: (text, write) => (json ? undefined : write(colors.red(text))),
    })
    .showHelpAfterError('(run citedocs --help for usage)');

  const kit = createProgramKit(io, json, colors);
  registerIngestCommand(program, io, kit);
  registerQueryCommands(program, io, kit);
  registerIndexCommands(program, io, kit);
  registerServeCommands(program, io, kit);
  registerCatalogCommands(program, io, kit);
  registerWebCommand(program, io, kit);
  registerMigrateCommand(program, io, kit.withCommon);

  const interrupted = () => {
    io.stderr(json ? errorJson({ name: 'Interruption', message: 'Interrupted (Ctrl-C).', exitCode: EXIT.interrupted }) : `citedocs: ${colors.yellow('interrupted')} (Ctrl-C).\n`);
    return EXIT.interrupted;
  };
  try {
    configureCliLogging(argv, io, json, colors);
    await program.parseAsync([...argv], { from: 'user' });
    return interruptedByUser(io.signal) ? interrupted() : kit.exitCode();
  } catch (error) {
    // Whatever failed because of the interruption (an aborted fetch, an LLM call) is the interruption.
    if (!(error instanceof CommanderError) && interruptedByUser(io.signal)) return interrupted();
    return reportFailure(error, io, json, colors, argv.includes('--verbose') || argv.includes('-v'));
  }
}

/** Says what failed on stderr (one JSON line with --json), and returns the exit code it means. */
function reportFailure(error: unknown, io: CliIo, json: boolean, colors: ReturnType<typeof colorsFor>, verbose: boolean): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT.ok;
    if (json) io.stderr(errorJson({ name: 'UsageError', message: error.message.replace(/^error: /, ''), exitCode: EXIT.usage }));
    return EXIT.usage;
  }
  const { bug, stack, ...report } = describeFailure(error);
  if (json) {
    // A bug keeps its stack, as in the text output; an error the user can act on shows it with --verbose.
    io.stderr(errorJson((bug || verbose) && stack !== undefined ? { ...report, stack } : report));
  } else if (!bug) {
    io.stderr(`citedocs: ${colors.red(report.message)}\n`);
    if (verbose && stack !== undefined) io.stderr(`${stack}\n`);
  } else {
    io.stderr(`citedocs: ${colors.red('unexpected error (a bug; please report it with the command you ran):')}\n${stack ?? report.message}\n`);
  }
  return report.exitCode;
}
