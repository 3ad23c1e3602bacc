import type { IngestJob, Store } from '../store/store.js';
import type { IngestOptions, IngestProgress, IngestReport } from './ingest.js';

type Ingest = (input: string, options: IngestOptions) => Promise<IngestReport>;

/** Progress is written to the index at most this often (a job's list is read by other processes). */
const PROGRESS_INTERVAL_MS = 1000;

/**
 * Ingests run as recorded jobs, one after another (an engine writes through one handle):
 * each is listed in the index with its state and progress, so `citedocs jobs` in another
 * process sees it. A job killed with its process stays `running` in the list; ingesting the
 * same URL again resumes its crawl from the stored frontier.
 */
export function createJobRunner(store: () => Store, ingest: Ingest, now: () => Date) {
  let queue: Promise<unknown> = Promise.resolve();
  const jobOf = async (id: number): Promise<IngestJob> => {
    const job = (await store().catalog.listJobs()).find((entry) => entry.id === id);
    if (job === undefined) throw new Error(`job ${id} is not recorded`);
    return job;
  };
  return {
    async start(url: string, options: Pick<IngestOptions, 'library' | 'version' | 'onProgress'>): Promise<{ id: number; done: Promise<IngestJob> }> {
      const id = await store().catalog.startJob({ library: options.library ?? '', version: options.version ?? '', url, startedAt: now().toISOString() });
      let lastWrite = 0;
      // Progress writes go one after another, all before the job's final state; the first failure fails the job.
      let progressWrites = Promise.resolve();
      let progressFailure: { error: unknown } | undefined;
      const onProgress = (progress: IngestProgress) => {
        options.onProgress?.(progress);
        const time = now().getTime();
        if (time - lastWrite < PROGRESS_INTERVAL_MS) return;
        lastWrite = time;
        const update = { progress: { ...progress } };
        progressWrites = progressWrites.then(() => store().catalog.updateJob(id, update)).catch((error: unknown) => void (progressFailure ??= { error }));
      };
      const run = async (): Promise<IngestJob> => {
        try {
          const report = await ingest(url, { ...(options.library === undefined ? {} : { library: options.library }), ...(options.version === undefined ? {} : { version: options.version }), onProgress });
          await progressWrites;
          if (progressFailure !== undefined) throw progressFailure.error;
          const failed = report.pages === 0 && report.removed === 0;
          await store().catalog.updateJob(id, {
            state: failed ? 'failed' : 'complete',
            // A limit that ended the run early is said here too (issue 27), as ingest says it.
            progress: { fetched: report.fetched, pages: report.pages, errors: report.errors.length, ...(report.stoppedBy === undefined ? {} : { stoppedBy: report.stoppedBy }) },
            endedAt: now().toISOString(),
            ...(failed ? { error: report.stopped ?? report.errors[0]?.message ?? `nothing was ingested from ${url}` } : {}),
          });
          if (report.library !== undefined && report.version !== undefined) await store().catalog.updateJob(id, { library: report.library, version: report.version });
        } catch (error) {
          await progressWrites;
          await store().catalog.updateJob(id, { state: 'failed', endedAt: now().toISOString(), error: error instanceof Error ? error.message : String(error) });
        }
        return jobOf(id);
      };
      const done = queue.then(run, run);
      queue = done.catch(() => undefined);
      return { id, done };
    },
    /** Settles when every job started so far has ended. */
    async idle(): Promise<void> {
      await queue;
    },
  };
}
