import type { Command } from 'commander';
import { UserError } from '../util/user-error.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';
import { readableDataDir } from './readable-data-dir.js';

const FORMATS = ['table', 'csv', 'json'] as const;

/**
 * `campaign-warehouse query "SQL"`: runs one statement on the published warehouse, opened
 * read-only (it never blocks a sync or the sink's loader, and never writes: see query-user-sql.ts).
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
      const { queryUserSql } = await import('../warehouse/index.js');
      const { formatResult } = await import('../warehouse/index.js');
      let result: Awaited<ReturnType<typeof queryUserSql>>;
      try {
        result = await queryUserSql(dataDir, sql);
      } catch (error) {
        if (error instanceof UserError) throw error;
        // DuckDB's whole message: its hint ("Did you mean ...?", the caret under the spot) is
        // what the user needs to fix the query.
        throw new UserError(`query failed: ${(error as Error).message.trimEnd()}`, { cause: error });
      }
      process.stdout.write(formatResult(result, format, { color: process.stdout.isTTY === true }));
    });
}
