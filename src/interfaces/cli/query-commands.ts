import { askRequest, given, searchRequest, validRequest } from '../requests.js';
import type { Command } from 'commander';
import type { CliIo, CommonOptions, ProgramKit } from './cli-io.js';
import { formatAskEnd, formatSearch } from './format.js';
import { positiveInteger } from './option-parsers.js';
import { deprecatedAlias, renamedValue } from './renamed-options.js';

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

/** `citedocs search` and `ask`: the passages for a query, and the answer drawn from them. */
export function registerQueryCommands(program: Command, io: CliIo, kit: ProgramKit): void {
  registerSearch(program, io, kit);
  registerAsk(program, io, kit);
}

/** `citedocs search`: the passages that best match a query, within the budget. */
function registerSearch(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withEmbedder(kit.withCommon(
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
      .option('--version <version>', VERSION_HELP),
  )).action(async (words: string[], options: CommonOptions & SelectionFlags & ScopeFlags & { limit?: number; groupByPage?: boolean }) => {
    const maxPages = selectedPages('search', options, kit);
    // The schema the HTTP API and MCP check the same request with.
    const { query, ...request } = validRequest(searchRequest, { query: words.join(' '), limit: options.limit, maxTokens: options.maxTokens, maxPages, explain: options.explain === true, groupByPage: options.groupByPage, library: options.library, version: options.version });
    await kit.withEngine(options, async (engine) => {
      const response = await engine.search(query, { ...given(request), ...(io.signal === undefined ? {} : { signal: io.signal }) });
      kit.print(options, response, formatSearch(response, options.explain === true));
      if (options.json !== true) for (const entry of response.diagnostics) kit.warn(entry.code, entry.message);
    });
  });
}

/** `citedocs ask`: the answer as it is written (all at once with --json), then its sources and warnings. */
function registerAsk(program: Command, io: CliIo, kit: ProgramKit): void {
  kit.withEmbedder(kit.withCommon(
    program
      .command('ask')
      .description('answer a question from the index, citing each statement as [n] with its URL')
      .argument('<question...>', 'the question')
      .option('--max-tokens <n>', 'token budget of the sources the answer is drawn from', positiveInteger)
      .option('--max-selected <n>', 'distinct pages the sources may come from', positiveInteger)
      .addOption(deprecatedAlias('--max-pages <n>', '--max-selected', positiveInteger))
      .option('--explain', 'also show the sources selected and why each other candidate was left out')
      .option('--library <name>', 'answer only from this library (citedocs sources lists them)')
      .option('--version <version>', VERSION_HELP),
  )).action(async (words: string[], options: CommonOptions & SelectionFlags & ScopeFlags) => {
    const maxPages = selectedPages('ask', options, kit);
    const { question, ...request } = validRequest(askRequest, { question: words.join(' '), maxTokens: options.maxTokens, maxPages, explain: options.explain === true, library: options.library, version: options.version });
    await kit.withEngine(options, async (engine) => {
      const askOptions = { ...given(request), ...(io.signal === undefined ? {} : { signal: io.signal }) };
      if (options.json === true) {
        const response = await engine.ask(question, askOptions);
        kit.print(options, response, '');
      } else {
        // The answer appears as it is written; its sources list and the warnings follow it.
        for await (const event of engine.askStream(question, askOptions)) {
          if (event.type === 'delta') io.stdout(event.text);
          else {
            io.stdout(`${formatAskEnd(event.response)}\n`);
            for (const entry of event.response.diagnostics) kit.warn(entry.code, entry.message);
          }
        }
      }
    });
  });
}

const VERSION_HELP = 'only this version: exact, a range (5.x, ">=4.2 <5") or latest';

/** The page budget of search and ask, given as --max-selected or its deprecated name --max-pages (which says so). */
function selectedPages(command: 'search' | 'ask', options: SelectionFlags, kit: ProgramKit): number | undefined {
  return renamedValue(options.maxSelected, options.maxPages, { command, old: '--max-pages', replacement: '--max-selected' }, kit.warn);
}
