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
      const { statusReport, formatStatus } = await import('./status-report.js');
      const report = await statusReport(flags.dataDir ?? process.env.CW_DATA_DIR ?? './data');
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    });
}
