import type { DuckDBConnection } from '@duckdb/node-api';
import {
  type BackfilledColumn,
  type TableKind,
  type TableSpec,
  tableSpec,
} from '../../../contracts/table-registry.js';

/** A column of a lake table, with its DuckDB type from sql/warehouse/migrations. */
export interface LakeColumn {
  readonly name: string;
  readonly type: string;
}

/**
 * A table as the lake lays it out: its declaration (src/contracts/table-registry.ts) and its
 * columns as the migrations define them (so a table added by a migration and a registry entry
 * becomes a lake table with no code):
 *   fact:   one folder, a file per day (open ten days), closed ten days, month or year and
 *           segment (or `all`), every file holding snapshot_date, in the `last_date=` folder
 *           of its period (core/lake-layout.ts)
 *   stream: one partition per received date, one file per publish (merged per closed day)
 *   entity: one link for the whole table, one file per month first seen
 *   whole:  one link for the whole table (sync_runs, hooks)
 */
export interface LakeTable {
  readonly name: string;
  readonly columns: readonly LakeColumn[];
  readonly kind: TableKind;
  readonly keys: readonly string[];
  /** The hive partition column (in the path, not in the files): stream tables' received_date. */
  readonly partitionColumn?: string;
  /** fact tables: whether rows carry a segment (else the date's file is `all`). */
  readonly segmented: boolean;
  /** Has a wide JSON column (posts' `raw`, documents): written in smaller row groups. */
  readonly wide: boolean;
  /** Staged rows are unique on the key by construction (no deduplication at publish). */
  readonly stagedUnique: boolean;
  /** fact tables: the view reads only the folders a filter on snapshot_date needs (TableSpec.prunedByDate). */
  readonly prunedByDate: boolean;
  /** fact tables: few files at any date (TableSpec.compactFiles, core/lake-layout.ts closedPeriodOf). */
  readonly compactFiles: boolean;
  /** fact tables: columns computed for rows published before their migration (TableSpec.backfilled). */
  readonly backfilled: readonly BackfilledColumn[];
}

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
    const spec = tableSpec(name);
    if (!spec) throw new Error(`warehouse: table ${name} of the migrations is not in the table registry`);
    tables.set(name, lakeTable(name, spec, cols));
  }
  return tables;
}

function lakeTable(name: string, spec: TableSpec, columns: readonly LakeColumn[]): LakeTable {
  return {
    name,
    columns,
    kind: spec.kind,
    keys: spec.keys,
    // Fact tables' files hold their snapshot_date (their `last_date=` folders are no column of theirs).
    ...(spec.partitionColumn && spec.kind === 'stream' ? { partitionColumn: spec.partitionColumn } : {}),
    segmented: spec.segmented === true,
    wide: (spec.jsonColumns ?? []).length > 0,
    stagedUnique: spec.stagedUnique === true,
    prunedByDate: spec.prunedByDate === true,
    compactFiles: spec.compactFiles === true,
    backfilled: spec.backfilled ?? [],
  };
}

/** The columns a table's Parquet files hold: all but the partition column when it is in the path. */
export function fileColumns(table: LakeTable): LakeColumn[] {
  return table.columns.filter((c) => c.name !== table.partitionColumn);
}

/**
 * A select of the new rows of a table a writer reads (a staging file's), one row per key;
 * `where`: a condition on the table's columns (a date, a segment).
 */
export type StagedRows = (where?: string) => string;
