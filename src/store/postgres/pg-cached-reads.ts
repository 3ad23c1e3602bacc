import { isTransientConnectionError } from './connection.js';
import { unreachableError, type VersionWatch } from './pg-version-watch.js';

/** Entries kept at most; past it the cache starts over (the next reads go to the database). */
export const CACHED_READS_MAX_ENTRIES = 20_000;

interface Entry {
  version: string;
  value: unknown;
}

/**
 * Reads of a search kept by the data version they were read at, so that a replica asks the
 * database only what changed since (most searches: nothing but the version, once per
 * freshMs). The last value read is also what the replica answers with while the database is
 * unreachable. Reads are labelled with the version known before they were made: data newer
 * than its label is read again when the version moves, never the other way round.
 */
export class CachedReads {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly watch: VersionWatch,
    private readonly name: string,
    private readonly maxEntries = CACHED_READS_MAX_ENTRIES,
  ) {}

  /** One value: from memory while the version holds, else read (and on a connection failure, the last value known). */
  async read<T>(key: string, what: string, read: () => Promise<T>): Promise<T> {
    const { version, live } = await this.version();
    const entry = this.entries.get(key);
    if (entry !== undefined && (!live || entry.version === version.key)) return entry.value as T;
    if (!live) throw unreachableError(this.name, what);
    try {
      const value = await read();
      this.put(key, { version: version.key, value });
      return value;
    } catch (error) {
      if (!this.watch.failed(error)) throw error;
      if (entry !== undefined) return entry.value as T;
      throw unreachableError(this.name, what, error);
    }
  }

  /**
   * Values of many ids, each kept on its own (`prefix` + id), so that the next call reads only
   * the ids it has not seen at this version; an id `readMissing` does not return has no value.
   */
  async readEach<T>(prefix: string, ids: readonly string[], what: string, readMissing: (ids: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
    const { version, live } = await this.version();
    const found = new Map<string, T>();
    const missing: string[] = [];
    const stale = new Map<string, Entry>();
    for (const id of new Set(ids)) {
      const entry = this.entries.get(prefix + id);
      if (entry !== undefined && (!live || entry.version === version.key)) {
        if (entry.value !== undefined) found.set(id, entry.value as T);
      } else {
        missing.push(id);
        if (entry !== undefined) stale.set(id, entry);
      }
    }
    if (missing.length === 0) return found;
    if (!live) throw unreachableError(this.name, what);
    try {
      const read = await readMissing(missing);
      for (const id of missing) {
        const value = read.get(id);
        this.put(prefix + id, { version: version.key, value });
        if (value !== undefined) found.set(id, value);
      }
      return found;
    } catch (error) {
      if (!this.watch.failed(error)) throw error;
      if (stale.size < missing.length) throw unreachableError(this.name, what, error);
      for (const [id, entry] of stale) if (entry.value !== undefined) found.set(id, entry.value as T);
      return found;
    }
  }

  /** Read every time; the last value known answers while the database is unreachable. */
  async lastKnown<T>(key: string, what: string, read: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (this.watch.offline() && entry !== undefined) return entry.value as T;
    try {
      const value = await read();
      this.put(key, { version: '', value });
      return value;
    } catch (error) {
      if (!this.watch.failed(error)) throw error;
      if (entry !== undefined) return entry.value as T;
      throw unreachableError(this.name, what, error);
    }
  }

  /** The version now; not live while the database is unreachable (and no version at all when it never answered). */
  private async version(): Promise<{ version: { key: string }; live: true } | { version: { key: string } | undefined; live: false }> {
    try {
      return await this.watch.current();
    } catch (error) {
      if (!isTransientConnectionError(error)) throw error;
      return { version: undefined, live: false };
    }
  }

  private put(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, entry);
  }
}
