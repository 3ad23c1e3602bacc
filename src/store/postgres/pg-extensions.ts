import type pg from 'pg';

/** The `vector` extension (pgvector) as the server offers it, or undefined when it does not. */
export interface VectorExtension {
  /** The version `CREATE EXTENSION vector` would install. */
  defaultVersion: string;
  /** The version installed in this database, if it is. */
  installedVersion?: string;
}

/** Whether the server offers pgvector (`pg_available_extensions`), and in which version. */
export async function vectorExtension(db: Pick<pg.Pool, 'query'>): Promise<VectorExtension | undefined> {
  const row = (
    await db.query<{ default_version: string; installed_version: string | null }>("SELECT default_version, installed_version FROM pg_available_extensions WHERE name = 'vector'")
  ).rows[0];
  if (row === undefined) return undefined;
  return { defaultVersion: row.default_version, ...(row.installed_version === null ? {} : { installedVersion: row.installed_version }) };
}

/**
 * How dense search runs on this server, as `citedocs migrate` reports it. Always the in-process
 * 1-bit scan: a search through pgvector is not written yet (it could not be tested where
 * citedocs is built: Debian bookworm's PostgreSQL 15 has no pgvector package), so a server that
 * offers it is told so, not used.
 */
export function describeDenseSearch(extension: VectorExtension | undefined): string {
  if (extension === undefined) return 'in-process 1-bit scan (pgvector not available on this server)';
  return `in-process 1-bit scan (pgvector ${extension.installedVersion ?? extension.defaultVersion} is available on this server; citedocs does not use it yet)`;
}
