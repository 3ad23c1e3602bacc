/**
 * The version of what extraction makes of a page, part of the key the index stores each page's
 * passages under: a page read by an older extraction is read again in full at the next ingest
 * (a stored page whose site still answers 304 would keep its old passages for good). Raise it
 * when a change makes pages yield other passages, or none (a source listing no longer stored).
 * Kept apart from the extractor, which loads on first use.
 */
export const EXTRACTION_VERSION = 3;
