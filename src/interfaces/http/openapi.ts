import { z } from 'zod';
import { askRequest, chatRequest, searchRequest, webRequest } from '../requests.js';

const error = { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } }, required: ['error', 'message'] };
const errors = {
  '400': { description: 'The body failed validation; `message` names each field and what is wrong.', content: { 'application/json': { schema: error } } },
  '401': { description: 'An API key is required: `Authorization: Bearer <key>`.', content: { 'application/json': { schema: error } } },
  '403': {
    description: 'The `Host` (`forbidden_host`) or `Origin` (`forbidden_origin`) is not one this server answers: start it with `--allowed-hosts` or `--allowed-origins`.',
    content: { 'application/json': { schema: error } },
  },
  '504': { description: 'The request took longer than the server allows.', content: { 'application/json': { schema: error } } },
};

const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } } });
const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });

/** The API as OpenAPI 3.1, its request bodies generated from the schemas that validate them. */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'citedocs', version: '0.1.0', description: 'Answers from documentation, inside a token budget, citing URLs and #anchors that exist.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/search': { post: { summary: 'Ranked passages with URL#anchor and score (the JSON of `citedocs search --json`)', requestBody: body(searchRequest), responses: { '200': json('results, warnings, retrieval'), ...errors } } },
      '/ask': { post: { summary: 'A cited answer (the JSON of `citedocs ask --json`)', requestBody: body(askRequest), responses: { '200': json('answer, citations, warnings, selection'), ...errors } } },
      '/api/chat': { post: { summary: 'Answer the last user message of a conversation; earlier questions steer retrieval', requestBody: body(chatRequest), responses: { '200': json('message, answer, citations, warnings, selection'), ...errors } } },
      '/api/chat/stream': {
        post: {
          summary:
            'The same answer as server-sent events: `delta` events (each preceded by `cited`, the sources cited so far, when new ones were numbered), then `citations`, `warnings` and `done`',
          requestBody: body(chatRequest),
          responses: { '200': { description: 'text/event-stream of `data: {"type":…}` lines', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors },
        },
      },
      '/web': {
        post: {
          summary: 'The best web documentation pages (or their best sections) for a query, within a token budget (the JSON of `citedocs web --json`); pages on private addresses are refused',
          requestBody: body(webRequest),
          responses: { '200': json('results, searched, warnings, dropped, totalTokens'), '503': { description: 'The search engine refused the search (rate limited); try again later.', content: { 'application/json': { schema: error } } }, ...errors },
        },
      },
      '/api/sources': { get: { summary: 'What the index holds, with a few questions to try (the chat page shows it before the first question)', responses: { '200': json('pages, chunks, sources (url, pages), examples'), ...errors } } },
      '/healthz': {
        get: {
          summary: 'Liveness, with the size of the index (and, on PostgreSQL, the index version this replica serves and whether the database is reachable)',
          responses: { '200': json('status, pages, chunks, pid (the process that answered); PostgreSQL: indexVersion, database (reachable, unreachable or connecting), and while unreachable since, databaseError, failedAttempts') },
        },
      },
    },
    security: [{ bearer: [] }],
  };
}
