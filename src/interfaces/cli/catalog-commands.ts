import type { Command } from 'commander';
import type { SourceSummary } from '../../engine/engine-types.js';
import { formatIngest } from './format.js';
import { LOCK_TIMEOUT_HELP, LOCK_TIMEOUT_SECONDS } from './index-lock.js';
import type { CliIo, CommonOptions, ProgramKit } from './cli-io.js';
import { nonNegativeInteger } from './option-parsers.js';
import { progressReporter } from './progress.js';

/** What the catalog commands take from the program. */
type CatalogKit = Pick<ProgramKit, 'withCommon' | 'withEngine' | 'print'>;

/** `citedocs sources`, `remove`, `refresh` and `jobs`: the catalog of library versions in one index. */
export function registerCatalogCommands(program: Command, io: CliIo, kit: CatalogKit): void {
  const { withCommon, withEngine, print } = kit;
  withCommon(program.command('sources').description('list the libraries and versions in the index: root URL, pages, passages, last crawl, freshness, complete')).action((options: CommonOptions) =>
    withEngine(options, async (engine) => {
      const sources = await engine.listSources();
      print(options, sources, formatSources(sources));
    }),
  );

  withCommon(
    program
      .command('remove')
      .description('delete one library (every version) or one version of it from the index; the other sources stay as they are')
      .argument('<library[@version]>', 'e.g. pytest, or pytest@8.1 (citedocs sources lists them)')
      .option('--lock-timeout <seconds>', LOCK_TIMEOUT_HELP, nonNegativeInteger, LOCK_TIMEOUT_SECONDS),
  ).action((spec: string, options: CommonOptions & { lockTimeout: number }) =>
    withEngine(options, async (engine) => {
      const removed = await engine.removeSources(spec);
      print(options, removed, removed.map((source) => `Removed ${source.library}@${source.version}: ${source.pages} pages.`).join('\n'));
    }),
  );

  withCommon(
    program
      .command('refresh')
      .description('re-read every source (or the one named) as its ingest did: unchanged pages cost a conditional request, changed ones are re-indexed, gone ones removed')
      .argument('[library[@version]]', 'only this library (every version) or this version')
      .option('--lock-timeout <seconds>', LOCK_TIMEOUT_HELP, nonNegativeInteger, LOCK_TIMEOUT_SECONDS),
  ).action((spec: string | undefined, options: CommonOptions & { lockTimeout: number }) =>
    withEngine(options, async (engine) => {
      const reporter = progressReporter(io, options);
      const reports = await engine.refresh(spec, {
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        ...(reporter === undefined ? {} : { onProgress: reporter.update, onEmbedProgress: reporter.embedding }),
      });
      reporter?.end();
      print(options, reports, reports.length === 0 ? 'No crawled or folder source to refresh.' : reports.map(({ library, version, url, report }) => `${library}@${version} (${url}):\n  ${formatIngest(report, undefined).split('\n').join('\n  ')}`).join('\n'));
    }),
  );

  withCommon(program.command('jobs').description('list the background ingest jobs (started by MCP index_docs), newest first')).action((options: CommonOptions) =>
    withEngine(options, async (engine) => {
      const jobs = await engine.listJobs();
      const human = jobs.length === 0 ? 'No ingest jobs.' : jobs.map((job) => `#${job.id} ${job.state} ${job.library || '?'}@${job.version || '?'} ${job.url} — ${job.progress.pages ?? 0} pages, started ${job.startedAt}${job.endedAt === undefined ? '' : `, ended ${job.endedAt}`}${job.error === undefined ? '' : `: ${job.error}`}`).join('\n');
      print(options, jobs, human);
    }),
  );
}

export function formatSources(sources: readonly SourceSummary[]): string {
  if (sources.length === 0) return 'The index holds no sources yet. Run `citedocs ingest <url|folder> --library NAME --version V`.';
  const rows = sources.map((source) => [
    `${source.library}@${source.version}`,
    source.url,
    `${source.pages} pages`,
    `${source.passages} passages`,
    source.lastCrawl === undefined ? 'never crawled' : `crawled ${source.lastCrawl.slice(0, 16).replace('T', ' ')}`,
    source.oldestPageAgeDays === undefined ? '' : `oldest page ${source.oldestPageAgeDays} d`,
    source.complete === false ? 'INCOMPLETE (run citedocs refresh)' : '',
  ]);
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}
