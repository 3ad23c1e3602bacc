import { UsageError } from '../../core/errors.js';
import { given } from '../requests.js';
import type { CliIo, CommonOptions, ProgramKit } from './cli-io.js';
import { formatIngest } from './format.js';
import { LOCK_TIMEOUT_HELP, LOCK_TIMEOUT_SECONDS } from './index-lock.js';
import { collect, nonNegativeInteger, positiveInteger } from './option-parsers.js';
import { openExport } from './page-export.js';
import { progressReporter } from './progress.js';
import { deprecatedAlias, renamedValue } from './renamed-options.js';
import { type Command, Option } from 'commander';
import type { IngestOptions } from '../../engine/ingest.js';

interface IngestFlags {
  maxRequests?: number;
  /** Deprecated name of --max-requests. */
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  userAgent?: string;
  include: string[];
  exclude: string[];
  export?: string;
  baseUrl?: string;
  urlStyle?: 'clean' | 'slash' | 'html';
  allowHost: string[];
  allowPrivateHosts?: boolean;
  render?: boolean;
  library?: string;
  version?: string;
  lockTimeout: number;
  git?: string;
  docsPath?: string;
  tags: string[];
}

/** `citedocs ingest`: a site, a folder, or (--git) a repository's docs folder at each tag. */
export function registerIngestCommand(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withEmbedder(kit.withCommon(
    program
      .command('ingest')
      .description('crawl a docs site (http/https URL), read a folder of Markdown/HTML, or a git repository\'s docs folder at each tag (--git), into the index; run again to update it')
      .argument('[source]', 'start URL or folder (none with --git)')
      .option('--library <name>', 'the library these docs are of (default: the name it was ingested under, else one from the host or the start page title)')
      .option('--version <version>', 'their version (default: the version in the URL path, like /docs/5.2/, else the one the start page names, like "PostgreSQL 15.20 Documentation", else latest)')
      .option('--max-requests <n>', 'stop after this many requests (files, for a folder); the next run continues', positiveInteger)
      .addOption(deprecatedAlias('--max-pages <n>', '--max-requests', positiveInteger))
      .option('--max-depth <n>', 'follow links at most this many steps from the start page', nonNegativeInteger)
      .option('--concurrency <n>', 'requests in flight at once', positiveInteger)
      .option('--user-agent <string>', 'User-Agent sent to the site (its first word is matched in robots.txt)')
      .option('--include <glob>', 'only crawl URL paths matching this glob (repeatable), e.g. "/docs/api/**"', collect, [])
      .option('--exclude <glob>', 'never crawl URL paths matching this glob (repeatable), e.g. "/docs/ja/**"', collect, [])
      .option('--export <file.jsonl>', 'also write every page read as a JSON line (url, title, markdown, headings, fetchedAt, etag, lastModified)')
      .option('--base-url <url>', 'for a folder: the URL its documents are published under; with --git, {version} or {tag} in it names each version (default: GitHub/GitLab file pages, else git+file:REPO@TAG/PATH)')
      .addOption(new Option('--url-style <style>', 'for a folder: how file paths become URLs').choices(['clean', 'slash', 'html']))
      .option('--allow-host <host>', 'for a site: another host (or host:port) the start URL may redirect to (repeatable); no other host is ever requested', collect, [])
      .option('--allow-private-hosts', 'for a site on your intranet: let the start host be on a private network (loopback start URLs need no flag)')
      .option('--render', 'for a site built by JavaScript: run each page in headless Chromium before reading it (crawl.render; needs /usr/bin/chromium or crawl.browserPath)')
      .option('--lock-timeout <seconds>', LOCK_TIMEOUT_HELP, nonNegativeInteger, LOCK_TIMEOUT_SECONDS)
      .option('--git <repository>', 'read the docs folder of a git repository (a path or URL) from git objects, no checkout: one version per tag')
      .option('--docs-path <folder>', 'with --git: the documentation folder inside the repository (default: docs; . for all of it)')
      .option('--tags <pattern>', "with --git: the tags to read, a glob like 'v*' (repeatable); each tag's version is its name (v5.0.1 → 5.0.1); default: HEAD as latest", collect, []),
  )).action(async (source: string | undefined, options: CommonOptions & IngestFlags) => {
    const maxRequests = renamedValue(options.maxRequests, options.maxPages, { command: 'ingest', old: '--max-pages', replacement: '--max-requests' }, kit.warn);
    if (options.git !== undefined || source === undefined) return ingestGit(source, options, maxRequests, io, kit);
    return ingestSource(source, options, maxRequests, io, kit);
  });
}

