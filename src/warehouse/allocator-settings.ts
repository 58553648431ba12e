/**
 * The values of DUCKDB_JE_MALLOC_CONF this tool sets (duckdb-allocator.ts says when), apart from
 * that module so that what only needs a value (the test suite's config) sets nothing by loading it.
 */

/** The default: freed pages returned at once (duckdb-allocator.ts says why). */
export const DUCKDB_ALLOCATOR_CONF = 'dirty_decay_ms:0,muzzy_decay_ms:0';

/**
 * The demo's (`npm start`): its syncs are small, far from the memory bound the default protects,
 * and it runs for seconds: freed pages are kept for 10 s, so the blocks its many short statements
 * free are reused without a page fault, instead of returned and faulted in again (less CPU than at
 * 10 ms for the same peak RSS: bench/RESULTS.md, "Figures moved out of code comments"). Every other
 * command keeps the default.
 */
export const DEMO_ALLOCATOR_CONF = 'dirty_decay_ms:10000,muzzy_decay_ms:10000';
