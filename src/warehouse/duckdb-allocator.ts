/**
 * DuckDB's bundled allocator (jemalloc, built in with the `duckdb_je_` prefix) keeps the pages
 * a query frees and returns them to the system only over time, so a large sync's RSS ran well
 * above what DuckDB itself counted as used under its memory limit. Returning freed pages at once
 * keeps the process near DuckDB's limits. The price is CPU: a madvise and page faults for every
 * block a statement frees. Returning them after a short delay instead makes a sync much faster
 * for more peak RSS, past the memory bench's bound, so the default stays at once; an operator
 * who prefers the speed sets DUCKDB_JE_MALLOC_CONF=dirty_decay_ms:10,muzzy_decay_ms:0 (the
 * figures: bench/RESULTS.md, "Figures moved out of code comments").
 *
 * jemalloc reads this once, when libduckdb is loaded: import this module before anything that
 * loads `@duckdb/node-api` (the CLI and the benchmarks import it first). An operator's own
 * DUCKDB_JE_MALLOC_CONF is left as it is.
 */
import { DEMO_ALLOCATOR_CONF, DUCKDB_ALLOCATOR_CONF } from './allocator-settings.js';

/**
 * Commands that only read the warehouse keep DuckDB's own setting, as an analyst's DuckDB client
 * does: returning every freed page at once made a question several times slower (a window sort
 * faults fresh pages in: bench/RESULTS.md, "Figures moved out of code comments"), and a reader
 * holds no sync's memory bound.
 */
const READ_ONLY_COMMANDS = new Set(['query', 'report', 'status']);

/** The CLI's command: its first argument that is not an option. */
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));

if (!READ_ONLY_COMMANDS.has(command ?? ''))
  process.env.DUCKDB_JE_MALLOC_CONF ??= command === 'demo' ? DEMO_ALLOCATOR_CONF : DUCKDB_ALLOCATOR_CONF;
