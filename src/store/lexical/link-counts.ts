/** Link counts of the keys that have any, capped as the priors read them, and their largest values over live documents. */
export interface LinkCounts {
  entryLinks: Map<number, number>;
  pageLinks: Map<number, number>;
  maxEntryLinks: number;
  maxPageLinks: number;
}

/** A row of lexical_keys with links: its counts, and how many live documents use the key. */
export interface LinkKeyRow {
  id: number;
  entry_links: number;
  page_links: number;
  docs: number;
}

const CAP = 65_535;

/** The link counts the scorer reads, from the rows of the keys that have links (in any store). */
export function linkCountsOf(rows: Iterable<LinkKeyRow>): LinkCounts {
  const counts: LinkCounts = { entryLinks: new Map(), pageLinks: new Map(), maxEntryLinks: 0, maxPageLinks: 0 };
  for (const row of rows) {
    const entry = Math.min(row.entry_links, CAP);
    const page = Math.min(row.page_links, CAP);
    if (entry > 0) counts.entryLinks.set(row.id, entry);
    if (page > 0) counts.pageLinks.set(row.id, page);
    // The largest count over live documents: a key no document uses sets no maximum.
    if (row.docs > 0) {
      counts.maxEntryLinks = Math.max(counts.maxEntryLinks, entry);
      counts.maxPageLinks = Math.max(counts.maxPageLinks, page);
    }
  }
  return counts;
}
