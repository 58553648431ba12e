import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// The ONE place that picks which better-sqlite3 this process loads. No single release runs on
// every Node this tool supports:
// - 12 wraps its objects in node::ObjectWrap; on Node 24 that destructor asserts a current
//   environment, which a garbage collection may not have: a Statement or connection collected
//   at the wrong moment aborts the process ("Assertion failed: (env) != nullptr", exit 134).
// - 13 is built on Node-API 10 and ships one prebuilt binary per platform, ABI-stable across
//   Node versions; Node-API 10 came with Node 22.14, and loading it on an older Node (20.x and
//   22.13 report Node-API 9) does not throw: it crashes the process.
// So the choice is made from the running Node's Node-API version before either is loaded. The
// inbox's worker thread is handed SQLITE_DRIVER; .mjs test children import the built module.

/** The package better-sqlite3 is loaded from: 12 under its own name, 13 under an npm alias. */
export type SqliteDriver = 'better-sqlite3' | 'better-sqlite3-13';

/** The Node-API version better-sqlite3 13's prebuilt binaries are compiled for (NAPI_VERSION in its binding.gyp). */
const NODE_API_OF_13 = 10;

/**
 * The package to load on a Node whose process.versions are `versions`: 13 where its Node-API 10
 * binary can run (all of Node 24, Node 22.14+), else 12 (Node 20, Node 22.12-22.13, where 12's
 * ObjectWrap has no such abort).
 */
export function sqliteDriverFor(versions: Readonly<Record<string, string | undefined>>): SqliteDriver {
  return Number(versions.napi ?? 0) >= NODE_API_OF_13 ? 'better-sqlite3-13' : 'better-sqlite3';
}

/** The package `Database` comes from in this process. */
export const SQLITE_DRIVER = sqliteDriverFor(process.versions);

/**
 * better-sqlite3's Database constructor, of the major the running Node can run without crashing.
 * Every connection this tool (and its tests) opens comes from here: a value import of
 * 'better-sqlite3' would load 12, which aborts on Node 24.
 */
export const Database = createRequire(import.meta.url)(SQLITE_DRIVER) as typeof BetterSqlite3;
/** An open connection; both majors have the API @types/better-sqlite3 describes. */
export type Database = BetterSqlite3.Database;
export type { Statement } from 'better-sqlite3';
