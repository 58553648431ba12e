import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { packageRoot } from '../util/package-root.js';

export interface OpenedSqlite<S extends Record<string, unknown>> {
  readonly db: BetterSQLite3Database<S>;
  readonly sqlite: Database.Database;
  close(): void;
}

/** What makes a commit durable (fsynced before it returns): every inbox and state connection. */
export const DURABLE_PRAGMAS = ['journal_mode = WAL', 'synchronous = FULL'] as const;

/**
 * Opens (creating with mode 0600: it may hold hook secrets) a SQLite file in WAL mode with
 * synchronous=FULL, and applies the drizzle migrations of sql/<migrations>/. `pageSize`
 * applies to a file created now (an existing WAL file keeps the page size it was made with).
 */
export function openSqlite<S extends Record<string, unknown>>(
  file: string,
  schema: S,
  migrations: string,
  options: { pageSize?: number } = {},
): OpenedSqlite<S> {
  mkdirSync(dirname(file), { recursive: true });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const sqlite = new Database(file);
  // Before WAL mode: a page size can only be chosen while the file is still empty.
  if (options.pageSize !== undefined) sqlite.pragma(`page_size = ${options.pageSize}`);
  for (const pragma of DURABLE_PRAGMAS) sqlite.pragma(pragma);
  // Writers of other processes (a sync's checkpoints, the CLI's hook commands) hold the lock
  // for milliseconds; wait for them rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  const migrationsFolder = join(packageRoot(), 'sql', migrations);
  try {
    migrate(db, { migrationsFolder });
  } catch {
    // drizzle reads which migrations are applied before its transaction: another process
    // that applied the same ones in between makes this one fail (e.g. "duplicate column").
    // Read again; a migration that really cannot be applied fails again, and that is thrown.
    migrate(db, { migrationsFolder });
  }
  return { db, sqlite, close: () => sqlite.close() };
}
