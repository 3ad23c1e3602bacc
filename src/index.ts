/**
 * The package root: the engine, its providers and the servers, with every type a public function
 * or method takes or returns (test/e2e/library-types.test.ts checks that none is missing).
 */
export { createEngine } from './engine/engine.js';
export type { Engine, EngineDependencies, SearchOptions, SearchResponse, SearchResult, PageGroup, AskOptions, AskResponse } from './engine/engine.js';
export type { AskEvent, IndexStats, PageInspection, SiteReport, SourceSummary } from './engine/engine-types.js';
export type { IngestJob, LabelledCitation, LibraryMatch, RefreshReport, RemovedSource, ScopeOptions } from './engine/engine-types.js';
export type { CatalogToolOptions } from './interfaces/mcp/catalog-tools.js';
export type { DirectDocument } from './engine/ingest-documents.js';
export type { IngestOptions, IngestReport, IngestProgress, IngestError } from './engine/ingest.js';
export type { GitIngestOptions, GitIngestReport, GitVersionReport } from './engine/git-ingest.js';
export type { IngestOutcome, IngestRunSummary, StoreStats } from './store/store.js';
export type { DatabaseHealth } from './store/postgres/pg-version-watch.js';
export type { UrlStyle } from './sources/local/path-registry.js';
export type { FetchLike } from './core/http/send.js';
export { configSchema, DEFAULT_CONFIG, parseConfig } from './core/config.js';
export type { CitedocsConfig, CitedocsConfigInput } from './core/config.js';
export { CitedocsError, UsageError, ConfigError, SourceError, StoreError } from './core/errors.js';
export type * from './core/types.js';
export { DIAGNOSTIC_CODES } from './core/diagnostics.js';
export type { Diagnostic, DiagnosticCode } from './core/diagnostics.js';
export { configureLogging, parseLogSpec, LOG_LEVELS } from './core/log.js';
export type { LogLevel, LogLevels, LogSettings } from './core/log.js';
export { STAGES } from './core/stages.js';
export type { Stage } from './core/stages.js';
export type { Usage } from './engine/usage.js';
export { runCli } from './interfaces/cli/main.js';
export type { CliIo } from './interfaces/cli/main.js';
export type { EmbedOptions } from './engine/engine.js';
export type { EmbedProgress, EmbedReport } from './engine/embed-pass.js';
export type { Embedder, EmbedMode, EmbedRequest } from './embed/embedder.js';
export { EmbedderError } from './embed/embedder.js';
export { createEmbedder } from './embed/create-embedder.js';
export type { EmbedConfig, EmbedderDependencies } from './embed/create-embedder.js';
export type { Llm, LlmMessage, LlmRequest, LlmResponse, LlmUsage } from './llm/llm.js';
export { LlmError } from './llm/llm.js';
export { createOpenAiCompatibleLlm } from './llm/openai-compatible.js';
export type { OpenAiCompatibleLlmOptions } from './llm/openai-compatible.js';
export type { Reranker, RerankRequest, RerankResult } from './rank/reranker.js';
export { RerankError } from './rank/reranker.js';
export type { ScoringMethod } from './rank/page-relevance.js';
export type { PageDropReason } from './select/page-selector.js';
export type { WebDropped, WebOptions, WebResponse, WebResult } from './engine/web-types.js';
export type { SafeSearch, SearchBackend, SearchHit, WebSearchOptions, WebSearchOutcome } from './sources/web/search-backend.js';
export { SearchBlockedError } from './sources/web/search-backend.js';
export { createDuckDuckGoBackend } from './sources/web/duckduckgo.js';
export type { DuckDuckGoOptions } from './sources/web/duckduckgo.js';
export { PrivateHostError } from './sources/web/host-guard.js';
export type { LookupFunction } from './sources/web/host-guard.js';
/** Mount the HTTP API (and MCP at /mcp) in your own process: `const app = await createHttpServer(engine); await app.listen({ port })`. */
export { createHttpServer } from './interfaces/http/server.js';
export type { HttpServerOptions } from './interfaces/http/server.js';
/** The MCP server over an engine, for any MCP transport: `await createMcpServer(engine).connect(transport)`. */
export { createMcpServer } from './interfaces/mcp/server.js';
export { handleMcpHttpRequest, runMcpOverStdio } from './interfaces/mcp/transports.js';
export type { AskRequest, ChatRequest, GetPageRequest, SearchRequest, WebRequest } from './interfaces/requests.js';
