import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The repository's root: `citedocs` runs from its sources there (tsx), as in development. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:PORT`, as the server printed it. */
  base: string;
  /** Everything the process wrote so far. */
  output: { stdout: string; stderr: string };
  /** Settles with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * `citedocs serve --port 0 ARGS` as its own process on 127.0.0.1; resolves once stdout has its
 * address line (the one line serve prints there). Rejects when the process exits first, or
 * prints no address within `timeoutMs`.
 */
export async function startServeProcess(args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
  const timeoutMs = options.timeoutMs ?? 40_000;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/interfaces/cli/bin.ts', 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], ...(options.env === undefined ? {} : { env: options.env }) });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = { stdout: '', stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`citedocs serve printed no address in ${timeoutMs / 1000} s: ${output.stderr}`)), timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`citedocs serve exited (${code}): ${output.stderr}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output.stdout += chunk.toString();
      const match = /^(http:\/\/127\.0\.0\.1:\d+)\n/.exec(output.stdout);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    child,
    base,
    output,
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return await exited;
    },
  };
}

/**
 * One HTTP request as sent, on a connection of its own (a cluster hands each to a worker
 * afresh), with any Host or Origin header (fetch would not send a Host of our choosing).
 */
export function sendRequest(base: string, method: 'GET' | 'POST', path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string }> {
  const { body, headers = {} } = options;
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${base}${path}`, { method, agent: false, headers: { connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.on('error', reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
