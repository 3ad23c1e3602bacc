import { type Command, Option } from 'commander';
import { plural } from '../../core/plural.js';
import type { WebResponse } from '../../engine/web-types.js';
import { webBlock } from '../../engine/web-output.js';
import { given, validRequest, webRequest } from '../requests.js';
import type { CliIo, CommandKit } from './cli-io.js';
import { positiveInteger } from './option-parsers.js';
import { deprecatedAlias, renamedValue } from './renamed-options.js';

interface WebFlags {
  db?: string;
  config?: string;
  embedder?: string;
  json?: boolean;
  format?: 'markdown' | 'json';
  searchUrl?: string;
  maxTokens?: number;
  maxResults?: number;
  /** Deprecated name of --max-results. */
  maxPages?: number;
  maxSelected?: number;
  region?: string;
  safeSearch?: 'strict' | 'moderate' | 'off';
  allowPrivateHosts?: boolean;
  cache: boolean;
  save?: boolean;
}


/** `citedocs web <query>`: the best web documentation for a query, within a token budget (seed 000). */
export function registerWebCommand(program: Command, io: CliIo, kit: CommandKit): void {
  kit
    .withEmbedder(
      kit.withCommon(
        program
          .command('web')
          .description('search the web (DuckDuckGo) and print the best documentation pages, or their best sections, that fit a token budget')
          .argument('<query...>', 'what to find documentation for, e.g. "Array.prototype.flatMap"'),
      ),
    )
    .addOption(new Option('--format <format>', 'output: markdown (for a prompt) or json (same as --json)').choices(['markdown', 'json']))
    .option('--search-url <url>', 'the DuckDuckGo HTML endpoint, or a server answering like it (default web.searchUrl)')
    .option('--max-tokens <n>', 'token budget of the whole output (default 6000)', positiveInteger)
    .option('--max-results <n>', 'search results fetched and scored at most (default 10)', positiveInteger)
    .addOption(deprecatedAlias('--max-pages <n>', '--max-results', positiveInteger))
    .option('--max-selected <n>', 'pages returned at most (default 5)', positiveInteger)
    .option('--region <code>', 'search region, e.g. us-en (default: none)')
    .addOption(new Option('--safe-search <level>', 'safe search').choices(['strict', 'moderate', 'off']))
    .option('--allow-private-hosts', 'also fetch results on loopback/private addresses (off: refused, as URLs from a search are untrusted)')
    .option('--no-cache', 'neither read nor fill the cache of searches and pages')
    .option('--save', 'also store the selected pages in the index (--db), so ask and search use them')
    .action(async (words: string[], options: WebFlags) => {
      const maxResults = renamedValue(options.maxResults, options.maxPages, { command: 'web', old: '--max-pages', replacement: '--max-results' }, kit.warn);
      const { query, ...request } = validRequest(webRequest, {
        query: words.join(' '),
        maxTokens: options.maxTokens,
        maxPages: maxResults,
        maxSelectedPages: options.maxSelected,
        region: options.region,
        safeSearch: options.safeSearch,
      });
      await kit.withEngine(options, async (engine) => {
        const response = await engine.web(query, {
          ...given(request),
          ...given({ searchUrl: options.searchUrl, allowPrivateHosts: options.allowPrivateHosts, save: options.save, signal: io.signal }),
          ...(options.cache === false ? { cache: false } : {}),
        });
        if (options.json === true || options.format === 'json') io.stdout(`${JSON.stringify(response, null, 2)}\n`);
        else {
          io.stdout(formatWebMarkdown(response));
          for (const entry of response.diagnostics) kit.warn(entry.code, entry.message);
          io.stderr(`${response.results.length} of ${plural(response.searched.length, 'result')} selected, ${response.totalTokens} of ${plural(response.maxTokens, 'token')}${response.saved === undefined ? '' : `; saved ${plural(response.saved.pages, 'page')} to ${response.saved.dbPath}`}.\n`);
        }
      });
    });
}

/** The selection as Markdown for a prompt: each page's block, numbered in order; nothing else, so it is within the budget. */
export function formatWebMarkdown(response: WebResponse): string {
  return response.results.map((result, index) => webBlock(index + 1, result, result.text)).join('\n');
}
