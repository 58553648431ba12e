// The ONE place that picks which better-sqlite3 this process loads. Plain CommonJS so the same
// file serves the TypeScript code (through sqlite-database.ts), the inbox's worker thread
// (src/sink/inbox-commit-worker.cjs) and the test helpers that are plain .mjs children.
//
// No single better-sqlite3 runs on every Node this tool supports:
// - 12 wraps its objects in node::ObjectWrap; on Node 24 that destructor asserts a current
//   environment, which a garbage collection may not have: a Statement collected at the wrong
//   moment aborts the process ("Assertion failed: (env) != nullptr", exit 134).
// - 13 is built on Node-API 10 and ships one prebuilt binary per platform, ABI-stable across
//   Node versions; Node-API 10 came with Node 22.14 (and 23.6), and loading it on an older
//   Node (20.x reports Node-API 9) does not throw: it crashes the process.
// So the choice is made from the running Node's Node-API version before either is loaded.
'use strict';

/** The Node-API version better-sqlite3 13's prebuilt binaries are compiled for (NAPI_VERSION in its binding.gyp). */
const NODE_API_OF_13 = 10;

/** better-sqlite3 12 (package.json "better-sqlite3"): Node 20 and Node 22 before 22.14. */
const PACKAGE_12 = 'better-sqlite3';

/** better-sqlite3 13, installed under an npm alias (package.json "better-sqlite3-13"). */
const PACKAGE_13 = 'better-sqlite3-13';

/**
 * The package name to load on a Node whose process.versions are `versions`: 13 where its
 * Node-API 10 binary can run (all of Node 24, Node 22.14+), else 12 (Node 20, Node 22.0-22.13,
 * where 12's ObjectWrap has no such abort).
 * @param {Readonly<Record<string, string | undefined>>} versions process.versions, or one like it
 * @returns {'better-sqlite3' | 'better-sqlite3-13'}
 */
function sqliteDriverFor(versions) {
  return Number(versions.napi ?? 0) >= NODE_API_OF_13 ? PACKAGE_13 : PACKAGE_12;
}

/** The package this process uses. */
const SQLITE_DRIVER = sqliteDriverFor(process.versions);

module.exports = {
  sqliteDriverFor,
  SQLITE_DRIVER,
  /** better-sqlite3's Database constructor, from SQLITE_DRIVER. */
  Database: require(SQLITE_DRIVER),
};
