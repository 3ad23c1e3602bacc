import { z } from 'zod';
import { UsageError } from '../core/errors.js';

/**
 * The operations' inputs, one schema each, shared by the HTTP API, the MCP tools and the CLI's
 * JSON contract: a request the CLI would accept is accepted everywhere, and a bad one is refused
 * with the field it got wrong. Agents name the text `query` or `question`; both are taken.
 */
const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(4000, `${what} must be at most 4000 characters`);
const positive = (what: string, max: number) => z.number().int(`${what} must be a whole number`).min(1, `${what} must be at least 1`).max(max, `${what} must be at most ${max}`);

const budget = {
  maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the passages (or text) returned, all together'),
  maxPages: positive('maxPages', 100).optional().describe('distinct pages the passages may come from'),
  explain: z.boolean().optional().describe('include how each score was made and why other candidates were left out'),
};

/** Which documentation a search or answer is limited to: the same fields on the CLI, HTTP and MCP. */
const scope = {
  library: z.string().trim().min(1, 'library must not be empty').max(200, 'library must be at most 200 characters').optional().describe('only this library (a name list_sources or resolve_library gives)'),
  version: z
    .string()
    .trim()
    .min(1, 'version must not be empty')
    .max(100, 'version must be at most 100 characters')
    .optional()
    .describe('only this version: exact (5.2), a range (5.x, ">=4.2 <5") or latest (the highest); without library, that version of every library'),
};

const either = { query: text('query').optional().describe('what to look for (or `question`)'), question: text('question').optional().describe('the same as `query`') };
const requireEither = (primary: 'query' | 'question') => (value: { query?: string | undefined; question?: string | undefined }, context: z.RefinementCtx) => {
  if (value.query === undefined && value.question === undefined) context.addIssue({ code: 'custom', path: [primary], message: `${primary} is required (or ${primary === 'query' ? 'question' : 'query'})` });
};

/** The fields of each request, for tool listings (MCP); the schemas below also check how they combine. */
export const searchFields = {
  ...either,
  limit: positive('limit', 100).optional().describe('passages at most'),
  ...budget,
  ...scope,
  groupByPage: z.boolean().optional().describe('also group the results by page: each page once, with its best sections (`pages`)'),
};
export const askFields = { ...either, ...budget, ...scope };

export const searchRequest = z
  .object(searchFields)
  .strict()
  .superRefine(requireEither('query'))
  .transform(({ query, question, ...rest }) => ({ ...rest, query: query ?? question ?? '' }));
export type SearchRequest = z.output<typeof searchRequest>;

export const askRequest = z
  .object(askFields)
  .strict()
  .superRefine(requireEither('question'))
  .transform(({ query, question, ...rest }) => ({ ...rest, question: question ?? query ?? '' }));
export type AskRequest = z.output<typeof askRequest>;

/** `citedocs web`, `POST /web`: a query searched on the web; never private hosts from the HTTP API. */
export const webFields = {
  ...either,
  maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the whole output (page texts with their headers)'),
  maxPages: positive('maxPages', 50).optional().describe('search results examined (fetched and scored) at most'),
  maxSelectedPages: positive('maxSelectedPages', 50).optional().describe('pages returned at most'),
  region: z.string().trim().regex(/^[a-z]{2}-[a-z]{2}$/, 'region must be a DuckDuckGo region code like us-en or wt-wt').optional().describe('search region (DuckDuckGo kl), e.g. us-en'),
  safeSearch: z.enum(['strict', 'moderate', 'off']).optional().describe('safe search level'),
};
export const webRequest = z
  .object(webFields)
  .strict()
  .superRefine(requireEither('query'))
  .transform(({ query, question, ...rest }) => ({ ...rest, query: query ?? question ?? '' }));
export type WebRequest = z.output<typeof webRequest>;

const message = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string().max(20_000, 'content must be at most 20000 characters') }).strict();

export const chatRequest = z
  .object({ messages: z.array(message).min(1, 'messages must hold at least one message').max(100, 'messages must hold at most 100 messages'), ...budget })
  .strict()
  .superRefine((value, context) => {
    const last = value.messages.at(-1);
    if (last?.role !== 'user' || last.content.trim() === '') context.addIssue({ code: 'custom', path: ['messages', value.messages.length - 1], message: 'the last message must be a non-empty user message: the question to answer' });
  });
export type ChatRequest = z.infer<typeof chatRequest>;

export const getPageFields = {
  url: z.string().trim().url('url must be an absolute URL, optionally with a #anchor').describe('the page URL, with #anchor for one section'),
  maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the text returned'),
};
export const getPageRequest = z.object(getPageFields).strict();

/** MCP `get_docs` (Context7's shape): a library's docs on a topic, within a token budget. */
export const getDocsFields = {
  library: scope.library.unwrap().describe('the library (a name resolve_library returned)'),
  version: scope.version,
  topic: text('topic').optional().describe('what to read about (or `query`); without it, the library\'s top pages'),
  query: text('query').optional().describe('the same as `topic`'),
  maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the text returned'),
};
export const getDocsRequest = z
  .object(getDocsFields)
  .strict()
  .transform(({ topic, query, ...rest }) => ({ ...rest, topic: topic ?? query }));

export const resolveLibraryFields = {
  libraryName: z.string().trim().min(1, 'libraryName must not be empty').max(200, 'libraryName must be at most 200 characters').describe('a library name as typed, e.g. "Py-Test" or "nextjs"'),
  limit: positive('limit', 20).optional().describe('candidates at most (default 5)'),
  maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the list returned'),
};
export const resolveLibraryRequest = z.object(resolveLibraryFields).strict();

export const indexDocsFields = {
  url: z.string().trim().url('url must be an absolute http(s) URL').describe('the start URL of the documentation site'),
  ...scope,
};
export const indexDocsRequest = z.object(indexDocsFields).strict();

export const listSourcesFields = { maxTokens: positive('maxTokens', 100_000).optional().describe('token budget of the list returned') };
export const listSourcesRequest = z.object(listSourcesFields).strict();
export type GetPageRequest = z.infer<typeof getPageRequest>;

/** "`limit`: limit must be at least 1; `query`: query is required (or question)": every problem, each naming its field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length === 0 ? 'body' : issue.path.join('.');
      const message = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}` : issue.message;
      return `\`${field}\`: ${message}`;
    })
    .join('; ');
}

/** The request, checked; a bad one is a usage error naming each wrong field (the CLI's exit code 2). */
export function validRequest<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`Invalid request: ${describeIssues(result.error)}.`);
  return result.data;
}

export { given } from '../core/given.js';
