import { listMigrations } from '../../duckdb/apply-migrations.js';
import { LATEST_FACTS, latestViewDescription, listViews } from '../../duckdb/create-views.js';
import {
  type Description,
  describeMigrations,
  describeView,
  sharedColumns,
} from '../../duckdb/sql-descriptions.js';

/**
 * What the catalog says about each of its tables and views (COMMENT ON, written by
 * commentCatalog): the migrations' tables and the analyst views as their SQL describes them
 * (sql-descriptions.ts), latest_<fact> as its table (columns) with a sentence of its own, and
 * schema_migrations. `shared`: the columns described once for every table and view.
 */
export interface CatalogDescriptions {
  readonly objects: ReadonlyMap<string, Description>;
  readonly shared: ReadonlyMap<string, string>;
}

/** schema_migrations: written by apply-migrations.ts, copied into the catalog by write-catalog.ts. */
const SCHEMA_MIGRATIONS: Description = {
  text: 'The migrations of sql/warehouse/migrations/ this warehouse was built with (its schema version).',
  columns: new Map([
    ['version', 'the migration number (NNN of NNN_name.sql)'],
    ['name', 'the migration name (name of NNN_name.sql)'],
    ['applied_at', 'when this warehouse first applied it (UTC)'],
  ]),
};

export function catalogDescriptions(): CatalogDescriptions {
  const sqls = listMigrations().map((m) => m.sql);
  const tables = describeMigrations(sqls);
  const objects = new Map<string, Description>(tables);
  for (const fact of LATEST_FACTS) {
    const table = tables.get(fact);
    objects.set(`latest_${fact}`, {
      text: latestViewDescription(fact),
      columns: table?.columns ?? new Map(),
    });
  }
  for (const view of listViews()) objects.set(view.name, describeView(view.name, view.sql));
  objects.set('schema_migrations', SCHEMA_MIGRATIONS);
  return { objects, shared: sharedColumns(sqls) };
}

/** A column's description: its table's or view's own, else the shared one ('' when neither). */
export function columnDescription(descriptions: CatalogDescriptions, object: string, column: string): string {
  return descriptions.objects.get(object)?.columns.get(column) || descriptions.shared.get(column) || '';
}
