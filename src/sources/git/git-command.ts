import { execFile, spawn } from 'node:child_process';
import { CitedocsError, SourceError } from '../../core/errors.js';

/** Where git runs: the repository's git directory (a clone's `.git`, or a bare repository). */
export interface GitContext {
  gitDir: string;
  /** The repository as the user named it, for messages. */
  label: string;
  signal?: AbortSignal;
}

/** A git failure: its exit status and what git printed on stderr, first line first. */
export class GitCommandError extends CitedocsError {
  override readonly name = 'GitCommandError';
  readonly input: string;
  readonly stderr: string;
  constructor(message: string, input: string, stderr: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.input = input;
    this.stderr = stderr;
  }
}

/** Never ask for credentials on a terminal nobody watches; messages in English, whatever the locale. */
const GIT_ENVIRONMENT = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Runs `git ARGS` (with `--git-dir` when a context is given); resolves with its stdout. */
export function runGit(args: readonly string[], context: Pick<GitContext, 'label' | 'signal'> & { gitDir?: string }): Promise<Buffer> {
  const fullArgs = context.gitDir === undefined ? [...args] : [`--git-dir=${context.gitDir}`, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      fullArgs,
      { encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES, env: GIT_ENVIRONMENT, ...(context.signal === undefined ? {} : { signal: context.signal }) },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        reject(gitFailure(error, fullArgs, context.label, stderr.toString('utf8')));
      },
    );
  });
}

function gitFailure(error: Error, args: readonly string[], label: string, stderr: string): CitedocsError {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return new SourceError(`Cannot read ${label}: the git program was not found. Install git (e.g. apt-get install git) and run again.`, label, { cause: error });
  }
  const said = stderr.trim().split('\n')[0] ?? '';
  return new GitCommandError(`git ${args.filter((arg) => !arg.startsWith('--git-dir=')).join(' ')} failed on ${label}${said === '' ? '' : `: ${said}`}`, label, stderr, { cause: error });
}

/**
 * Reads blobs by object id through one `git cat-file --batch` process: one process for a
 * whole docs folder, not one per file.
 */
export function readBlobs(objectIds: readonly string[], context: GitContext): Promise<Map<string, Buffer>> {
  if (objectIds.length === 0) return Promise.resolve(new Map());
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${context.gitDir}`, 'cat-file', '--batch'], { env: GIT_ENVIRONMENT, ...(context.signal === undefined ? {} : { signal: context.signal }) });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', (error) => reject(gitFailure(error, ['cat-file', '--batch'], context.label, Buffer.concat(errors).toString('utf8'))));
    child.on('close', (code) => {
      if (code !== 0) return reject(gitFailure(new Error(`exit status ${String(code)}`), ['cat-file', '--batch'], context.label, Buffer.concat(errors).toString('utf8')));
      try {
        resolve(parseBatchOutput(Buffer.concat(chunks), context.label));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(`${objectIds.join('\n')}\n`);
  });
}

/** `<oid> <type> <size>\n<content>\n` per object, or `<oid> missing\n`. */
export function parseBatchOutput(output: Buffer, label: string): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  let offset = 0;
  while (offset < output.length) {
    const lineEnd = output.indexOf(0x0a, offset);
    if (lineEnd < 0) break;
    const header = output.subarray(offset, lineEnd).toString('utf8').split(' ');
    offset = lineEnd + 1;
    const [objectId = '', type, size] = header;
    if (type === 'missing' || size === undefined) throw new SourceError(`Cannot read object ${objectId} of ${label}: git says it is missing (a shallow or partial clone?).`, label);
    const length = Number(size);
    blobs.set(objectId, output.subarray(offset, offset + length));
    offset += length + 1;
  }
  return blobs;
}
