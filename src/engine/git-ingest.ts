import { basename } from 'node:path';
import { libraryNameFromPath } from '../catalog/names.js';
import { UsageError } from '../core/errors.js';
import { type DocumentFiles, isDocumentPath } from '../sources/local/local-source.js';
import type { UrlStyle } from '../sources/local/path-registry.js';
import { type GitRepository, headCommit, listDocsFolder, matchingTags, normaliseDocsPath, openGitRepository, readBlobs } from '../sources/git/git-repository.js';
import { gitBaseUrl, versionFromTag } from '../sources/git/git-urls.js';
import type { IngestOptions, IngestReport } from './ingest.js';

export interface GitIngestOptions extends Pick<IngestOptions, 'library' | 'version' | 'maxPages' | 'baseUrl' | 'urlStyle' | 'signal' | 'onPage' | 'onProgress' | 'onEmbedProgress'> {
  /** The documentation folder inside the repository (default `docs`; `.` for the whole repository). */
  docsPath?: string;
  /** Glob patterns of tags (as `git tag -l`): each matching tag becomes one version. None: the commit at HEAD, as `latest` (or --version). */
  tags?: string[];
}

/** One version read: the tag (or `HEAD`) it came from, and its ingest report. */
export interface GitVersionReport extends IngestReport {
  tag: string;
  /** The URL its pages are published under. */
  url: string;
}

export interface GitIngestReport {
  repository: string;
  docsPath: string;
  versions: GitVersionReport[];
  /** True when the run was interrupted before every tag was read. */
  interrupted: boolean;
}

/** What one version's ingest needs: where its pages go and where its documents come from. */
export interface GitVersionPlan {
  /** Names the documents in messages: `docs/ at v1.0 of REPO`. */
  label: string;
  library: string;
  version: string;
  rootUrl: string;
  urlStyle: UrlStyle;
  files: DocumentFiles;
  /** What `refresh` repeats to read this version again. */
  settings: Record<string, unknown>;
}

/**
 * Reads the docs folder of a git repository at each tag matching the patterns (or at HEAD),
 * from git objects (no checkout), each tag one version of the library; `ingestVersion` stores
 * one version as a folder's ingest would. Tags are read lowest version first.
 */
export async function ingestGitRepository(input: string, options: GitIngestOptions, defaultUrlStyle: UrlStyle, ingestVersion: (plan: GitVersionPlan) => Promise<IngestReport>): Promise<GitIngestReport> {
  const docsPath = normaliseDocsPath(options.docsPath ?? 'docs');
  const patterns = options.tags ?? [];
  if (options.baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(options.baseUrl)) {
    throw new UsageError(`--base-url ${options.baseUrl} must be an http(s) URL, like https://example.com/docs/{version}/.`);
  }
  const repository = await openGitRepository(input, options.signal);
  try {
    const revisions = patterns.length === 0 ? [{ revision: await headCommit(repository), name: 'HEAD' }] : (await matchingTags(repository, patterns)).map((tag) => ({ revision: `refs/tags/${tag}`, name: tag }));
    if (options.version !== undefined && revisions.length > 1) {
      throw new UsageError(`--version ${options.version} names one version, but --tags matched ${revisions.length} tags (${revisions.map((revision) => revision.name).join(', ')}). Leave --version out: each tag's version comes from its name.`);
    }
    const library = options.library ?? repositoryLibraryName(repository);
    // Every tag's folder is checked before any is stored: a pattern that also matches a tag without the docs fails now, not halfway.
    const listings = [];
    for (const { revision, name } of revisions) listings.push({ name, documents: await listDocsFolder(repository, revision, docsPath, name === 'HEAD' ? 'HEAD' : `tag ${name}`) });
    const report: GitIngestReport = { repository: repository.location, docsPath: docsPath === '' ? '.' : docsPath, versions: [], interrupted: false };
    for (const { name, documents } of listings) {
      const version = options.version ?? (name === 'HEAD' ? 'latest' : versionFromTag(name));
      const { baseUrl, fileUrls } = gitBaseUrl({
        location: repository.location,
        remote: repository.remote,
        revision: name,
        version,
        docsPath,
        revisions: revisions.length,
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      });
      const versionReport = await ingestVersion({
        label: `${docsPath === '' ? 'the root' : `${docsPath}/`} at ${name} of ${input}`,
        library,
        version,
        rootUrl: baseUrl,
        urlStyle: fileUrls ? 'source' : (options.urlStyle ?? defaultUrlStyle),
        files: treeFiles(repository, documents),
        settings: { input, git: { docsPath: docsPath === '' ? '.' : docsPath, tag: name }, ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }), ...(options.urlStyle === undefined ? {} : { urlStyle: options.urlStyle }) },
      });
      report.versions.push({ tag: name, url: baseUrl, ...versionReport });
      if (options.signal?.aborted === true || versionReport.interrupted) {
        report.interrupted = true;
        break;
      }
    }
    return report;
  } finally {
    await repository.close();
  }
}

/** A tag's docs folder as files: listed from its tree, read in one batch on first use. */
function treeFiles(repository: GitRepository, documents: readonly { path: string; objectId: string }[]): DocumentFiles {
  const objectOf = new Map(documents.map((document) => [document.path, document.objectId]));
  let blobs: Promise<Map<string, Buffer>> | undefined;
  return {
    list: () => Promise.resolve([...objectOf.keys()]),
    async read(path) {
      // Only documents are read: a docs folder's images and archives stay in git.
      blobs ??= readBlobs([...new Set(documents.filter((document) => isDocumentPath(document.path)).map((document) => document.objectId))], repository);
      const objectId = objectOf.get(path);
      const bytes = objectId === undefined ? undefined : (await blobs).get(objectId);
      if (bytes === undefined) throw new UsageError(`${path} is not in the listing of ${repository.label}.`);
      return bytes;
    },
  };
}

/** `…/project.git` or `…/project` → project. */
function repositoryLibraryName(repository: GitRepository): string {
  const last = basename(repository.location.replace(/[/\\]+$/, '')).replace(/\.git$/i, '');
  return libraryNameFromPath(last) ?? 'docs';
}

/** What `refresh` repeats of one git version's ingest (its settings as `ingestGitRepository` recorded them). */
export function gitRefreshRequest(settings: Record<string, unknown>): { repository: string; options: GitIngestOptions } | undefined {
  const { input, git, baseUrl, urlStyle } = settings as { input?: unknown; git?: { docsPath?: unknown; tag?: unknown }; baseUrl?: unknown; urlStyle?: unknown };
  if (typeof input !== 'string' || typeof git?.docsPath !== 'string' || typeof git.tag !== 'string') return undefined;
  return {
    repository: input,
    options: {
      docsPath: git.docsPath,
      // HEAD is read as HEAD again; a tag by its exact name (a glob matching itself).
      ...(git.tag === 'HEAD' ? {} : { tags: [git.tag] }),
      ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
      ...(urlStyle === 'clean' || urlStyle === 'slash' || urlStyle === 'html' ? { urlStyle } : {}),
    },
  };
}
