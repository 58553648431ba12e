import { defineConfig } from 'vitest/config';
import { DEMO_ALLOCATOR_CONF } from './src/warehouse/allocator-settings.js';

/**
 * Four tiers, one project each (`npm run test:unit`, `test:integration`, `test:e2e`, `test:fuzz`);
 * `npm test` runs all four. Unit tests touch no network and no child process; integration tests use
 * real DuckDB and SQLite files, loopback HTTP and child processes; e2e tests drive the built CLI and
 * a real browser as a user would; fuzz tests feed generated bad input (fast-check) to the
 * normalizers, the reply classifier and the sink, a fixed seed and few cases here (`npm run fuzz`
 * runs more, from a random seed: test/fuzz/fuzz-params.ts).
 */
const tier = (name: 'unit' | 'integration' | 'e2e' | 'fuzz', options: { isolate?: boolean } = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...options },
});

export default defineConfig({
  test: {
    // One process per worker, not one per file (isolate: false): a process and its imports cost
    // about a second of CPU per file, and the suite is CPU-bound on two cores (bench/RESULTS.md,
    // "The suite's time"). A test restores what it changes (docs/contributing.md). The fuzz tier
    // gains nothing from it and keeps a process per file.
    projects: [
      tier('unit', { isolate: false }),
      tier('integration', { isolate: false }),
      tier('e2e', { isolate: false }),
      tier('fuzz'),
    ],
    // Each test file's temporary folders are removed after its last test (temp-dir.ts).
    setupFiles: ['test/helpers/remove-temp-dirs.ts'],
    // The sink's loader thread and the CLI's child processes run the built code.
    globalSetup: ['test/helpers/global-setup.ts'],
    // The suite's processes, the CLI's children above all, keep the blocks DuckDB frees for 10 s
    // to reuse them, as the demo does (src/warehouse/duckdb-allocator.ts), rather than return each
    // at once, which costs a CLI sync CPU in page faults. What the default protects, a large
    // sync's peak memory, is the memory benchmark's subject, not the tests' (bench/RESULTS.md,
    // "The suite's time").
    env: { DUCKDB_JE_MALLOC_CONF: DEMO_ALLOCATOR_CONF },
    // Integration tests start simulators, sinks and child processes on loopback; two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
