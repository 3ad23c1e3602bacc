/**
 * The pipeline's stages, in order, plus the two servers: what a log line and a diagnostic are
 * about. `CITEDOCS_LOG=crawl=debug,rank=info` names them.
 */
export const STAGES = ['crawl', 'extract', 'chunk', 'index', 'embed', 'retrieve', 'rank', 'select', 'answer', 'llm', 'web', 'http', 'mcp'] as const;

export type Stage = (typeof STAGES)[number];

export function isStage(name: string): name is Stage {
  return (STAGES as readonly string[]).includes(name);
}
