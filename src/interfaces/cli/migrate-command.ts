import type { Command } from 'commander';
import { migrateStore } from '../../store/open-store.js';

interface MigrateOptions {
  db?: string;
  json?: boolean;
  quiet?: boolean;
}

/**
 * `citedocs migrate`: brings the store named by --db (or CITEDOCS_DB) to the current schema and
 * exits. A PostgreSQL deployment runs it once before starting its replicas and workers (each
 * would also migrate on start, taking turns on an advisory lock).
 */
export function registerMigrateCommand(
  program: Command,
  io: { env: Record<string, string | undefined>; stdout: (text: string) => void },
  withCommon: (command: Command) => Command,
): void {
  withCommon(program.command('migrate').description('bring the index (a SQLite file or a postgres:// database) to the current schema')).action(async (options: MigrateOptions) => {
    const location = options.db ?? io.env['CITEDOCS_DB'] ?? './citedocs.db';
    const report = await migrateStore(location);
    const schema =
      report.from === undefined || report.from === report.schema
        ? `${report.db} is at schema ${report.schema} (current).`
        : `${report.db}: schema ${report.from === 0 ? 'created' : `${report.from} upgraded`} to ${report.schema}.`;
    const human = report.dense === undefined ? schema : `${schema}\nDense search: ${report.dense}.`;
    io.stdout(`${options.json === true ? JSON.stringify(report, null, 2) : human}\n`);
  });
}
