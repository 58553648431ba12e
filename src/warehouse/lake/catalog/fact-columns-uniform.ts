import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../../duckdb/warehouse-paths.js';
import type { LakeTable } from '../core/lake-tables.js';
import { factVersion } from '../facts/fact-files.js';

/**
 * Whether every data file of a fact table's live version has the columns of its schema anchor
 * (names and Parquet types), so that its view can read it without union_by_name (which would
 * open every file's footer whenever a query is planned; catalog/view-sql.ts). False after a
 * migration added a column the older files lack: their years are never rewritten (unless the
 * table backfills that column: backfill-facts.ts), so from then on the table is read with
 * union_by_name, unpruned. Asked when the catalog is written:
 * a publish writes every column of the anchor, so the answer stays true until the next
 * change of schema, which rewrites the catalog.
 */
export async function factColumnsUniform(
  connection: DuckDBConnection,
  lake: string,
  table: LakeTable,
): Promise<boolean> {
  const version = factVersion(lake, table.name);
  if (!version?.anchor) return false;
  const paths = [version.anchor, ...version.files.map((f) => f.path)];
  const reader = await connection.runAndReadAll(
    `select count(distinct columns) from (
       select file_name, string_agg(concat_ws(' ', name, type, converted_type, logical_type::varchar), ', ' order by name) as columns
         from parquet_schema([${paths.map(sqlString).join(', ')}])
        where num_children is null
        group by file_name)`,
  );
  return Number(reader.getRows()[0]![0]) === 1;
}
