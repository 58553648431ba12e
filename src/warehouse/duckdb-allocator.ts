/**
 * DuckDB's bundled allocator (jemalloc, built in with the `duckdb_je_` prefix) keeps the pages
 * a query frees and returns them to the system only over time (about 10 s by default). A sync
 * publishing 1M posts thus ran ~60 MB of RSS above what DuckDB itself counted as used under its
 * 48 MB memory limit. Freed pages are returned within 10 ms: near DuckDB's limits still, and
 * the pages a statement frees are reused by the next instead of being returned and faulted
 * back in. Returning them at once (0 ms) kept RSS ~35 MB lower (100k posts: 221 MB instead of
 * 258 MB) but cost a demo-size sync ~1.3 s of CPU (half of it system time: a madvise and page
 * faults per freed block; each of the sync's ~100 statements sets up and frees its hash tables)
 * and made a 100k-post sync 2 to 3 times slower (measured, bench/RESULTS.md).
 *
 * jemalloc reads this once, when libduckdb is loaded: import this module before anything that
 * loads `@duckdb/node-api` (the CLI and the benchmarks import it first). An operator's own
 * DUCKDB_JE_MALLOC_CONF is left as it is.
 */
export const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:10,muzzy_decay_ms:0';

process.env.DUCKDB_JE_MALLOC_CONF ??= DUCKDB_ALLOCATOR_CONF;
