import { runCli } from '../interfaces/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process with captured output, as a script would see it (no terminal). */
export async function runCliCaptured(argv: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: options.env ?? {},
    cwd: options.cwd,
    interactive: false,
  });
  return { code, stdout, stderr };
}
