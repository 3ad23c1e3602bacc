import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One commit of a fixture repository: the files it writes (null deletes one), and the tag it gets, if any. */
export interface FixtureCommit {
  files: Record<string, string | Buffer | null>;
  tag?: string;
  /** An annotated tag (with a message) instead of a lightweight one. */
  annotated?: boolean;
}

/** Creates a git repository in a temporary folder, commit by commit, as a project's history would be. */
export function createGitRepository(commits: readonly FixtureCommit[], prefix = 'citedocs-git-fixture-'): string {
  const root = join(mkdtempSync(join(tmpdir(), prefix)), 'project');
  mkdirSync(root);
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.email', 'fixture@example.com');
  git('config', 'user.name', 'Fixture');
  git('config', 'commit.gpgsign', 'false');
  commits.forEach((commit, index) => {
    for (const [path, content] of Object.entries(commit.files)) {
      const file = join(root, ...path.split('/'));
      if (content === null) rmSync(file, { force: true });
      else {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, content);
      }
    }
    git('add', '--all');
    git('commit', '--quiet', '--allow-empty', '-m', `commit ${index + 1}`);
    if (commit.tag !== undefined) git('tag', ...(commit.annotated === true ? ['-a', '-m', commit.tag] : []), commit.tag);
  });
  return root;
}
