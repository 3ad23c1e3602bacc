import type { Engine, SourceSummary } from '../../engine/engine-types.js';

/** What `GET /api/sources` returns: what the index holds, for the chat page's empty state. */
export interface IndexOverview {
  pages: number;
  chunks: number;
  /** The documentation sets, largest first. */
  sources: SourceSummary[];
  /** A few questions a reader could ask: the operator's, or topics taken from page titles. */
  examples: string[];
}

const EXAMPLES = 4;
/** Titles that name a page of the site's machinery, not a topic. */
const GENERIC_TITLES = new Set(['index', 'contents', 'table of contents', 'search', 'search page', 'home', 'welcome', 'overview', 'introduction', 'glossary', 'changelog', 'license']);

export async function indexOverview(engine: Engine, configuredExamples: readonly string[] = []): Promise<IndexOverview> {
  const stats = await engine.stats();
  const examples = configuredExamples.length > 0 ? configuredExamples.slice(0, 8) : topicsOf(await engine.samplePages(EXAMPLES * 8));
  return { pages: stats.pages, chunks: stats.chunks, sources: await engine.listSources(), examples };
}

/**
 * Topics from page titles: the part before a site-name suffix ("Dropping a table — PostgreSQL
 * docs" → "Dropping a table") without chapter numbers, from the deepest pages first (a leaf
 * page names a task; a hub page names a book), without generic pages or repeats, at most four.
 */
export function topicsOf(pages: readonly { url: string; title: string }[]): string[] {
  const topics: string[] = [];
  const seen = new Set<string>();
  const deepestFirst = [...pages].sort((a, b) => depthOf(b.url) - depthOf(a.url));
  for (const { title } of deepestFirst) {
    const topic = (title.split(/\s+[|—–-]\s+/)[0] ?? '')
      .replace(/^(?:chapter|part|section)?\s*[\d.]+\s+/i, '')
      .replace(/[\s¶#]+$/, '')
      .trim();
    const key = topic.toLowerCase();
    if (topic.length < 3 || topic.length > 70 || !/\p{L}/u.test(topic) || GENERIC_TITLES.has(key) || /\bdocumentation$/i.test(topic) || seen.has(key)) continue;
    seen.add(key);
    topics.push(topic);
    if (topics.length === EXAMPLES) break;
  }
  return topics;
}

/** Path segments of a URL ("/docs/guide/tables/dropping.html": 4); a folder's index page counts as the folder. */
function depthOf(url: string): number {
  const path = URL.canParse(url) ? new URL(url).pathname : url;
  return path.replace(/\/(?:index\.html?)?$/, '').split('/').filter(Boolean).length;
}
