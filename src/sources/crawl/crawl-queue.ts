import type { SourceItem } from '../../core/types.js';
import type { CrawlFrontier, FrontierEntry } from './frontier.js';
import type { RobotsPolicy } from './robots.js';
import { type CrawlScope, folderUrlOf, pageUrlOf, type ScopeRules, urlTrapReason } from './url-scope.js';

/** Depth of a revalidation task: a stored page nothing links to any more; its links are not followed. */
const REVALIDATION_DEPTH = -1;

/** A URL to fetch, and whether its links are followed. */
export interface Task extends FrontierEntry {
  expand: boolean;
}

/**
 * The URLs of one crawl run: those seen (never queued twice) and those queued, every one
 * added to the frontier as it is queued so an interrupted crawl resumes where it stopped.
 */
export interface CrawlQueue {
  /** Waiting to be fetched, in order. */
  readonly tasks: Task[];
  readonly seen: Set<string>;
  /**
   * Queues the links in the scope not seen yet (a folder's URL for its index page) where
   * robots.txt allows; nothing past `maxDepth`. Returns the notices of trap limits that
   * stopped a link, each limit once per crawl, with the first URL it stopped.
   */
  enqueue(links: readonly string[], depth: number): Promise<SourceItem[]>;
  /** A server without folder indexes serves `guide/index.html` but not `guide/`: its index file is queued first, once. False when not worth a try. */
  retryIndexFile(task: Task): Promise<boolean>;
  /** Entries another worker of a shared crawl found (or left when it died), queued as this run's own. */
  adopt(entries: readonly FrontierEntry[]): void;
  /**
   * Queues the stored pages nothing linked to in this run (`knownUrls`), to be confirmed or
   * removed, their links not followed; yields those no longer in the scope as gone.
   */
  revalidate(knownUrls: readonly string[]): AsyncGenerator<SourceItem>;
}

export interface CrawlQueueOptions {
  frontier: CrawlFrontier;
  startUrl: string;
  scope: CrawlScope;
  robots: RobotsPolicy;
  rules: ScopeRules;
  maxDepth: number;
}

/** The queue of a crawl, started from what an interrupted run of it left in the frontier. */
export async function openCrawlQueue(options: CrawlQueueOptions): Promise<CrawlQueue> {
  const { frontier, scope, robots, rules, maxDepth } = options;
  const resumed = await frontier.resume();
  const seen = new Set<string>([options.startUrl, ...resumed.seen]);
  const tasks: Task[] = resumed.queued.map(taskOf);
  const triedIndexFiles = new Set<string>();
  const trapsReported = new Set<string>();

  /** The notice of a link outside the scope, the first time its trap limit stops one. */
  const trapNotice = (link: string): SourceItem | undefined => {
    const trap = sameOrigin(link, scope.origin) ? urlTrapReason(link, rules) : undefined;
    const limit = trap === undefined ? undefined : /crawl\.\w+/.exec(trap)?.[0];
    if (trap === undefined || limit === undefined || trapsReported.has(limit)) return undefined;
    trapsReported.add(limit);
    return { kind: 'error', input: link.slice(0, 200), message: `Links like ${shorten(link)} were not followed: ${trap}. The site may be a crawler trap; others like it are skipped without notice` };
  };

  return {
    tasks,
    seen,
    async enqueue(links, depth) {
      if (depth > maxDepth) return [];
      const notices: SourceItem[] = [];
      const added: Task[] = [];
      for (const link of links) {
        if (!scope.contains(link)) {
          const notice = trapNotice(link);
          if (notice !== undefined) notices.push(notice);
          continue;
        }
        const original = pageUrlOf(link);
        const folder = folderUrlOf(original);
        const url = folder !== undefined && scope.contains(folder) ? folder : original;
        if (seen.has(url) || seen.has(original) || !robots.isAllowed(url)) continue;
        seen.add(url);
        seen.add(original);
        added.push({ url, depth, expand: true });
      }
      tasks.push(...added);
      await frontier.add(added);
      return notices;
    },
    async retryIndexFile(task) {
      const indexFile = task.url.endsWith('/') && !triedIndexFiles.has(task.url) ? `${task.url}index.html` : undefined;
      if (indexFile === undefined || !scope.contains(indexFile) || !robots.isAllowed(indexFile)) return false;
      triedIndexFiles.add(task.url);
      seen.add(indexFile);
      tasks.unshift({ ...task, url: indexFile });
      await frontier.add([{ url: indexFile, depth: task.depth }]);
      return true;
    },
    adopt(entries) {
      for (const entry of entries) {
        seen.add(entry.url);
        tasks.push(taskOf(entry));
      }
    },
    async *revalidate(knownUrls) {
      for (const url of knownUrls) {
        if (seen.has(url)) continue;
        if (!scope.contains(url) || !robots.isAllowed(url)) {
          yield { kind: 'gone', url, reason: 'outside the crawl scope' };
          continue;
        }
        seen.add(url);
        tasks.push({ url, depth: REVALIDATION_DEPTH, expand: false });
      }
      await frontier.add(tasks);
    },
  };
}

function taskOf(entry: FrontierEntry): Task {
  return { ...entry, expand: entry.depth !== REVALIDATION_DEPTH };
}

function sameOrigin(url: string, origin: string): boolean {
  return URL.canParse(url) && new URL(url).origin === origin;
}

function shorten(url: string): string {
  return url.length > 120 ? `${url.slice(0, 120)}…` : url;
}
