import { createHash } from 'node:crypto';
import type { CatalogStore } from '../store.js';
import type { VectorStore } from '../vectors.js';
import type { CachedReads } from './pg-cached-reads.js';

/** Runs a write, then lets this process's next read check the version again (its own write is seen at once). */
type AfterWrite = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;

/**
 * The catalog as a replica reads it: the reads of every search (source names, the source of each
 * page) kept by data version, the list of sources read every time but answered from memory while
 * the database is unreachable. Each write of sources moves the catalog's version.
 */
export function replicaCatalog(catalog: CatalogStore, cached: CachedReads, afterWrite: AfterWrite): CatalogStore {
  return {
    ...catalog,
    upsertSource: afterWrite(catalog.upsertSource),
    renameSource: afterWrite(catalog.renameSource),
    recordCrawl: afterWrite(catalog.recordCrawl),
    deleteSource: afterWrite(catalog.deleteSource),
    listSources: () => cached.lastKnown('sources', 'the list of sources', catalog.listSources),
    sourceNames: () => cached.read('source-names', 'the names of the sources', catalog.sourceNames),
    sourceLabels: (urls) => cached.readEach('source-of\u0000', urls, 'the sources of pages', (missing) => catalog.sourceLabels(missing)),
  };
}

/**
 * Vectors as a replica reads them: what the index is embedded with and the vectors of passages
 * kept by data version (both change only with the vectors' version); a dense search read every
 * time, and answered with its last result while the database is unreachable.
 */
export function replicaVectors(vectors: VectorStore, cached: CachedReads, writable: () => void, afterWrite: AfterWrite): VectorStore {
  const info = () => cached.read('vectors-info', 'what the index is embedded with', vectors.info);
  return {
    ...vectors,
    useModel: afterWrite((...args: Parameters<VectorStore['useModel']>) => (writable(), vectors.useModel(...args))),
    putVectors: afterWrite((...args: Parameters<VectorStore['putVectors']>) => (writable(), vectors.putVectors(...args))),
    info,
    // An index embedded with no model has no vectors (a model is set before any is stored): nothing to read.
    vectorsOf: async (chunkIds) =>
      (await info()) === undefined ? new Map() : cached.readEach('vector\u0000', chunkIds, 'the vectors of passages', (missing) => vectors.vectorsOf(missing)),
    searchVectors: (query, options) => {
      const key = createHash('sha256').update(new Uint8Array(query.buffer, query.byteOffset, query.byteLength)).update(JSON.stringify(options)).digest('base64');
      return cached.lastKnown(`dense\u0000${key}`, 'a dense search', () => vectors.searchVectors(query, options));
    },
  };
}
