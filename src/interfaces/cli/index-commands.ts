import { CitedocsError, UsageError } from '../../core/errors.js';
import type { Command } from 'commander';
import type { CliIo, CommonOptions, ProgramKit } from './cli-io.js';
import { type EvalFlags, formatEval, runEval } from './eval-command.js';
import { formatEmbed, formatInspection, formatStats } from './format.js';
import { LOCK_TIMEOUT_HELP, LOCK_TIMEOUT_SECONDS } from './index-lock.js';
import { nonNegativeInteger } from './option-parsers.js';
import { progressReporter } from './progress.js';
import { formatSiteReport } from './site-report-format.js';

/** `citedocs embed`, `inspect`, `eval` and `stats`: work on an index as a whole. */
export function registerIndexCommands(program: Command, io: CliIo, kit: ProgramKit): void {
  registerEmbed(program, io, kit);
  registerInspect(program, io, kit);
  registerEval(program, io, kit);
  registerStats(program, io, kit);
}

/** `citedocs embed`: vectors for every passage without one, under the writer lock. */
function registerEmbed(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withEmbedder(kit.withCommon(
    program
      .command('embed')
      .description('give every passage of the index a vector of the embedder (all again when the embedder changes); run again to resume')
      .option('--lock-timeout <seconds>', LOCK_TIMEOUT_HELP, nonNegativeInteger, LOCK_TIMEOUT_SECONDS),
  )).action(async (options: CommonOptions & { lockTimeout: number }) => {
    await kit.withEngine(options, async (engine) => {
      const reporter = progressReporter(io, options);
      const report = await engine.embed({
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(reporter === undefined ? {} : { onProgress: reporter.embedding }),
      });
      reporter?.end();
      kit.print(options, report, formatEmbed(report));
      if (report.interrupted) kit.fail();
    });
  });
}

/** `citedocs inspect`: one stored page, or with --site a report on how a site was extracted. */
function registerInspect(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withCommon(
    program
      .command('inspect')
      .description('show what the index holds for a page (its anchors and chunks), or with --site how well a site was extracted')
      .argument('[page-url]', 'URL of an ingested page')
      .option('--site [url]', 'report on every page under this URL (all pages when no URL is given): anchors, sections, titles'),
  ).action(async (url: string | undefined, options: CommonOptions & { site?: string | boolean }) => {
    await kit.withEngine(options, async (engine) => {
      if (options.site !== undefined) {
        const report = await engine.siteReport(typeof options.site === 'string' ? options.site : (url ?? ''));
        if (report.pages === 0) throw new CitedocsError(`No page under ${report.site || 'any URL'} is in the index at ${engine.config.dbPath}. Check the URL (citedocs sources lists the sites) or ingest it first.`);
        kit.print(options, report, formatSiteReport(report));
        return;
      }
      if (url === undefined) throw new UsageError('Give the URL of a page (citedocs inspect <page-url>), or --site [url] for a report on a whole site.');
      const page = await engine.inspect(url);
      if (page === undefined) throw new CitedocsError(`${url} is not in the index at ${engine.config.dbPath}. Check the URL (citedocs search shows the URLs it has) or ingest it first.`);
      kit.print(options, page, formatInspection(page));
    });
  });
}

/** `citedocs eval`: retrieval (and answer) quality on a BEIR dataset or docs questions. */
function registerEval(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withEmbedder(kit.withCommon(
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
    const output = await runEval(options, dbPath, (path) => kit.engineFor(options, path), (line) => {
      if (options.quiet !== true && options.json !== true) io.stderr(`${line}\n`);
    });
    kit.print(options, output, formatEval(output));
  });
}

/** `citedocs stats`: what the index holds. */
function registerStats(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withCommon(program.command('stats').description('count the pages, chunks and anchors in the index')).action(async (options: CommonOptions) => {
    await kit.withEngine(options, async (engine) => {
      const stats = await engine.stats();
      kit.print(options, stats, formatStats(stats, engine.config.dbPath));
    });
  });
}
