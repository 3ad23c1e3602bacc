import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { IngestJob, Store } from '../store/store.js';
import type { IngestOptions, IngestProgress, IngestReport } from './ingest.js';

type Ingest = (input: string, options: IngestOptions) => Promise<IngestReport>;

/** Progress is written to the index at most this often (a job's list is read by other processes). */
const PROGRESS_INTERVAL_MS = 1000;

/**
 * Ingests run as recorded jobs, one after another (an engine writes through one connection):
 * each is listed in the index file with its state and progress, so `citedocs jobs` in another
 * process sees it. A job killed with its process stays `running` in the list; ingesting the
 * same URL again resumes its crawl from the stored frontier.
 */
export function createJobRunner(dbPath: string, ingest: Ingest, now: () => Date) {
  let queue: Promise<unknown> = Promise.resolve();
  const withStore = <T>(action: (store: Store) => T): T => {
    const store = createSqliteStore(dbPath, 'write');
    try {
      return action(store);
    } finally {
      store.close();
    }
  };
  const jobOf = (id: number): IngestJob => {
    const job = withStore((store) => store.catalog.listJobs().find((entry) => entry.id === id));
    if (job === undefined) throw new Error(`job ${id} is not recorded`);
    return job;
  };
  return {
    start(url: string, options: Pick<IngestOptions, 'library' | 'version' | 'onProgress'>): Promise<{ id: number; done: Promise<IngestJob> }> {
      const id = withStore((store) => store.catalog.startJob({ library: options.library ?? '', version: options.version ?? '', url, startedAt: now().toISOString() }));
      let lastWrite = 0;
      const onProgress = (progress: IngestProgress) => {
        options.onProgress?.(progress);
        const time = now().getTime();
        if (time - lastWrite < PROGRESS_INTERVAL_MS) return;
        lastWrite = time;
        withStore((store) => store.catalog.updateJob(id, { progress: { ...progress } }));
      };
      const run = async (): Promise<IngestJob> => {
        try {
          const report = await ingest(url, { ...(options.library === undefined ? {} : { library: options.library }), ...(options.version === undefined ? {} : { version: options.version }), onProgress });
          const failed = report.pages === 0 && report.removed === 0;
          withStore((store) => {
            store.catalog.updateJob(id, {
              state: failed ? 'failed' : 'complete',
              // A limit that ended the run early is said here too (issue 27), as ingest says it.
              progress: { fetched: report.fetched, pages: report.pages, errors: report.errors.length, ...(report.stoppedBy === undefined ? {} : { stoppedBy: report.stoppedBy }) },
              endedAt: now().toISOString(),
              ...(failed ? { error: report.stopped ?? report.errors[0]?.message ?? `nothing was ingested from ${url}` } : {}),
            });
          });
          if (report.library !== undefined && report.version !== undefined) renameJob(id, report.library, report.version);
        } catch (error) {
          withStore((store) => store.catalog.updateJob(id, { state: 'failed', endedAt: now().toISOString(), error: error instanceof Error ? error.message : String(error) }));
        }
        return jobOf(id);
      };
      const done = queue.then(run, run);
      queue = done.catch(() => undefined);
      return Promise.resolve({ id, done });
    },
    /** Settles when every job started so far has ended. */
    async idle(): Promise<void> {
      await queue;
    },
  };

  function renameJob(id: number, library: string, version: string): void {
    withStore((store) => store.catalog.updateJob(id, { library, version }));
  }
}