/** A site or a folder, ingested under the index's writer lock; every page read also written to --export. */
async function ingestSource(source: string, options: CommonOptions & IngestFlags, maxRequests: number | undefined, io: CliIo, kit: ProgramKit): Promise<void> {
  if (options.docsPath !== undefined || options.tags.length > 0) throw new UsageError(`--docs-path and --tags read a git repository: add --git <repository> (citedocs ingest --git ${source} --docs-path docs --tags 'v*').`);
  await kit.withEngine(options, async (engine) => {
    const exporter = options.export === undefined ? undefined : openExport(options.export);
    try {
      const reporter = progressReporter(io, options);
      const report = await engine.ingest(source, {
        ...sourceOptions(options, maxRequests),
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(exporter === undefined ? {} : { onPage: exporter.write }),
        ...(reporter === undefined ? {} : { onProgress: reporter.update, onEmbedProgress: reporter.embedding }),
      });
      reporter?.end();
      const stats = report.pages > 0 || report.removed > 0 ? await engine.stats() : undefined;
      kit.print(options, report, formatIngest(report, stats));
      if (report.stopped !== undefined) {
        kit.fail(`${report.stopped}.`);
      } else if (report.pages === 0 && report.removed === 0 && !report.interrupted) {
        kit.fail(`nothing was ingested from ${source}${report.errors[0] ? `: ${report.errors[0].message}` : ''}.`);
      }
    } finally {
      exporter?.close();
    }
  }, { creates: true });
}

/** The flags that shape what a site's or a folder's ingest reads, as the engine's options (given ones only). */
function sourceOptions(options: IngestFlags, maxRequests: number | undefined): IngestOptions {
  return {
    ...given({ library: options.library, version: options.version }),
    ...(maxRequests === undefined ? {} : { maxPages: maxRequests }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.include.length === 0 ? {} : { include: options.include }),
    ...(options.exclude.length === 0 ? {} : { exclude: options.exclude }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.urlStyle === undefined ? {} : { urlStyle: options.urlStyle }),
    ...(options.allowHost.length === 0 ? {} : { allowedHosts: options.allowHost }),
    ...(options.allowPrivateHosts === true ? { allowPrivateHosts: true } : {}),
    ...(options.render === true ? { render: true } : {}),
  };
}

async function ingestGit(source: string | undefined, options: CommonOptions & IngestFlags, maxRequests: number | undefined, io: CliIo, kit: ProgramKit): Promise<void> {
  const repository = options.git;
  if (repository === undefined) throw new UsageError('Give what to ingest: a start URL, a folder, or --git <repository> (citedocs ingest https://example.com/docs/).');
  if (source !== undefined) throw new UsageError(`Give either ${source} or --git ${repository}, not both: one ingest reads one source.`);
  await kit.withEngine(options, async (engine) => {
    const reporter = progressReporter(io, options);
    const report = await engine.ingestGit(repository, {
      ...given({ library: options.library, version: options.version, docsPath: options.docsPath, baseUrl: options.baseUrl, urlStyle: options.urlStyle, maxPages: maxRequests }),
      ...(options.tags.length === 0 ? {} : { tags: options.tags }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      ...(reporter === undefined ? {} : { onProgress: reporter.update, onEmbedProgress: reporter.embedding }),
    });
    reporter?.end();
    const stats = report.versions.some((version) => version.pages > 0 || version.removed > 0) ? await engine.stats() : undefined;
    const human = report.versions.map((version, index) => `${version.tag} → ${version.library ?? '?'}@${version.version ?? '?'} (${version.url}):\n${formatIngest(version, index === report.versions.length - 1 ? stats : undefined)}`).join('\n\n');
    kit.print(options, report, human);
    const empty = report.versions.find((version) => version.pages === 0 && version.removed === 0 && !version.interrupted);
    if (empty !== undefined) kit.fail(`nothing was ingested from ${report.docsPath}/ at ${empty.tag} of ${repository}${empty.errors[0] ? `: ${empty.errors[0].message}` : ''}.`);
  }, { creates: true });
}
