/**
 * drizzle-orm, loaded from its CommonJS build; every module takes drizzle from here, never
 * from 'drizzle-orm' directly, so the two builds' objects never mix.
 *
 * Why: drizzle-orm's package.json is large (an `exports` entry per module), and Node 24
 * parses it again for each of the ES modules an import of drizzle loads: time, and heap kept
 * for the life of the process, on every command that opens the state file (Node 20 pays far
 * less). require() of the CommonJS build does not look the package up per module
 * (figures: bench/RESULTS.md, "Figures moved out of code comments").
 */
import { createRequire } from 'node:module';

// drizzle-kit (npm run db:generate) loads src/state/schema.ts as CommonJS, where
// import.meta.url is not set and __filename is.
const load = createRequire((import.meta as { url?: string }).url ?? __filename);

const orm: typeof import('drizzle-orm') = load('drizzle-orm');
const sqliteCore: typeof import('drizzle-orm/sqlite-core') = load('drizzle-orm/sqlite-core');
const betterSqlite: typeof import('drizzle-orm/better-sqlite3') = load('drizzle-orm/better-sqlite3');
const migrator: typeof import('drizzle-orm/better-sqlite3/migrator') = load(
  'drizzle-orm/better-sqlite3/migrator',
);

export const { and, desc, eq, getTableColumns, gt, inArray, max, sql, sum } = orm;
export const { blob, index, integer, primaryKey, sqliteTable, text } = sqliteCore;
export const { drizzle } = betterSqlite;
export const { migrate } = migrator;
export type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
export type { SQLiteTable } from 'drizzle-orm/sqlite-core';
