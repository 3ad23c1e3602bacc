import { runCli } from './main.js';
import { EXIT, Interruption, wantsJson } from './output.js';

/**
 * The `citedocs` process: real stdio. Ctrl-C stops long work cleanly (what is stored stays, the
 * rest resumes next run) and exits 130; a second Ctrl-C quits at once.
 */
export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    // With --json, stderr carries JSON only: the run ends with a JSON error saying it was interrupted.
    if (!wantsJson(argv)) process.stderr.write('\nStopping after the work in flight (Ctrl-C again to quit now)…\n');
    controller.abort(new Interruption('SIGINT'));
  });
  // A service manager stops `citedocs serve` with SIGTERM: close the server and the index cleanly.
  process.on('SIGTERM', () => controller.abort(new Interruption('SIGTERM')));
  process.exitCode = await runCli(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    interactive: process.stderr.isTTY === true,
    signal: controller.signal,
  });
}

await main();
