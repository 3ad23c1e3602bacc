import { Command, CommanderError, Option } from 'commander';
import { CitedocsError, UsageError } from '../../core/errors.js';
import { PACKAGE_VERSION } from '../../core/package-info.js';
import { redactPasswords } from '../../core/redact.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { readConfigFile } from './config-file.js';
import { type EvalFlags, formatEval, runEval } from './eval-command.js';
import { EMBEDDER_NAMES_HELP } from '../../embed/create-embedder.js';
import { formatAskEnd, formatEmbed, formatIngest, formatInspection, formatSearch, formatStats } from './format.js';
import { openExport } from './page-export.js';
import { formatSiteReport } from './site-report-format.js';
import { collect, nonNegativeInteger, positiveInteger } from './option-parsers.js';
import { colorsFor, describeFailure, errorJson, EXIT, interruptedByUser, wantsJson, warningJson } from './output.js';
import { configureCliLogging } from './logging.js';
import { progressReporter } from './progress.js';
import { deprecatedAlias, renamedValue } from './renamed-options.js';
import { askRequest, given, searchRequest, validRequest } from '../requests.js';
import { registerServeCommands } from './serve-commands.js';
import { registerWebCommand } from './web-command.js';
import { registerMigrateCommand } from './migrate-command.js';
import { registerCatalogCommands } from './catalog-commands.js';
import { indexLocker, LOCK_TIMEOUT_HELP, LOCK_TIMEOUT_SECONDS } from './index-lock.js';
import type { CliIo, CommonOptions } from './cli-io.js';

export type { CliIo, CommonOptions } from './cli-io.js';

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

interface ScopeFlags {
  library?: string;
  version?: string;
}

/** search and ask: the budget of the selection (the JSON field keeps its name, maxPages). */
interface SelectionFlags {
  maxTokens?: number;
  maxSelected?: number;
  /** Deprecated name of --max-selected. */
  maxPages?: number;
  explain?: boolean;
}

/**
 * Runs the CLI; returns the exit code: 0 success, 2 usage error, 130 interrupted (Ctrl-C), 1 any
 * other failure. With --json, stdout holds only the result and every error or warning is one JSON
 * line on stderr.
 */
