/**
 * Page reads (a stored page, its anchors) kept for a moment: an answer's link check reads the
 * same pages as the answers before it, and on a database each read is a round trip. An entry
 * serves only while the index generation this process last searched is the one it was read at
 * (a page changed by any process moves the generation) and for at most `ttlMs` (a page
 * confirmed unchanged keeps the generation, so its new fetch time shows after that); the
 * handle's own writes clear it at once.
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, { generation: number; at: number; value: Promise<T> }>();
  constructor(
    private readonly generation: () => number,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    const generation = this.generation();
    const known = this.entries.get(key);
    if (known !== undefined && known.generation === generation && this.now() - known.at < this.ttlMs) return known.value;
    const value = read();
    // A failed read is never kept.
    value.catch(() => this.entries.delete(key));
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { generation, at: this.now(), value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
