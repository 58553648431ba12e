import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The sink's loader thread and the CLI's child processes run the built code.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Integration tests start simulators, sinks and child processes on loopback; two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
