import { z } from 'zod';
import { askFields, getPageFields, listSourcesFields, searchFields, webFields } from '../requests.js';

/**
 * What each MCP tool declares to agents: its input (the fields the HTTP API and CLI share, with
 * examples and the field an agent must give), its output (the `structuredContent` beside the
 * text) and its annotations. The arguments are still checked by the shared request schemas, so a
 * wrong call gets the same message everywhere.
 */

/** `question` is taken for `query` (and back): the schema names the one to send; the other stays accepted. */
const textFields = (primary: 'query' | 'question', example: string) => {
  const other = primary === 'query' ? 'question' : 'query';
  return {
    [primary]: z
      .string()
      .optional()
      .describe(primary === 'query' ? 'what to look for: an API name, an error message or a question' : 'the question to answer, in plain words')
      .meta({ examples: [example] }),
    [other]: z.string().optional().describe(`another name for \`${primary}\`, accepted in its place`),
  } as Record<'query' | 'question', z.ZodOptional<z.ZodString>>;
};

const maxTokens = (what: string, byDefault: number, example: number) =>
  searchFields.maxTokens.describe(`token budget of ${what} (default ${byDefault}); the text returned never counts more`).meta({ examples: [example] });

/** Output budgets when the caller gives none. */
export const DEFAULT_TOKENS = { search: 4000, ask: 2000, page: 4000, sources: 1000, web: 6000 } as const;

export const searchInput = z
  .object({
    ...textFields('query', 'create an index concurrently'),
    limit: searchFields.limit.meta({ examples: [5] }),
    maxTokens: maxTokens('all passages together', DEFAULT_TOKENS.search, 2000),
    maxPages: searchFields.maxPages.meta({ examples: [3] }),
    explain: searchFields.explain,
    library: searchFields.library.meta({ examples: ['pytest'] }),
    version: searchFields.version.meta({ examples: ['8.x', 'latest'] }),
    groupByPage: searchFields.groupByPage,
  })
  .meta({ required: ['query'], examples: [{ query: 'Array.prototype.flatMap', maxTokens: 2000 }, { query: 'how do I create an index without locking writes', limit: 3 }] });

export const askInput = z
  .object({
    ...textFields('question', 'how do I drop a table'),
    maxTokens: maxTokens('the answer with its list of sources', DEFAULT_TOKENS.ask, 1000),
    maxPages: askFields.maxPages.meta({ examples: [3] }),
    explain: askFields.explain,
    library: askFields.library,
    version: askFields.version,
  })
  .meta({ required: ['question'], examples: [{ question: 'how do I keep the answer inside a token budget', maxTokens: 1000 }] });

export const getPageInput = z
  .object({
    url: getPageFields.url.meta({ examples: ['https://docs.example.com/guide/indexes.html#creating-an-index'] }),
    maxTokens: maxTokens('the text returned', DEFAULT_TOKENS.page, 2000),
    cursor: z
      .string()
      .optional()
      .describe('where to continue: the cursor a truncated get_page returned for the same url (absent: from the start)')
      .meta({ examples: ['4:0'] }),
  })
  .meta({ examples: [{ url: 'https://docs.example.com/guide/indexes.html', maxTokens: 2000 }, { url: 'https://docs.example.com/guide/indexes.html', cursor: '4:0' }] });

export const listSourcesInput = z
  .object({ maxTokens: listSourcesFields.maxTokens.describe(`token budget of the list returned (default ${DEFAULT_TOKENS.sources})`).meta({ examples: [500] }) })
  .meta({ examples: [{}] });

export const webInput = z
  .object({
    ...textFields('query', 'Array.prototype.flatMap'),
    maxTokens: maxTokens('the whole output, page texts with their headers', DEFAULT_TOKENS.web, 4000),
    maxPages: webFields.maxPages.meta({ examples: [10] }),
    maxSelectedPages: webFields.maxSelectedPages.meta({ examples: [3] }),
    region: webFields.region.meta({ examples: ['us-en'] }),
    safeSearch: webFields.safeSearch,
  })
  .meta({ required: ['query'], examples: [{ query: 'pathlib Path.glob recursive', maxTokens: 4000, maxSelectedPages: 3 }] });

