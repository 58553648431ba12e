import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { packageRoot } from '../util/package-root.js';

/** The package better-sqlite3 is loaded from: 12 under its own name, 13 under an npm alias. */
export type SqliteDriver = 'better-sqlite3' | 'better-sqlite3-13';

/**
 * sqlite-driver.cjs, where the better-sqlite3 major this Node can run is chosen. Found from the
 * package root (like the inbox's worker) so src/ and dist/src/ load the same file.
 */
const driver = createRequire(import.meta.url)(join(packageRoot(), 'src', 'state', 'sqlite-driver.cjs')) as {
  readonly Database: typeof BetterSqlite3;
  readonly SQLITE_DRIVER: SqliteDriver;
  sqliteDriverFor(versions: Readonly<Record<string, string | undefined>>): SqliteDriver;
};

/**
 * better-sqlite3's Database constructor, of the major the running Node can run without crashing
 * (see sqlite-driver.cjs). Every connection this tool (and its tests) opens comes from here:
 * a value import of 'better-sqlite3' would load 12, which aborts on Node 24.
 */
export const Database = driver.Database;
/** An open connection; both majors have the API @types/better-sqlite3 describes. */
export type Database = BetterSqlite3.Database;
export type { Statement } from 'better-sqlite3';

/** The package `Database` comes from: 'better-sqlite3' (12) or its alias 'better-sqlite3-13'. */
export const SQLITE_DRIVER = driver.SQLITE_DRIVER;
/** Which package a Node with these process.versions loads (pure; for tests and diagnostics). */
export const sqliteDriverFor = driver.sqliteDriverFor;
