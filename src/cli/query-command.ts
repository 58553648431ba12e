import type { Command } from 'commander';
import { firstLine } from '../util/first-line.js';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';
import { readableDataDir } from './readable-data-dir.js';

const FORMATS = ['table', 'csv', 'json'] as const;

/**
 * `campaign-warehouse query "SQL"`: runs one query on the published warehouse, opened
 * read-only (it never blocks a sync or the sink's loader, and never writes).
 */
export function registerQuery(program: Command): void {
  program
    .command('query')
    .description('run one read-only SQL query on the published warehouse')
    .argument('<sql>', 'the SQL to run, e.g. "select * from latest_sync"')
    .option('--format <format>', `output format: ${FORMATS.join(', ')}`, 'table')
    .option(...dataDirOption('folder of warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .action(async (sql: string, options: { format: string; dataDir?: string; config?: string }) => {
      const format = FORMATS.find((f) => f === options.format);
      if (!format)
        throw new UserError(`--format must be one of ${FORMATS.join(', ')}, not "${options.format}"`);
      const dataDir = await readableDataDir(options);
      const { queryReadOnly } = await import('../warehouse/query-read-only.js');
      const { formatResult } = await import('../warehouse/format-result.js');
      let result: Awaited<ReturnType<typeof queryReadOnly>>;
      try {
        result = await queryReadOnly(dataDir, sql);
      } catch (error) {
        if (error instanceof UserError) throw error;
        throw new UserError(`query failed: ${firstLine(error)}`, { cause: error });
      }
      process.stdout.write(formatResult(result, format, { color: process.stdout.isTTY === true }));
    });
}
