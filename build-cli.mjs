// Bundles the `campaign-warehouse` executable and the sink's loader thread into dist/cli/
// (`npm run build`, after tsc).
//
// Why: a command started from tsc's output resolves, reads and links several hundred files
// (undici, the AWS SDK and our own modules) before it does anything. One file per command's
// lazily loaded part spares every start, a cron job's `sync` or a BI tool's `status`, most of
// that work (`npm run bench -- cli-start`; figures: bench/RESULTS.md, "The CLI's start, and the
// suite after it").
//
// What stays outside: the native modules (DuckDB's binding, whose loading must follow
// src/warehouse/duckdb-allocator.ts, and better-sqlite3, which src/state/sqlite-database.ts picks
// by Node's version at run time). Files the code finds from the package root (sql/, the sink's
// inbox-commit-worker.cjs) are read where they are, as from tsc's output.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';

/**
 * src/state/drizzle.ts requires drizzle-orm's CommonJS build through createRequire, which a
 * bundler cannot follow; in the bundle its calls become plain require() calls, which esbuild
 * resolves to the same CommonJS build and bundles.
 */
const drizzleBundled = {
  name: 'drizzle-bundled',
  setup(build) {
    let rewritten = false;
    build.onLoad({ filter: /[\\/]src[\\/]state[\\/]drizzle\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/\bload\((?=\s*'drizzle-orm)/g, 'require(');
      rewritten = contents !== source && !/\bload\(\s*'/.test(contents);
      return { contents, loader: 'ts' };
    });
    // Loud, not slow: should drizzle.ts change its shape, the bundle must not quietly load
    // drizzle-orm at run time beside the bundled copy.
    build.onEnd(() => {
      if (!rewritten)
        throw new Error(
          "build-cli: src/state/drizzle.ts's load('drizzle-orm…') calls were not all rewritten",
        );
    });
  },
};

// Chunk names change with their content: last build's would stay beside this one's.
rmSync('dist/cli', { recursive: true, force: true });
await build({
  // The executable, and the sink's loader thread (src/sink/loader-thread.ts starts it from here).
  entryPoints: { main: 'src/cli/main.ts', 'loader-worker': 'src/sink/loader-worker.ts' },
  outdir: 'dist/cli',
  bundle: true,
  // Each command's lazily imported modules become their own chunks: `--help` loads none of them.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@duckdb/node-bindings', 'better-sqlite3', 'better-sqlite3-13'],
  plugins: [drizzleBundled],
  // The CommonJS packages bundled into ES modules call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
