import type { FrontierEntry } from '../../core/types.js';

export type { FrontierEntry } from '../../core/types.js';

/**
 * Where a crawl keeps the URLs it has found and fetched. The engine backs it with the
 * store, so a crawl killed at any moment resumes from the stored frontier.
 */
export interface CrawlFrontier {
  /** What an interrupted run of the same crawl left: URLs still queued and all URLs seen. */
  resume(): MaybePromise<{ queued: FrontierEntry[]; seen: string[] }>;
  add(entries: readonly FrontierEntry[]): MaybePromise<void>;
  done(url: string): MaybePromise<void>;
  /** The crawl ran to its end: nothing to resume next time. */
  finish(): MaybePromise<void>;
  /**
   * A frontier shared by crawls in other processes (ingest workers on one database) has these:
   * `claim` takes a URL before it is fetched (false: another worker holds it or fetched it);
   * `more` gives entries no worker holds (found by others, or whose worker died) when this
   * crawl's own queue is empty, with `waiting` set while other workers still hold some (so the
   * crawl is not over); `hostSlot` is the wait before a request to this host, so the crawl
   * delay holds across workers.
   */
  shared?: {
    claim(url: string): Promise<boolean>;
    more(limit: number): Promise<{ entries: FrontierEntry[]; waiting: boolean }>;
    hostSlot(url: string, delayMs: number): Promise<number>;
  };
}

/** A store-backed frontier answers asynchronously; the crawl awaits each call in order. */
type MaybePromise<T> = T | Promise<T>;

/** A frontier that lives as long as the crawl (library use and tests). */
export function createMemoryFrontier(): CrawlFrontier {
  return { resume: () => ({ queued: [], seen: [] }), add: () => undefined, done: () => undefined, finish: () => undefined };
}
