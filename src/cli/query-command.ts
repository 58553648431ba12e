import { type Command, InvalidArgumentError } from 'commander';
import { UserError } from '../util/user-error.js';
import { MIN_COLUMN_WIDTH } from '../warehouse/read/text-table.js';
import { CONFIG_OPTION, dataDirOption } from './data-dir-options.js';
import { readableDataDir } from './readable-data-dir.js';

const FORMATS = ['table', 'records', 'csv', 'json'] as const;
/** The narrowest --width: a column name and a few characters of its value. */
const MIN_WIDTH = 20;

interface QueryFlags {
  format: string;
  json?: boolean;
  width?: number;
  dataDir?: string;
  config?: string;
}

/**
 * `campaign-warehouse query "SQL"`: runs one statement on the published warehouse, opened
 * read-only (it never blocks a sync or the sink's loader, and never writes: see query-user-sql.ts).
 */
export function registerQuery(program: Command): void {
  program
    .command('query')
    .description('run one read-only SQL query on the published warehouse')
    .argument('<sql>', 'the SQL to run, e.g. "select * from latest_sync"')
    .option(
      '--format <format>',
      `output format: ${FORMATS.join(', ')}. table: one line per row, a rule under the header; when ` +
        `its columns cannot each keep ${MIN_COLUMN_WIDTH} characters within the width, each row is printed as a record ` +
        '(one "column │ value" line per column), as records does. json: JSON columns (raw) as JSON, ' +
        'integers beyond 2^53 digit for digit',
      'table',
    )
    .option('--json', 'the same as --format json')
    .option(
      '--width <columns>',
      'table and records: fit the output in this many columns, long values cut with … ' +
        "(0: no limit, every value whole). Default: COLUMNS when set, else the terminal's width; " +
        'piped to a file or another program, no limit',
      widthColumns,
    )
    .option(...dataDirOption('folder of warehouse.duckdb'))
    .option(...CONFIG_OPTION)
    .action(async (sql: string, options: QueryFlags) => {
      const format = FORMATS.find((f) => f === options.format);
      if (!format)
        throw new UserError(`--format must be one of ${FORMATS.join(', ')}, not "${options.format}"`);
      if (options.json && format !== 'json' && options.format !== 'table')
        throw new UserError(`--json and --format ${format} ask for two formats: give one`);
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
      process.stdout.write(
        formatResult(result, options.json ? 'json' : format, {
          color: process.stdout.isTTY === true,
          width: outputWidth(options.width),
        }),
      );
    });
}

/**
 * The columns a table fits in: --width (0: no limit), else COLUMNS (as ls and psql read it),
 * else the terminal's width. Output that goes to a file or a pipe keeps every value whole: a
 * program reading it, or `less -S`, loses nothing, and grep finds the whole value.
 */
function outputWidth(flag: number | undefined): number | undefined {
  if (flag !== undefined) return flag === 0 ? undefined : flag;
  const env = Number(process.env.COLUMNS);
  if (Number.isInteger(env) && env >= MIN_WIDTH) return env;
  return process.stdout.isTTY && process.stdout.columns
    ? Math.max(MIN_WIDTH, process.stdout.columns)
    : undefined;
}

function widthColumns(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || (value !== 0 && value < MIN_WIDTH) || value > 100_000)
    throw new InvalidArgumentError(
      `expected 0 (no limit) or a number of columns from ${MIN_WIDTH} to 100000`,
    );
  return value;
}
