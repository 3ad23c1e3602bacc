import { sha256 } from '../core/hash.js';
import type { Page } from '../core/types.js';
import type { IngestDependencies, IngestReport } from './ingest.js';
import { chunkingKey, loadChunker } from './stage-loaders.js';

/** A document given directly (an evaluation corpus, a library caller's own pages). */
export interface DirectDocument {
  url: string;
  title: string;
  markdown: string;
}

/** Chunks and stores documents given as Markdown, one transaction each; unchanged ones are skipped. */
export async function ingestDocuments(
  documents: Iterable<DirectDocument>,
  dependencies: Pick<IngestDependencies, 'config' | 'openStore' | 'tokenizer' | 'now'>,
): Promise<IngestReport> {
  const report: IngestReport = { pages: 0, chunks: 0, added: 0, changed: 0, unchanged: 0, removed: 0, fetched: 0, duplicates: 0, errors: [], warnings: [], diagnostics: [], interrupted: false };
  const chunk = await loadChunker();
  const tokenizer = await dependencies.tokenizer();
  const now = (dependencies.now ?? (() => new Date()))().toISOString();
  const store = dependencies.openStore();
  const chunking = chunkingKey(dependencies.config);
  for (const document of documents) {
    const contentHash = sha256(`${document.title}\n${document.markdown}`);
    report.pages += 1;
    report.fetched += 1;
    const stored = await store.getPage(document.url);
    const rechunk = stored !== undefined && stored.chunking !== chunking;
    if (stored?.contentHash === contentHash && !rechunk) {
      report.unchanged += 1;
      report.chunks += stored.chunkCount;
      continue;
    }
    const page: Page = { url: document.url, canonicalUrl: document.url, title: document.title, markdown: document.markdown, headings: [], anchors: [], contentHash, fetchedAt: now, source: 'local', chunking };
    const chunks = chunk(page, { maxTokens: dependencies.config.chunk.maxTokens, overlapTokens: dependencies.config.chunk.overlapTokens, tokenizer });
    report[await store.upsertPage(page, chunks, { rechunked: rechunk })] += 1;
    report.chunks += chunks.length;
  }
  return report;
}
