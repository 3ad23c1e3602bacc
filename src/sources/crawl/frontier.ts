import type { FrontierEntry } from '../../core/types.js';

export type { FrontierEntry } from '../../core/types.js';

/**
 * Where a crawl keeps the URLs it has found and fetched. The engine backs it with the
 * store, so a crawl killed at any moment resumes from the stored frontier.
 */
export interface CrawlFrontier {
  /** What an interrupted run of the same crawl left: URLs still queued and all URLs seen. */
  resume(): { queued: FrontierEntry[]; seen: string[] };
  add(entries: readonly FrontierEntry[]): void;
  done(url: string): void;
  /** The crawl ran to its end: nothing to resume next time. */
  finish(): void;
}

/** A frontier that lives as long as the crawl (library use and tests). */
export function createMemoryFrontier(): CrawlFrontier {
  return { resume: () => ({ queued: [], seen: [] }), add: () => undefined, done: () => undefined, finish: () => undefined };
}
