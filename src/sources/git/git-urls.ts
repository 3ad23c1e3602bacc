import { pathToFileURL } from 'node:url';
import { UsageError } from '../../core/errors.js';
import { normaliseDocsPath } from './git-repository.js';

/**
 * The version a tag names: `v5.0.1` → 5.0.1, `release-2.1` → 2.1, `pkg@1.2.0` → 1.2.0,
 * `docs/v3` → 3; a tag without digits is its own version (`stable`).
 */
export function versionFromTag(tag: string): string {
  const match = /^(?:.*[-_/@])?v?(\d[\w.+-]*)$/i.exec(tag);
  return match?.[1] ?? tag;
}

const PLACEHOLDER = /\{(version|tag)\}/g;

export interface GitBaseUrlInput {
  /** The repository as given: a local path (absolute) or a URL. */
  location: string;
  remote: boolean;
  /** The tag (or commit) read, and the version it becomes. */
  revision: string;
  version: string;
  docsPath: string;
  /** --base-url, with `{version}` / `{tag}` placeholders. */
  baseUrl?: string;
  /** How many revisions this ingest reads: several need a base URL that tells them apart. */
  revisions: number;
}

/**
 * The URL a tag's docs are published under. --base-url when given (its `{version}` and `{tag}`
 * filled in); else, for a GitHub or GitLab repository, the pages that site renders for the
 * files at that tag; else a `git+file:` (or `git+<scheme>:`) URL naming the repository, the
 * tag and the path: unique per version, and honest that no web page serves it. `fileUrls`: the
 * pages keep their file names (`guide.md`), as those sites and git name them.
 */
export function gitBaseUrl(input: GitBaseUrlInput): { baseUrl: string; fileUrls: boolean } {
  const folder = normaliseDocsPath(input.docsPath);
  const folderPart = folder === '' ? '' : `${folder.split('/').map(encodeURIComponent).join('/')}/`;
  if (input.baseUrl !== undefined) {
    if (input.revisions > 1 && input.baseUrl.match(PLACEHOLDER) === null) {
      throw new UsageError(`--base-url ${input.baseUrl} would publish all ${input.revisions} versions at the same URLs. Put {version} (or {tag}) in it, like https://example.com/docs/{version}/.`);
    }
    const filled = input.baseUrl.replace(PLACEHOLDER, (_whole, name: string) => encodeURIComponent(name === 'tag' ? input.revision : input.version));
    return { baseUrl: filled.endsWith('/') ? filled : `${filled}/`, fileUrls: false };
  }
  const hosted = input.remote ? hostedBlobBase(input.location, input.revision) : undefined;
  if (hosted !== undefined) return { baseUrl: `${hosted}${folderPart}`, fileUrls: true };
  const repository = input.remote ? remoteAsUrl(input.location) : pathToFileURL(input.location).href;
  return { baseUrl: `git+${repository.replace(/\/+$/, '')}@${encodeURIComponent(input.revision)}/${folderPart}`, fileUrls: true };
}

/** `https://github.com/o/r(.git)` → `https://github.com/o/r/blob/TAG/`; GitLab's `/-/blob/TAG/`. */
function hostedBlobBase(location: string, revision: string): string | undefined {
  if (!URL.canParse(location)) return undefined;
  const url = new URL(location);
  if (url.protocol !== 'https:') return undefined;
  const path = url.pathname.replace(/\.git\/?$/, '').replace(/\/+$/, '');
  const tag = encodeURIComponent(revision);
  if (url.hostname === 'github.com' && path.split('/').length === 3) return `https://github.com${path}/blob/${tag}/`;
  if (url.hostname === 'gitlab.com' && path.split('/').length >= 3) return `https://gitlab.com${path}/-/blob/${tag}/`;
  return undefined;
}

/** `git@host:owner/project.git` → `ssh://git@host/owner/project.git`; URLs as they are. */
function remoteAsUrl(location: string): string {
  const scpLike = /^([\w.-]+@[\w.-]+):(.*)$/.exec(location);
  return scpLike === null ? location : `ssh://${scpLike[1] ?? ''}/${(scpLike[2] ?? '').replace(/^\/+/, '')}`;
}
