import type { DuckDBConnection } from '@duckdb/node-api';
import { FACT_TABLES } from '../../normalize/rows.js';

/** A column of a lake table, with its DuckDB type from sql/warehouse/migrations. */
export interface LakeColumn {
  readonly name: string;
  readonly type: string;
}

/**
 * How a table is laid out in the lake, derived from the table lists and its columns (so a table
 * added by a migration and FACT_TABLES becomes a lake table with no code):
 *   fact:   a FACT_TABLES table (src/normalize/rows.ts); one partition per snapshot_date,
 *           one file per segment (or `all`)
 *   stream: the sink's tables; one partition per received date, one file per publish
 *   whole:  everything else (entities, sync_runs, hooks); one link for the whole table
 */
export interface LakeTable {
  readonly name: string;
  readonly columns: readonly LakeColumn[];
  readonly kind: 'fact' | 'stream' | 'whole';
  /** The hive partition column (in the path): snapshot_date (a table column) or received_date. */
  readonly partitionColumn?: string;
  /** fact tables: whether rows carry a segment (else the date's file is `all`). */
  readonly segmented: boolean;
}

/** The sink's tables, partitioned by the UTC date of received_at. */
export const STREAM_TABLES: readonly string[] = ['stream_documents', 'stream_deliveries'];
export const STREAM_PARTITION_COLUMN = 'received_date';

/** The warehouse's tables as the migrations define them in `catalog` (a migrated database). */
export async function describeLakeTables(
  connection: DuckDBConnection,
  catalog = 'memory',
): Promise<Map<string, LakeTable>> {
  const reader = await connection.runAndReadAll(
    `select table_name, column_name, data_type from duckdb_columns()
      where database_name = $1 and schema_name = 'main' and table_name <> 'schema_migrations'
        and not internal and table_name in (select table_name from duckdb_tables() where database_name = $1)
      order by table_name, column_index`,
    [catalog],
  );
  const columns = new Map<string, LakeColumn[]>();
  for (const [table, name, type] of reader.getRows()) {
    const list = columns.get(String(table)) ?? [];
    list.push({ name: String(name), type: String(type) });
    columns.set(String(table), list);
  }
  const tables = new Map<string, LakeTable>();
  for (const [name, cols] of columns) {
    const has = (column: string) => cols.some((c) => c.name === column);
    const segmented = has('segment');
    if ((FACT_TABLES as readonly string[]).includes(name) && has('snapshot_date'))
      tables.set(name, { name, columns: cols, kind: 'fact', partitionColumn: 'snapshot_date', segmented });
    else if (STREAM_TABLES.includes(name))
      tables.set(name, {
        name,
        columns: cols,
        kind: 'stream',
        partitionColumn: STREAM_PARTITION_COLUMN,
        segmented: false,
      });
    else tables.set(name, { name, columns: cols, kind: 'whole', segmented: false });
  }
  return tables;
}

/** Whether a table has a wide JSON column (posts' `raw`, documents): written in smaller row groups. */
export function isWide(table: LakeTable): boolean {
  return table.columns.some((c) => c.type === 'JSON');
}

/** The columns a table's Parquet files hold: all but the partition column when it is in the path. */
export function fileColumns(table: LakeTable): LakeColumn[] {
  return table.columns.filter((c) => c.name !== table.partitionColumn);
}
