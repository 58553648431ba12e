import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { UserError } from '../util/user-error.js';
import { type BetterSQLite3Database, drizzle, migrate } from './drizzle.js';
import { Database } from './sqlite-database.js';

export interface OpenedSqlite<S extends Record<string, unknown>> {
  readonly db: BetterSQLite3Database<S>;
  readonly sqlite: Database;
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
  try {
    return prepare(sqlite, schema, migrations, options);
  } catch (error) {
    sqlite.close();
    throw unreadable(error, file);
  }
}

function prepare<S extends Record<string, unknown>>(
  sqlite: Database,
  schema: S,
  migrations: string,
  options: { pageSize?: number },
): OpenedSqlite<S> {
  // Before WAL mode: a page size can only be chosen while the file is still empty.
  if (options.pageSize !== undefined) sqlite.pragma(`page_size = ${options.pageSize}`);
  for (const pragma of DURABLE_PRAGMAS) sqlite.pragma(pragma);
  // Writers of other processes (a sync's checkpoints, the CLI's hook commands) hold the lock
  // for milliseconds; wait for them rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  const migrationsFolder = migrationsFolderOf(migrations);
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

/** A SQLite file opened read-only: nothing is created, migrated or written. */
export interface ReadOnlySqlite<S extends Record<string, unknown>> extends OpenedSqlite<S> {
  /** Migrations of sql/<migrations>/ the file lacks: the next process that opens it to write applies them. */
  readonly pending: readonly string[];
}

/**
 * Opens an existing SQLite file read-only, for readers that must change nothing (`status`,
 * which may run beside an older `serve`): no migration is applied; `pending` names those the
 * file lacks, so the caller reads what the older schema has. Undefined when there is no file.
 */
export function openSqliteReadOnly<S extends Record<string, unknown>>(
  file: string,
  schema: S,
  migrations: string,
): ReadOnlySqlite<S> | undefined {
  if (!existsSync(file)) return undefined;
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const pending = pendingMigrations(sqlite, migrationsFolderOf(migrations));
    return { db: drizzle(sqlite, { schema }), sqlite, pending, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw unreadable(error, file);
  }
}

/** A file that is not a SQLite database (or a damaged one) as a one-line UserError naming it. */
function unreadable(error: unknown, file: string): unknown {
  const code = (error as { code?: string }).code;
  if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') return error;
  return new UserError(`${file}: not a readable SQLite database (${code})`, { cause: error });
}

function migrationsFolderOf(migrations: string): string {
  return join(packageRoot(), 'sql', migrations);
}

/** The journal's migrations after the last one the file records (drizzle's own rule for what to apply). */
function pendingMigrations(sqlite: Database, folder: string): string[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const recorded = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  const last = recorded
    ? (sqlite.prepare('select max(created_at) from __drizzle_migrations').pluck().get() as number | null)
    : null;
  return journal.entries.filter((entry) => last === null || entry.when > Number(last)).map((e) => e.tag);
}
