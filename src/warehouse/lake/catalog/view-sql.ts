import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { LAST_DATE_COLUMN, LATEST_DIR_NAME, partitionName } from '../core/lake-layout.js';
import type { LakeTable } from '../core/lake-tables.js';

/**
 * The select of a table's view: every column of the migrations, cast to its type, over a
 * read_parquet of the table's files. SQL that DuckDB 1.1 parses.
 * - union_by_name: a file written before a column existed reads it as NULL (the schema anchor
 *   gives its type). It makes DuckDB open every file's footer whenever it plans a query.
 * - Stream tables read their hive column typed as DATE, so a filter on it prunes partitions.
 * - Fact tables' files hold snapshot_date, sorted (row-group statistics prune), each in the
 *   `last_date=` folder of its period. A `pruned` fact table (TableSpec.prunedByDate, every
 *   file with its anchor's columns: factColumnsUniform) is read through those folders without
 *   union_by_name, keeping the rows with `last_date >= snapshot_date` (every row): from that
 *   DuckDB 1.5 derives, for a filter `snapshot_date = D` (or `> D`, `>= D`), `last_date >= D`,
 *   and opens no file of an earlier folder (it does not for a range with an upper bound, an IN
 *   list or a subquery's value: those open every file). Another fact table's view reads every
 *   file of its folders with union_by_name.
 */
export function tableViewSql(lake: string, table: LakeTable, pruned = false): string {
  const root = `${lake}/${table.name}`;
  if (table.partitionColumn) return viewSelect(table, hiveSource(root, table.partitionColumn, true));
  if (table.kind !== 'fact') return viewSelect(table, globSource(`${root}/*.parquet`));
  if (!pruned)
    return viewSelect(table, globSource(`${root}/${partitionName(LAST_DATE_COLUMN, '*')}/*.parquet`));
  return `${viewSelect(table, hiveSource(root, LAST_DATE_COLUMN, false))}\n where ${id(LAST_DATE_COLUMN)} >= snapshot_date`;
}

/**
 * The view of a fact table's latest snapshot per segment (`latest_<table>`): one flat folder
 * of a day file per segment.
 */
export function latestViewSql(lake: string, table: LakeTable): string {
  return viewSelect(table, globSource(`${lake}/${LATEST_DIR_NAME}/${table.name}/*.parquet`));
}

function viewSelect(table: LakeTable, source: string): string {
  const columns = table.columns
    .map((c) => `cast(${id(c.name)} as ${c.type}) as ${id(c.name)}`)
    .join(',\n       ');
  return `select ${columns}\n  from ${source}`;
}

/** The files of `root`'s `<column>=<date>` folders, the column typed DATE (a filter on it skips folders). */
function hiveSource(root: string, column: string, unionByName: boolean): string {
  const glob = `${root}/${partitionName(column, '*')}/*.parquet`;
  return `read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = ${unionByName}, hive_types = {${sqlString(column)}: 'DATE'})`;
}

/** The files `glob` matches, no hive column, merged by column name. */
function globSource(glob: string): string {
  return `read_parquet(${sqlString(glob)}, hive_partitioning = false, union_by_name = true)`;
}
