import type { Command } from 'commander';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(
      'last runs, freshness and row counts of the warehouse, hooks, inbox backlog, last delivery and publish',
    )
    .option('--data-dir <dir>', 'data directory [env CW_DATA_DIR] (default ./data)')
    .option('--json', 'print as JSON')
    .action(async (flags: { dataDir?: string; json?: boolean }) => {
      const [{ statusReport, formatStatus }, { existingDataDir }] = await Promise.all([
        import('./status-report.js'),
        import('../config/data-dir.js'),
      ]);
      const report = await statusReport(existingDataDir(flags.dataDir));
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    });
}
