import type { Command } from 'commander';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(
      'last runs, freshness and row counts of the warehouse, hooks, inbox backlog, last delivery and publish, ' +
        'and the remote lake per table (what this data directory last committed there; no request is made)',
    )
    .option(...dataDirOption())
    .option(...CONFIG_OPTION)
    .option('--json', 'print as JSON')
    .action(async (flags: { dataDir?: string; config?: string; json?: boolean }) => {
      const [{ statusReport, formatStatus }, { readerDataDir }, { resolveRemoteSetting }] = await Promise.all(
        [
          import('./status-report.js'),
          import('../config/command-data-dir.js'),
          import('../remote/resolve-push-settings.js'),
        ],
      );
      // The remote of the config or CW_REMOTE: shown before its first commit too (status sends no request).
      const report = await statusReport(readerDataDir(flags), resolveRemoteSetting(flags)?.url);
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    });
}
