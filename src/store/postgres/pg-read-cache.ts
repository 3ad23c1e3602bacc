/** How a cache learns of an outage of the database: whether reads should not be tried now, and whether a failure was one. */
export interface OutageSignal {
  offline(): boolean;
  failed(error: unknown): boolean;
}

const NO_OUTAGES: OutageSignal = { offline: () => false, failed: () => false };

/**
 * Page reads (a stored page, its anchors) kept for a moment: an answer's link check reads the
 * same pages as the answers before it, and on a database each read is a round trip. An entry
 * serves only while the index generation this process last searched is the one it was read at
 * (a page changed by any process moves the generation) and for at most `ttlMs` (a page
 * confirmed unchanged keeps the generation, so its new fetch time shows after that); the
 * handle's own writes clear it at once. While the database is unreachable, the last value read
 * of a key answers (a replica keeps serving what it has); a failed read without one is never kept.
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, { generation: number; at: number; value: Promise<T> }>();
  constructor(
    private readonly generation: () => number,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 5_000,
    private readonly now: () => number = Date.now,
    private readonly outage: OutageSignal = NO_OUTAGES,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generation();
    const known = this.entries.get(key);
    if (known !== undefined && ((known.generation === generation && this.now() - known.at < this.ttlMs) || this.outage.offline())) return known.value;
    const value = read().catch((error: unknown) => {
      if (known !== undefined && this.outage.failed(error)) return known.value;
      throw error;
    });
    value.catch(() => this.entries.delete(key));
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { generation, at: this.now(), value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
