/**
 * The contract of a store of LLM judgements (rank/ uses one, the web cache in sources/ keeps one
 * on disk): the model's reply text per judgement key. Synchronous, so a table in the SQLite store
 * (better-sqlite3 is synchronous) can implement it as it is.
 */
export interface JudgementCache {
  get(key: string): string | undefined;
  set(key: string, reply: string): void;
}
