/**
 * A store interface as one SQLite connection runs it: each method returning `Promise<R>` returns
 * `R` at once (better-sqlite3 is synchronous), sub-stores likewise. The asynchronous handle
 * (`createSqliteStore`) wraps these.
 */
export type Synchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K] extends object ? Synchronous<T[K]> : T[K];
};
