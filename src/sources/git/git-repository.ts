import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SourceError, UsageError } from '../../core/errors.js';
import { GitCommandError, type GitContext, readBlobs, runGit } from './git-command.js';

/** A repository ready to read: local as it is, or a bare clone in a temporary folder. */
export interface GitRepository extends GitContext {
  /** The absolute path of a local repository, or the URL it was cloned from. */
  location: string;
  /** Whether `location` is a URL (the repository was cloned). */
  remote: boolean;
  /** Removes the temporary clone, if one was made. */
  close(): Promise<void>;
}

/** One file of a docs folder at a tag: its path inside the folder and its blob. */
export interface GitDocument {
  path: string;
  objectId: string;
}

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|[\w.-]+@[\w.-]+:)/i;

/**
 * Opens a local repository (a clone or a bare one) as it is, or clones a remote one (bare, all
 * tags, no checkout) into a temporary folder that `close` removes.
 */
export async function openGitRepository(input: string, signal?: AbortSignal): Promise<GitRepository> {
  const context = { label: input, ...(signal === undefined ? {} : { signal }) };
  if (existsSync(input)) {
    const location = resolve(input);
    let gitDir: string;
    try {
      gitDir = (await runGit(['-C', location, 'rev-parse', '--absolute-git-dir'], context)).toString('utf8').trim();
    } catch (error) {
      if (!(error instanceof GitCommandError)) throw error;
      throw new UsageError(`Cannot ingest --git ${input}: it is not a git repository (git says: ${error.stderr.trim().split('\n')[0] ?? ''}). Give the path of a clone, or a repository URL.`, { cause: error });
    }
    return { gitDir, label: input, location, remote: false, close: () => Promise.resolve(), ...(signal === undefined ? {} : { signal }) };
  }
  if (!REMOTE.test(input)) {
    throw new UsageError(`Cannot ingest --git ${input}: it is neither an existing folder nor a repository URL. Give the path of a clone, or a URL like https://github.com/owner/project.git.`);
  }
  const folder = await mkdtemp(join(tmpdir(), 'citedocs-git-'));
  const gitDir = join(folder, 'repository.git');
  try {
    await runGit(['clone', '--bare', '--quiet', '--', input, gitDir], context);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error instanceof GitCommandError ? new SourceError(`Cannot clone ${input}: ${error.stderr.trim().split('\n')[0] ?? error.message}`, input, { cause: error }) : error;
  }
  return { gitDir, label: input, location: input, remote: true, close: () => rm(folder, { recursive: true, force: true }), ...(signal === undefined ? {} : { signal }) };
}

/**
 * The tags matching any of the glob patterns (git's own matching, as `git tag -l`), lowest
 * version first. No pattern matching is an error that lists the tags there are.
 */
export async function matchingTags(repository: GitRepository, patterns: readonly string[]): Promise<string[]> {
  const list = async (globs: readonly string[]) =>
    (await runGit(['tag', '--list', '--sort=version:refname', ...globs], repository)).toString('utf8').split('\n').filter((tag) => tag !== '');
  const tags = await list(patterns);
  if (tags.length > 0) return tags;
  const all = await list([]);
  const shown = all.length > 20 ? [...all.slice(0, 10), '…', ...all.slice(-10)] : all;
  throw new UsageError(
    all.length === 0
      ? `${repository.label} has no tags, so --tags ${patterns.join(' ')} matches nothing. Tag the versions (git tag v1.0), or leave --tags out to read the current commit.`
      : `No tag of ${repository.label} matches --tags ${patterns.map((pattern) => `'${pattern}'`).join(' ')}. Its tags: ${shown.join(', ')}.`,
  );
}

/** The commit HEAD names, for a run without --tags. */
export async function headCommit(repository: GitRepository): Promise<string> {
  try {
    return (await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], repository)).toString('utf8').trim();
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    throw new UsageError(`${repository.label} has no commit at HEAD yet. Commit the docs, or choose tags with --tags 'v*'.`, { cause: error });
  }
}

/**
 * The files under `docsPath` at `revision` (a tag or commit), paths relative to that folder,
 * read from git objects (no checkout). A missing folder is an error naming the folders there are.
 */
export async function listDocsFolder(repository: GitRepository, revision: string, docsPath: string, displayRevision: string): Promise<GitDocument[]> {
  const folder = normaliseDocsPath(docsPath);
  const treeish = `${revision}^{tree}`;
  const target = folder === '' ? treeish : `${revision}:${folder}`;
  let type: string;
  try {
    type = (await runGit(['cat-file', '-t', target], repository)).toString('utf8').trim();
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    const folders = await topFolders(repository, treeish);
    throw new UsageError(
      `${repository.label} has no folder ${folder}/ at ${displayRevision}${folders.length === 0 ? '' : ` (its top-level folders there: ${folders.join(', ')})`}. Give the docs folder with --docs-path, or choose tags that have it with --tags.`,
      { cause: error },
    );
  }
  if (type !== 'tree') throw new UsageError(`${folder} is a file at ${displayRevision} of ${repository.label}, not a folder. Give the docs folder with --docs-path.`);
  const listing = (await runGit(['ls-tree', '-r', '-z', target], repository)).toString('utf8');
  const documents: GitDocument[] = [];
  for (const entry of listing.split('\0')) {
    // `<mode> <type> <object>\t<path>`: blobs only (no submodule commits), no symbolic links (mode 120000).
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match === null || match[2] !== 'blob' || match[1] === '120000') continue;
    documents.push({ path: match[4] ?? '', objectId: match[3] ?? '' });
  }
  return documents;
}

export { readBlobs };

async function topFolders(repository: GitRepository, treeish: string): Promise<string[]> {
  try {
    const listing = (await runGit(['ls-tree', '-d', '--name-only', '-z', treeish], repository)).toString('utf8');
    return listing.split('\0').filter((name) => name !== '');
  } catch {
    // The folder list only decorates the error: a revision git cannot list is named by the error itself.
    return [];
  }
}

/** `./docs/`, `docs`, `/docs` → `docs`; `.` or empty → the repository root. */
export function normaliseDocsPath(docsPath: string): string {
  return docsPath
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}
