import type { ReadQuery } from '../warehouse/index.js';

/**
 * A table or view of the published catalog, as BI tools' schema browsers see it: its
 * description (COMMENT ON, from the SQL that declares it: src/warehouse/duckdb/sql-descriptions.ts).
 * `table`: one of the warehouse's tables (a view over the lake with the
 * table's name, or schema_migrations); `view`: an analyst view.
 */
export interface CatalogObject {
  readonly name: string;
  readonly kind: 'table' | 'view';
  readonly description: string;
}

export interface CatalogColumn {
  readonly name: string;
  readonly type: string;
  readonly description: string;
}

/** Every table and view of the catalog's schema main: tables first, each group by name. */
export async function listCatalogObjects(
  query: ReadQuery,
  isTable: (name: string) => boolean,
): Promise<CatalogObject[]> {
  const { rows } = await query(
    `select table_name, 'table', comment from duckdb_tables()
      where database_name = current_database() and schema_name = 'main' and not internal
     union all
     select view_name, 'view', comment from duckdb_views()
      where database_name = current_database() and schema_name = 'main' and not internal`,
  );
  const objects = rows.map(([name, kind, comment]) => ({
    name: String(name),
    kind: kind === 'table' || isTable(String(name)) ? ('table' as const) : ('view' as const),
    description: comment === null ? '' : String(comment),
  }));
  return objects.sort((a, b) =>
    a.kind !== b.kind ? (a.kind === 'table' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/** The columns of one table or view of schema main, in order, with their types and descriptions. */
export async function catalogColumns(query: ReadQuery, name: string): Promise<CatalogColumn[]> {
  const { rows } = await query(
    `select column_name, data_type, comment from duckdb_columns()
      where database_name = current_database() and schema_name = 'main' and table_name = $1
      order by column_index`,
    [name],
  );
  return rows.map(([column, type, comment]) => ({
    name: String(column),
    type: String(type),
    description: comment === null ? '' : String(comment),
  }));
}

/** Names of `objects` that `name` may have meant: those containing it, or it them (at most three). */
export function similarNames(objects: readonly CatalogObject[], name: string): string[] {
  const wanted = name.toLowerCase();
  return objects
    .map((o) => o.name)
    .filter((candidate) => candidate.includes(wanted) || (wanted.length > 3 && wanted.includes(candidate)))
    .slice(0, 3);
}
