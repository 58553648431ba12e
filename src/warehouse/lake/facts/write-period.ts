import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { factFileName, monthOf } from '../core/lake-layout.js';
import { fileColumns, type LakeTable } from '../core/lake-tables.js';
import { type LakeTransaction, type NewVersion, WIDE_ROW_GROUP_SIZE } from '../lake-transaction.js';
import { readFactFile } from './fact-files.js';

/**
 * Rows per row group of a closed period's file (ten days, a month or a year). Its rows are sorted
 * by snapshot_date, so each group's min/max statistics let a one-day question skip the others (for
 * a large account's per-post tables a group spans a day or two at most). DuckDB's writer holds a
 * whole group uncompressed until it is written: groups this size keep a period's write within the
 * upkeep's memory, where groups four times larger took several times as much, for a larger footer
 * and larger files than those would give (figures: bench/RESULTS.md, "Figures moved out of code
 * comments"). Wide tables (a JSON column) keep WIDE_ROW_GROUP_SIZE.
 */
export const PERIOD_ROW_GROUP_SIZE = 262_144;

/**
 * DuckDB's memory limit while a closed period's file is written (then set back): the
 * writer's group of PERIOD_ROW_GROUP_SIZE rows needs more than the publish's limit
 * (PUBLISH_SETTINGS), under which it spills and runs several times slower, and a higher limit
 * only lets the buffer pool grow: the upkeep runs in the sync's process, whose peak the
 * `memory` bench bounds (figures: bench/RESULTS.md, "Figures moved out of code comments").
 */
export const PERIOD_WRITE_MEMORY = '128MB';

export function periodRowGroupRows(table: LakeTable): number {
  return table.wide ? WIDE_ROW_GROUP_SIZE : PERIOD_ROW_GROUP_SIZE;
}

/**
 * Runs `work` with the memory limit raised to PERIOD_WRITE_MEMORY and insertion order kept
 * (a COPY of files listed by date then writes them in that order, with no sort), then sets
 * both back. Each change of the limit purges the allocator of the whole process (DuckDB's
 * FlushAll): a caller runs all its writePeriodFile calls in one call of this.
 */
export async function withPeriodWriteSettings<T>(
  connection: DuckDBConnection,
  work: () => Promise<T>,
): Promise<T> {
  const reader = await connection.runAndReadAll(
    "select current_setting('memory_limit'), current_setting('preserve_insertion_order')",
  );
  const [memory, order] = reader.getRows()[0]!.map(String) as [string, string];
  await connection.run(`set memory_limit = ${sqlString(PERIOD_WRITE_MEMORY)}`);
  await connection.run('set preserve_insertion_order = true');
  try {
    return await work();
  } finally {
    await connection.run(`set memory_limit = ${sqlString(memory)}`);
    await connection.run(`set preserve_insertion_order = ${order === 'true'}`);
  }
}

/**
 * The table's file columns read from `paths` (fact files of any release since FACT_LAYOUT 2)
 * with the schema anchor first: a column a migration added after a file was written reads
 * as NULL, typed by the anchor (none yet after a conversion: the files' own columns).
 */
export function readFactFiles(
  table: LakeTable,
  anchor: string | undefined,
  paths: readonly string[],
): string {
  const columns = fileColumns(table)
    .map((c) => id(c.name))
    .join(', ');
  const files = anchor ? [anchor, ...paths] : paths;
  return `select ${columns} from ${readFactFile(files, ', union_by_name = true')}`;
}

/**
 * Writes `select`'s rows (one closed period of one segment: ten days, a month or a year) into
 * `version` as that period's file, by snapshot_date in PERIOD_ROW_GROUP_SIZE groups. Run it
 * inside withPeriodWriteSettings. `inDateOrder`: `select` already yields its rows by date (files
 * read in date order, or a date's rows put in place between the others'): no sort, which
 * would need as much memory as the period and spill again. Returns the rows written.
 */
export function writePeriodFile(
  tx: LakeTransaction,
  table: LakeTable,
  version: NewVersion,
  period: string,
  segment: string,
  select: string,
  inDateOrder = false,
): Promise<number> {
  return tx.write(
    inDateOrder ? select : `select * from (${select}) order by snapshot_date`,
    version,
    factFileName(period, segment, version.vid),
    { rowGroupRows: periodRowGroupRows(table) },
  );
}

/**
 * Writes a fact table's history into `version` in the layout: a month file per closed month
 * and segment, a day file per day of the open month (the month of the newest of `days`) and
 * segment. `days`: every date and segment holding rows; `rows(dates, segment)`: a select of
 * those dates' rows of the segment (file columns), by date when `inDateOrder` (no sort then).
 * Closed years stay month files here (an upgrade, a conversion): the next upkeep
 * (consolidateFacts) writes their year files from those sorted months with no sort, whereas a
 * year's `rows` need not come by date and would be sorted whole; it also writes the open
 * month's closed ten days from their day files. Returns the rows written.
 */
export async function writeFactHistory(
  tx: LakeTransaction,
  table: LakeTable,
  version: NewVersion,
  days: readonly { date: string; segment: string }[],
  rows: (dates: readonly string[], segment: string) => string,
  inDateOrder = false,
): Promise<number> {
  const open = monthOf(days.map((d) => d.date).sort()[days.length - 1] ?? '');
  const closed = new Map<string, { month: string; segment: string; dates: string[] }>();
  let written = 0;
  for (const { date, segment } of days) {
    const month = monthOf(date);
    if (month >= open) {
      const name = factFileName(date, segment, version.vid);
      written += await tx.write(rows([date], segment), version, name, { wide: table.wide });
      continue;
    }
    const key = `${month}~${segment}`;
    const group = closed.get(key) ?? { month, segment, dates: [] };
    group.dates.push(date);
    closed.set(key, group);
  }
  if (closed.size > 0)
    await withPeriodWriteSettings(tx.connection, async () => {
      for (const { month, segment, dates } of closed.values())
        written += await writePeriodFile(
          tx,
          table,
          version,
          month,
          segment,
          rows(dates.sort(), segment),
          inDateOrder,
        );
    });
  return written;
}