const warnings = z.array(z.string()).describe('what went wrong or was left out, in words (empty when nothing did)');
const diagnostics = z
  .array(
    z.object({
      code: z.string().describe('a stable identifier to act on, like budget.trimmed or rank.reranker-failed'),
      stage: z.string().describe('the pipeline stage it comes from: retrieve, rank, select, answer, web, …'),
      message: z.string().describe('the same words as in warnings'),
    }),
  )
  .describe('the warnings as data, one for each, in the same order');

export const searchOutput = z.object({
  query: z.string(),
  results: z
    .array(
      z.object({
        n: z.number().int().describe('the number of the passage in the text, [n]'),
        url: z.string().describe('the page URL with the #anchor of the section: pass it to get_page to read on'),
        library: z.string().optional().describe('the library of the page'),
        version: z.string().optional().describe('its version'),
        title: z.string(),
        headingPath: z.array(z.string()),
        text: z.string(),
        score: z.number(),
        tokenCount: z.number().int(),
      }),
    )
    .describe('the passages in the text, best first (with groupByPage: page by page)'),
  pages: z
    .array(z.object({ url: z.string().describe('the page URL'), title: z.string(), library: z.string().optional(), version: z.string().optional(), sections: z.array(z.number().int()).describe('the n of its passages') }))
    .optional()
    .describe('with groupByPage: each page once, in the order of its best passage'),
  omitted: z.number().int().describe('passages found but left out to stay within maxTokens'),
  warnings,
  diagnostics,
});

export const askOutput = z.object({
  question: z.string(),
  answer: z.string().describe('the answer as in the text, [n] citing the sources below, within maxTokens'),
  citations: z.array(z.object({ n: z.number().int(), url: z.string(), title: z.string() })).describe('the sources the answer cites, by number'),
  warnings,
  diagnostics,
});

export const getPageOutput = z.object({
  url: z.string().describe('the page URL'),
  title: z.string(),
  section: z.string().optional().describe('the #anchor read, when the url had one'),
  text: z.string().describe('the passages read, in page order'),
  passages: z.object({ from: z.number().int(), to: z.number().int(), total: z.number().int() }).describe('which passages of the page (or section) the text holds, 1-based; the last may be in part'),
  truncated: z.boolean().describe('true when the page goes on beyond this text'),
  nextCursor: z.string().optional().describe('when truncated: call get_page with the same url and this cursor to read on'),
});

export const listSourcesOutput = z.object({
  totalPages: z.number().int(),
  sources: z.array(
    z.object({
      url: z.string().describe('the URL this documentation set was read from'),
      pages: z.number().int(),
      library: z.string().optional().describe('its library (pass it to search_docs or get_docs)'),
      version: z.string().optional(),
    }),
  ),
  omitted: z.number().int().describe('sources left out to stay within maxTokens'),
});

export const webOutput = z.object({
  query: z.string(),
  results: z
    .array(z.object({ n: z.number().int(), url: z.string(), title: z.string(), text: z.string(), score: z.number(), tokenCount: z.number().int() }))
    .describe('the pages (or their best sections) in the text, best first'),
  searched: z.number().int().describe('search results examined'),
  omitted: z.number().int().describe('selected pages left out to stay within maxTokens'),
  warnings,
  diagnostics,
});

/** Every tool only reads; only find_web_docs reaches outside the index (the web). */
export const ANNOTATIONS = {
  index: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  web: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
} as const;

/** get_page's arguments as checked: the shared fields and the cursor, nothing else. */
export const getPageArguments = z.object({ ...getPageFields, cursor: getPageInput.shape.cursor }).strict();
