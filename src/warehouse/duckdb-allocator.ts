/**
 * DuckDB's bundled allocator (jemalloc, built in with the `duckdb_je_` prefix) keeps the pages
 * a query frees and returns them to the system only over time (about 10 s by default). A sync
 * publishing 1M posts thus ran ~60 MB of RSS above what DuckDB itself counted as used under its
 * 48 MB memory limit. Returning freed pages at once keeps the process near DuckDB's limits, for
 * about a quarter more time spent in a publish (1M posts: about 9 s instead of 7 s; measured).
 *
 * jemalloc reads this once, when libduckdb is loaded: import this module before anything that
 * loads `@duckdb/node-api` (the CLI and the benchmarks import it first). An operator's own
 * DUCKDB_JE_MALLOC_CONF is left as it is.
 */
export const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:0,muzzy_decay_ms:0';

process.env.DUCKDB_JE_MALLOC_CONF ??= DUCKDB_ALLOCATOR_CONF;
