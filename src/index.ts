export { createEngine } from './engine/engine.js';
export type { Engine, EngineDependencies, SearchOptions, SearchResponse, SearchResult, AskOptions, AskResponse } from './engine/engine.js';
export type { IngestOptions, IngestReport, IngestProgress, IngestError } from './engine/ingest.js';
export { configSchema, DEFAULT_CONFIG, parseConfig } from './core/config.js';
export type { CitedocsConfig, CitedocsConfigInput } from './core/config.js';
export { CitedocsError, UsageError, ConfigError, SourceError, StoreError } from './core/errors.js';
export type * from './core/types.js';
export { runCli } from './interfaces/cli/main.js';
