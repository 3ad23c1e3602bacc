import { runCli } from './main.js';

/** The `citedocs` process: real stdio, Ctrl-C stops long work cleanly, a second Ctrl-C quits. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nStopping after the pages in flight (Ctrl-C again to quit now)…\n');
    controller.abort();
  });
  // A service manager stops `citedocs serve` with SIGTERM: close the server and the index cleanly.
  process.on('SIGTERM', () => controller.abort());
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    interactive: process.stderr.isTTY === true,
    signal: controller.signal,
  });
}

await main();
