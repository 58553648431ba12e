import { sqlIdentifier as id, sqlString } from '../../warehouse-paths.js';
import { LATEST_DIR_NAME } from '../core/lake-layout.js';
import type { LakeTable } from '../core/lake-tables.js';

/**
 * The select of a table's view: every column of the migrations, cast to its type, over a
 * read_parquet of the table's files. union_by_name: a file written before a column existed
 * reads it as NULL (the schema anchor gives its type). Stream tables read their hive column
 * typed as DATE, so a filter on it prunes partitions; fact tables' files hold snapshot_date,
 * sorted, so a filter on it prunes row groups by their statistics. SQL that DuckDB 1.1 parses.
 */
export function tableViewSql(lake: string, table: LakeTable, root = `${lake}/${table.name}`): string {
  const columns = table.columns
    .map((c) => `cast(${id(c.name)} as ${c.type}) as ${id(c.name)}`)
    .join(',\n       ');
  const source = table.partitionColumn
    ? `read_parquet(${sqlString(`${root}/${table.partitionColumn}=*/*.parquet`)}, hive_partitioning = true, union_by_name = true, hive_types = {${sqlString(table.partitionColumn)}: 'DATE'})`
    : `read_parquet(${sqlString(`${root}/*.parquet`)}, hive_partitioning = false, union_by_name = true)`;
  return `select ${columns}\n  from ${source}`;
}

/** The view of a fact table's latest snapshot per segment (`lake_latest.<table>`). */
export function latestViewSql(lake: string, table: LakeTable): string {
  return tableViewSql(lake, table, `${lake}/${LATEST_DIR_NAME}/${table.name}`);
}

/** The schema of the latest-snapshot views (the analyst views latest_<fact> read them). */
export const LATEST_SCHEMA = 'lake_latest';
