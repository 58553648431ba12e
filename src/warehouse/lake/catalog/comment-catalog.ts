import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdentifier as id, sqlString } from '../../duckdb/warehouse-paths.js';
import { type CatalogDescriptions, catalogDescriptions, columnDescription } from './catalog-descriptions.js';

/**
 * Writes the descriptions (catalogDescriptions) into the catalog being written, the database
 * `catalog` (the connection's current one): COMMENT ON each table and view of its main schema and
 * on each of their columns, so `duckdb_tables()`, `duckdb_views()`, `duckdb_columns()` and
 * `information_schema` (what BI tools' schema browsers read) show them. One transaction, one
 * call: one commit for every comment. A table, view or column nothing describes is left without (the
 * catalog-comments test fails on it).
 */
export async function commentCatalog(
  connection: DuckDBConnection,
  catalog: string,
  descriptions: CatalogDescriptions = catalogDescriptions(),
): Promise<void> {
  const reader = await connection.runAndReadAll(
    `select c.table_name, c.column_name, v.view_name is not null
       from duckdb_columns() as c
       left join duckdb_views() as v
         on v.database_name = c.database_name and v.schema_name = c.schema_name and v.view_name = c.table_name
      where c.database_name = $1 and c.schema_name = 'main' and not c.internal
      order by c.table_name, c.column_index`,
    [catalog],
  );
  const statements: string[] = [];
  let previous: string | undefined;
  for (const [tableValue, columnValue, isView] of reader.getRows()) {
    const table = String(tableValue);
    if (table !== previous) {
      previous = table;
      const text = descriptions.objects.get(table)?.text;
      if (text) statements.push(`comment on ${isView ? 'view' : 'table'} ${id(table)} is ${sqlString(text)}`);
    }
    const text = columnDescription(descriptions, table, String(columnValue));
    if (text)
      statements.push(`comment on column ${id(table)}.${id(String(columnValue))} is ${sqlString(text)}`);
  }
  await connection.run('begin transaction');
  try {
    // One call for them all: a call each cost three times as long (its round trip, not DuckDB's work).
    if (statements.length > 0) await connection.run(statements.join(';\n'));
    await connection.run('commit');
  } catch (error) {
    await connection.run('rollback');
    throw new Error(`warehouse catalog: writing its descriptions failed`, { cause: error });
  }
}