export async function runCli(argv: readonly string[], cliIo: CliIo): Promise<number> {
  // Whatever reaches stderr (errors, warnings, logs, the serve banner) never shows a --db URL's password.
  const io: CliIo = { ...cliIo, stderr: (text) => cliIo.stderr(redactPasswords(text)) };
  let exitCode: number = EXIT.ok;
  const json = wantsJson(argv);
  const colors = colorsFor(io);
  /** A failure the command reports itself (its result may still be printed): exit code 1. */
  const fail = (message: string) => {
    io.stderr(json ? errorJson({ name: 'CitedocsError', message, exitCode: EXIT.failure }) : `citedocs: ${colors.red(message)}\n`);
    exitCode = EXIT.failure;
  };
  const warn = (code: string, message: string) => io.stderr(json ? warningJson(code, message) : `citedocs: ${colors.yellow('warning:')} ${message}\n`);
  const program = new Command('citedocs')
    .description('Answers questions from documentation with passages that fit a token budget and links that exist.')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version of citedocs')
    // `citedocs --version` prints citedocs' version; after a command, --version is that command's (ingest, search, ask, eval: a library's version).
    .enablePositionalOptions()
    .exitOverride()
    // With --json, commander's own messages give way to the JSON error printed below.
    .configureOutput({
      writeOut: io.stdout,
      writeErr: (text) => (json ? undefined : io.stderr(text)),
      outputError: (text, write) => (json ? undefined : write(colors.red(text))),
    })
    .showHelpAfterError('(run citedocs --help for usage)');

  const withCommon = (command: Command): Command =>
    command
      .addOption(new Option('--db <path>', 'index file').env('CITEDOCS_DB'))
      .option('--config <path>', 'JSON config file (default: ./citedocs.config.json when present)')
      .option('--json', 'print one JSON object for scripts')
      .option('-q, --quiet', 'no progress output, no logs')
      .option('-v, --verbose', 'debug logs of every stage on stderr, and the stack of an error (CITEDOCS_LOG=crawl=debug,rank=info sets levels per stage)');

  const withEmbedder = (command: Command): Command =>
    command.option('--embedder <name>', `embedder for dense retrieval: ${EMBEDDER_NAMES_HELP} (default: the index's own, or none)`);
  const configFor = (options: CommonOptions, dbPath?: string) => {
    const file = readConfigFile(options.config, io.cwd);
    const embed = typeof file.values['embed'] === 'object' && file.values['embed'] !== null ? (file.values['embed'] as Record<string, unknown>) : {};
    return {
      values: {
        ...file.values,
        dbPath: dbPath ?? options.db ?? io.env['CITEDOCS_DB'] ?? (typeof file.values['dbPath'] === 'string' ? file.values['dbPath'] : undefined) ?? './citedocs.db',
        ...(options.embedder === undefined ? {} : { embed: { ...embed, embedder: options.embedder } }),
      },
      dependencies: { env: io.env, ...(file.path === undefined ? {} : { configOrigin: file.path }) },
    };
  };
  const engineFor = (options: CommonOptions, dbPath?: string): Engine => {
    const { values, dependencies } = configFor(options, dbPath);
    return createEngine(values, dependencies);
  };
  const lockIndex = indexLocker(warn, io.signal);
  const print = (options: CommonOptions, json: unknown, human: string) => io.stdout(`${options.json ? JSON.stringify(json, null, 2) : human}\n`);

  withEmbedder(withCommon(
    program
      .command('ingest')
      .description('crawl a docs site (http/https URL), read a folder of Markdown/HTML, or a git repository\'s docs folder at each tag (--git), into the index; run again to update it')
      .argument('[source]', 'start URL or folder (none with --git)')
      .option('--library <name>', 'the library these docs are of (default: the name it was ingested under, else one from the host or the start page title)')
      .option('--version <version>', 'their version (default: the version in the URL path, like /docs/5.2/, else latest)')
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
    const maxRequests = renamedValue(options.maxRequests, options.maxPages, { command: 'ingest', old: '--max-pages', replacement: '--max-requests' }, warn);
    if (options.git !== undefined || source === undefined) return ingestGitCommand(source, options, maxRequests);
    if (options.docsPath !== undefined || options.tags.length > 0) throw new UsageError(`--docs-path and --tags read a git repository: add --git <repository> (citedocs ingest --git ${source} --docs-path docs --tags 'v*').`);
    const engine = engineFor(options);
    const lock = await lockIndex(engine.config.dbPath, options.lockTimeout, true);
    const exporter = options.export === undefined ? undefined : openExport(options.export);
    try {
      const reporter = progressReporter(io, options);
      const report = await engine.ingest(source, {
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
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(exporter === undefined ? {} : { onPage: exporter.write }),
        ...(reporter === undefined ? {} : { onProgress: reporter.update, onEmbedProgress: reporter.embedding }),
      });
      reporter?.end();
      const stats = report.pages > 0 || report.removed > 0 ? await engine.stats() : undefined;
      print(options, report, formatIngest(report, stats));
      if (report.stopped !== undefined) {
        fail(`${report.stopped}.`);
      } else if (report.pages === 0 && report.removed === 0 && !report.interrupted) {
        fail(`nothing was ingested from ${source}${report.errors[0] ? `: ${report.errors[0].message}` : ''}.`);
      }
    } finally {
      exporter?.close();
      await engine.close();
      lock.release();
    }
  });

  async function ingestGitCommand(source: string | undefined, options: CommonOptions & IngestFlags, maxRequests: number | undefined): Promise<void> {
    if (options.git === undefined) throw new UsageError('Give what to ingest: a start URL, a folder, or --git <repository> (citedocs ingest https://example.com/docs/).');
    if (source !== undefined) throw new UsageError(`Give either ${source} or --git ${options.git}, not both: one ingest reads one source.`);
    const engine = engineFor(options);
    const lock = await lockIndex(engine.config.dbPath, options.lockTimeout, true);
    try {
      const reporter = progressReporter(io, options);
      const report = await engine.ingestGit(options.git, {
        ...given({ library: options.library, version: options.version, docsPath: options.docsPath, baseUrl: options.baseUrl, urlStyle: options.urlStyle, maxPages: maxRequests }),
        ...(options.tags.length === 0 ? {} : { tags: options.tags }),
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(reporter === undefined ? {} : { onProgress: reporter.update, onEmbedProgress: reporter.embedding }),
      });
      reporter?.end();
      const stats = report.versions.some((version) => version.pages > 0 || version.removed > 0) ? await engine.stats() : undefined;
      const human = report.versions.map((version, index) => `${version.tag} → ${version.library ?? '?'}@${version.version ?? '?'} (${version.url}):\n${formatIngest(version, index === report.versions.length - 1 ? stats : undefined)}`).join('\n\n');
      print(options, report, human);
      const empty = report.versions.find((version) => version.pages === 0 && version.removed === 0 && !version.interrupted);
      if (empty !== undefined) fail(`nothing was ingested from ${report.docsPath}/ at ${empty.tag} of ${options.git}${empty.errors[0] ? `: ${empty.errors[0].message}` : ''}.`);
    } finally {
      await engine.close();
      lock.release();
    }
  }

  withEmbedder(withCommon(
    program
      .command('search')
      .description('print the passages that best match a query, each with the exact URL#anchor of its section')
      .argument('<query...>', 'what to look for')
      .option('--limit <n>', 'passages at most', positiveInteger)
      .option('--max-tokens <n>', 'token budget of all passages together', positiveInteger)
      .option('--max-selected <n>', 'distinct pages the passages may come from', positiveInteger)
      .addOption(deprecatedAlias('--max-pages <n>', '--max-selected', positiveInteger))
      .option('--explain', 'show how each score was made, and why each other candidate was left out')
      .option('--group-by-page', 'show each page once, with its best sections under it (JSON: also `pages`)')
      .option('--library <name>', 'only passages of this library (citedocs sources lists them)')
      .option('--version <version>', 'only this version: exact, a range (5.x, ">=4.2 <5") or latest'),
  )).action(async (words: string[], options: CommonOptions & SelectionFlags & ScopeFlags & { limit?: number; groupByPage?: boolean }) => {
    const maxPages = renamedValue(options.maxSelected, options.maxPages, { command: 'search', old: '--max-pages', replacement: '--max-selected' }, warn);
    // The schema the HTTP API and MCP check the same request with.
    const { query, ...request } = validRequest(searchRequest, { query: words.join(' '), limit: options.limit, maxTokens: options.maxTokens, maxPages, explain: options.explain === true, groupByPage: options.groupByPage, library: options.library, version: options.version });
    const engine = engineFor(options);
    try {
      const response = await engine.search(query, { ...given(request), ...(io.signal === undefined ? {} : { signal: io.signal }) });
      print(options, response, formatSearch(response, options.explain === true));
      if (options.json !== true) for (const entry of response.diagnostics) warn(entry.code, entry.message);
    } finally {
      await engine.close();
    }
  });

  withEmbedder(withCommon(
    program
      .command('ask')
      .description('answer a question from the index, citing each statement as [n] with its URL')
      .argument('<question...>', 'the question')
      .option('--max-tokens <n>', 'token budget of the sources the answer is drawn from', positiveInteger)
      .option('--max-selected <n>', 'distinct pages the sources may come from', positiveInteger)
      .addOption(deprecatedAlias('--max-pages <n>', '--max-selected', positiveInteger))
      .option('--explain', 'also show the sources selected and why each other candidate was left out')
      .option('--library <name>', 'answer only from this library (citedocs sources lists them)')
      .option('--version <version>', 'only this version: exact, a range (5.x, ">=4.2 <5") or latest'),
  )).action(async (words: string[], options: CommonOptions & SelectionFlags & ScopeFlags) => {
    const maxPages = renamedValue(options.maxSelected, options.maxPages, { command: 'ask', old: '--max-pages', replacement: '--max-selected' }, warn);
    const { question, ...request } = validRequest(askRequest, { question: words.join(' '), maxTokens: options.maxTokens, maxPages, explain: options.explain === true, library: options.library, version: options.version });
    const engine = engineFor(options);
    try {
      const askOptions = { ...given(request), ...(io.signal === undefined ? {} : { signal: io.signal }) };
      if (options.json === true) {
        const response = await engine.ask(question, askOptions);
        print(options, response, '');
      } else {
        // The answer appears as it is written; its sources list and the warnings follow it.
        for await (const event of engine.askStream(question, askOptions)) {
          if (event.type === 'delta') io.stdout(event.text);
          else {
            io.stdout(`${formatAskEnd(event.response)}\n`);
            for (const entry of event.response.diagnostics) warn(entry.code, entry.message);
          }
        }
      }
    } finally {
      await engine.close();
    }
  });

  withEmbedder(withCommon(
    program
      .command('embed')
      .description('give every passage of the index a vector of the embedder (all again when the embedder changes); run again to resume')
      .option('--lock-timeout <seconds>', LOCK_TIMEOUT_HELP, nonNegativeInteger, LOCK_TIMEOUT_SECONDS),
  )).action(async (options: CommonOptions & { lockTimeout: number }) => {
    const engine = engineFor(options);
    const lock = await lockIndex(engine.config.dbPath, options.lockTimeout);
    try {
      const reporter = progressReporter(io, options);
      const report = await engine.embed({
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(reporter === undefined ? {} : { onProgress: reporter.embedding }),
      });
      reporter?.end();
      print(options, report, formatEmbed(report));
      if (report.interrupted) exitCode = EXIT.failure;
    } finally {
      await engine.close();
      lock.release();
    }
  });

  withCommon(
    program
      .command('inspect')
      .description('show what the index holds for a page (its anchors and chunks), or with --site how well a site was extracted')
      .argument('[page-url]', 'URL of an ingested page')
      .option('--site [url]', 'report on every page under this URL (all pages when no URL is given): anchors, sections, titles'),
  ).action(async (url: string | undefined, options: CommonOptions & { site?: string | boolean }) => {
    const engine = engineFor(options);
    try {
      if (options.site !== undefined) {
        const report = await engine.siteReport(typeof options.site === 'string' ? options.site : (url ?? ''));
        if (report.pages === 0) throw new CitedocsError(`No page under ${report.site || 'any URL'} is in the index at ${engine.config.dbPath}. Check the URL (citedocs sources lists the sites) or ingest it first.`);
        print(options, report, formatSiteReport(report));
        return;
      }
      if (url === undefined) throw new UsageError('Give the URL of a page (citedocs inspect <page-url>), or --site [url] for a report on a whole site.');
      const page = await engine.inspect(url);
      if (page === undefined) throw new CitedocsError(`${url} is not in the index at ${engine.config.dbPath}. Check the URL (citedocs search shows the URLs it has) or ingest it first.`);
      print(options, page, formatInspection(page));
    } finally {
      await engine.close();
    }
  });

  withEmbedder(withCommon(
    program
      .command('eval')
      .description('measure retrieval quality: nDCG@10, recall@k, MRR@10, hit@k (page and page#anchor), latency')
      .option('--qrels <folder>', 'a BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)')
      .option('--split <name>', 'which qrels file of a BEIR folder', 'test')
      .option('--questions <file.jsonl>', 'docs questions: {"qid","query","gold":["page.html#anchor"]} per line')
      .option('--site <url>', 'the site the gold paths of --questions are relative to (crawled unless --db already holds it)')
      .option('--baseline <file.json>', 'compare with a saved run')
      .option('--save-baseline <file.json>', 'save this run, with its configuration and per-query results')
      .option('--library <name>', 'search only this library (and crawl --site as this library when the index lacks it)')
      .option('--version <version>', 'search only this version: exact, a range or latest')
      .option('--answers', 'with --questions: also answer each question and report how often the answer cites a gold section (answerCitesGold) and the top search result (answerCitesTop1), beside searchGoldAt1'),
  )).action(async (options: CommonOptions & EvalFlags) => {
    const dbPath = options.db ?? io.env['CITEDOCS_DB'];
    const output = await runEval(options, dbPath, (path) => engineFor(options, path), (line) => {
      if (options.quiet !== true && options.json !== true) io.stderr(`${line}\n`);
    });
    print(options, output, formatEval(output));
  });

  withCommon(program.command('stats').description('count the pages, chunks and anchors in the index')).action(async (options: CommonOptions) => {
    const engine = engineFor(options);
    try {
      const stats = await engine.stats();
      print(options, stats, formatStats(stats, engine.config.dbPath));
    } finally {
      await engine.close();
    }
  });

  registerServeCommands(program, io, { withCommon, withEmbedder, engineFor, configFor, warn });
  registerCatalogCommands(program, io, { withCommon, engineFor, print, lockIndex });
  registerWebCommand(program, io, { withCommon, withEmbedder, engineFor, warn });
  registerMigrateCommand(program, io, withCommon);

  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const interrupted = () => {
    io.stderr(json ? errorJson({ name: 'Interruption', message: 'Interrupted (Ctrl-C).', exitCode: EXIT.interrupted }) : `citedocs: ${colors.yellow('interrupted')} (Ctrl-C).\n`);
    return EXIT.interrupted;
  };
  try {
    configureCliLogging(argv, io, json, colors);
    await program.parseAsync([...argv], { from: 'user' });
    return interruptedByUser(io.signal) ? interrupted() : exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT.ok;
      if (json) io.stderr(errorJson({ name: 'UsageError', message: error.message.replace(/^error: /, ''), exitCode: EXIT.usage }));
      return EXIT.usage;
    }
    // Whatever failed because of the interruption (an aborted fetch, an LLM call) is the interruption.
    if (interruptedByUser(io.signal)) return interrupted();
    const { bug, stack, ...report } = describeFailure(error);
    if (json) {
      // A bug keeps its stack, as in the text output; an error the user can act on shows it with --verbose.
      io.stderr(errorJson((bug || verbose) && stack !== undefined ? { ...report, stack } : report));
    } else if (!bug) {
      io.stderr(`citedocs: ${colors.red(report.message)}\n`);
      if (verbose && stack !== undefined) io.stderr(`${stack}\n`);
    } else {
      io.stderr(`citedocs: ${colors.red('unexpected error (a bug; please report it with the command you ran):')}\n${stack ?? report.message}\n`);
    }
    return report.exitCode;
  }
}
