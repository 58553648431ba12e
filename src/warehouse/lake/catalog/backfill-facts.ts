import { join } from 'node:path';
import type { BackfilledColumn } from '../../../contracts/table-registry.js';
import { packageRoot } from '../../../util/package-root.js';
import { sqlBody } from '../../duckdb/sql-body.js';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { factFileName, isDay, periodEnd, periodStart } from '../core/lake-layout.js';
import { fileColumns, type LakeTable } from '../core/lake-tables.js';
import { type FactFile, factVersion, readFactFile } from '../facts/fact-files.js';
import { periodRowGroupRows, readFactFiles } from '../facts/write-period.js';
import type { LakeTransaction, NewVersion } from '../lake-transaction.js';

/**
 * The paths among `paths` (files of a fact table) whose rows lack a column of
 * `table.backfilled` (BackfilledColumn: absent, or more NULLs than the column it sums), each
 * with its row count; from their footers only.
 */
export async function filesToBackfill(
  tx: LakeTransaction,
  table: LakeTable,
  paths: readonly string[],
): Promise<Map<string, number>> {
  const lacking = new Map<string, number>();
  if (table.backfilled.length === 0 || paths.length === 0) return lacking;
  const names = table.backfilled.flatMap((b) => [b.column, ...(b.sumOf ? [b.sumOf] : [])]);
  // Every file's row count (from any one column's chunks) and each named column's NULLs.
  const reader = await tx.connection.runAndReadAll(
    `select file_name, path_in_schema, sum(coalesce(stats_null_count, 0)), sum(row_group_num_rows)
       from parquet_metadata([${paths.map(sqlString).join(', ')}])
      where path_in_schema in (${[...names, 'snapshot_date'].map(sqlString).join(', ')})
      group by file_name, path_in_schema`,
  );
  const nulls = new Map<string, number>();
  const rows = new Map<string, number>();
  for (const [file, column, n, count] of reader.getRows()) {
    nulls.set(`${file}\n${column}`, Number(n));
    rows.set(String(file), Number(count));
  }
  for (const path of paths) {
    const count = (column: string) => nulls.get(`${path}\n${column}`);
    const lacks = ({ column, sumOf }: BackfilledColumn) =>
      count(column) === undefined || (sumOf !== undefined && count(column)! > (count(sumOf) ?? Infinity));
    if (table.backfilled.some(lacks)) lacking.set(path, rows.get(path) ?? 0);
  }
  return lacking;
}

/**
 * Writes `file`'s rows (`rows` of them) into `version` with the backfilled columns computed by
 * sql/warehouse/backfill/<table>.sql (as a new file of the same period and segment), sorted by
 * the table's key. There `main.<table>` reads as the file's rows (without the backfilled
 * columns), another fact table `main.<fact>` as its live files of the same segment whose
 * periods meet the file's. Fails, nothing changed, unless it writes exactly `rows`. Run it
 * inside withPeriodWriteSettings (a year's file).
 */
export async function backfillFile(
  tx: LakeTransaction,
  table: LakeTable,
  version: NewVersion,
  file: FactFile,
  rows: number,
): Promise<void> {
  const computed = table.backfilled.map((b) => sqlString(b.column)).join(', ');
  const own = `(select columns(c -> c not in (${computed})) from ${readFactFile(file.path)})`;
  const sql = backfillSql(table.name).replace(/\bmain\.([a-z_]+)\b/g, (_source, name: string) =>
    name === table.name ? own : rowsMeeting(tx, name, file),
  );
  const columns = fileColumns(table).map((c) => id(c.name));
  const written = await tx.write(
    `select ${columns.join(', ')} from (${sql}
) order by ${table.keys.map(id).join(', ')}`,
    version,
    factFileName(file.period, file.segment, version.vid),
    isDay(file.period) ? { wide: table.wide } : { rowGroupRows: periodRowGroupRows(table) },
  );
  if (written !== rows)
    throw new Error(
      `warehouse: computing ${table.backfilled.map((b) => b.column).join(', ')} of ${table.name} for ${file.name}: ${written} rows written, the file holds ${rows}; nothing was changed`,
    );
}

/**
 * Another table's rows as the backfill of `file` reads them: a fact table's live files of the
 * file's segment whose periods meet its own (not every footer of the table), or the empty
 * migrated table when it has none.
 */
function rowsMeeting(tx: LakeTransaction, name: string, file: FactFile): string {
  const other = tx.tables.get(name);
  const live = other?.kind === 'fact' ? factVersion(tx.lake, name) : undefined;
  const meeting = (live?.files ?? []).filter(
    (f) =>
      f.segment === file.segment &&
      periodStart(f.period) <= periodEnd(file.period) &&
      periodStart(file.period) <= periodEnd(f.period),
  );
  return other && meeting.length > 0
    ? `(${readFactFiles(
        other,
        live?.anchor,
        meeting.map((f) => f.path),
      )})`
    : `memory.main.${id(name)}`;
}

/**
 * sql/warehouse/backfill/<table>.sql without its comment lines: a `main.<table>` named in one
 * would take the lines of the select put in its place out of the comment.
 */
function backfillSql(table: string): string {
  return sqlBody(join(packageRoot(), 'sql', 'warehouse', 'backfill', `${table}.sql`))
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
}
