import type { Command } from 'commander';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';
import { readableDataDir } from './readable-data-dir.js';
import { collect } from './sync-command.js';

/**
 * `campaign-warehouse report`: one self-contained HTML file (charts and their tables, no
 * script, nothing fetched) from the published warehouse, opened read-only.
 */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'write a self-contained HTML report (freshness, data checks, charts with their tables) from the published warehouse',
    )
    .option(...dataDirOption('folder of warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .option('--out <file>', 'the HTML file to write (default: <data-dir>/report.html)')
    .option('--campaign <id>', 'only this campaign (repeatable; default: all, the top 5 over time)', collect)
    .option('--segment <name>', 'the segment to show (default: all: the unfiltered figures)')
    .option('--days <n>', 'the N days of snapshots up to the latest one (default: 30)')
    .action(async (flags: ReportFlags) => {
      const { defaultReportPath, parseDays, DEFAULT_DAYS, DEFAULT_SEGMENT } = await import(
        '../report/report-options.js'
      );
      const days = flags.days === undefined ? DEFAULT_DAYS : parseDays(flags.days);
      const dataDir = await readableDataDir(flags);
      const { writeReport } = await import('../report/write-report.js');
      const written = await writeReport({
        dataDir,
        out: flags.out ?? defaultReportPath(dataDir),
        campaigns: [...new Set(flags.campaign ?? [])],
        segment: flags.segment ?? DEFAULT_SEGMENT,
        days,
      });
      process.stdout.write(`${written.path}\n`);
    });
}

interface ReportFlags {
  dataDir?: string;
  config?: string;
  out?: string;
  campaign?: string[];
  segment?: string;
  days?: string;
}
