// Bundles the `campaign-warehouse` executable into dist/cli/ (`npm run build`, after tsc).
//
// Why: a command started from tsc's output resolves, reads and links several hundred files
// (undici, the AWS SDK and our own modules) before it does anything. One file per command's
// lazily loaded part spares every start, a cron job's `sync` or a BI tool's `status`, most of
// that work (figures: bench/RESULTS.md, "The CLI's start").
//
// What stays outside: packages loaded through createRequire at run time (better-sqlite3 and
// drizzle-orm, see src/state/), and DuckDB's native binding, whose loading must follow
// src/warehouse/duckdb-allocator.ts. Files the code finds from the package root (sql/, the sink's
// worker threads under dist/src/) are read where they are, as from tsc's output.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names change with their content: last build's would stay beside this one's.
rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  bundle: true,
  // Each command's lazily imported modules become their own chunks: `--help` loads none of them.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@duckdb/node-bindings', 'better-sqlite3', 'better-sqlite3-13', 'drizzle-orm'],
  // The CommonJS packages bundled into ES modules call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
