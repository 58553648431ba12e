import type { Command } from 'commander';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'what `npm start` runs: the simulator in-process, a sync into the data directory, analyst questions,\n' +
        'then hooks pushing signed documents to an in-process sink (a duplicate and a forged push included),\n' +
        'and last the HTML report (<data-dir>/report.html)',
    )
    .option('--data-dir <dir>', 'data directory [env CW_DATA_DIR] (default ./data)')
    .action(async (flags: { dataDir?: string }) => {
      const [{ runDemo }, { createLogger }, { resolveDataDir }] = await Promise.all([
        import('./run-demo.js'),
        import('../util/logger.js'),
        import('../config/data-dir.js'),
      ]);
      const dataDir = resolveDataDir(flags.dataDir);
      const logger = createLogger('demo');
      // The demo's own story goes to stdout; keep the JSON log for warnings and errors.
      logger.level = process.env.CW_LOG_LEVEL ?? 'warn';
      await runDemo(dataDir, logger);
    });
}
