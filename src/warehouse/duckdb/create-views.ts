import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { FACT_TABLES, type FactTable, TABLES, type TableSpec } from '../../contracts/table-registry.js';
import { packageRoot } from '../../util/package-root.js';
import { sqlIdentifier } from './warehouse-paths.js';

/** An analyst view: sql/warehouse/views/<name>.sql holds its select (dbt style). */
export interface ViewDefinition {
  readonly name: string;
  readonly sql: string;
}

/** The SQL files of a folder, by name (a view's or a check's name is its file's). */
export function readSqlFiles(dir: string): ViewDefinition[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: basename(file, '.sql'), sql: readFileSync(join(dir, file), 'utf8') }));
}

/** Analyst views that also get a `latest_<view>`: the same select over the latest snapshots. */
const LATEST_OF_VIEWS = ['network_breakdown'] as const;

/**
 * The analyst views of the catalog's SQL, in name order: the files of sql/warehouse/views, and
 * `latest_<view>` for the views of LATEST_OF_VIEWS (latestOfView), generated. The `latest_<fact>`
 * views (LATEST_FACTS) are the catalog's own, beside the tables' (src/warehouse/lake/catalog/).
 */
export function listViews(): ViewDefinition[] {
  const files = readSqlFiles(join(packageRoot(), 'sql', 'warehouse', 'views'));
  const latestOf = files.filter((view) => (LATEST_OF_VIEWS as readonly string[]).includes(view.name));
  return [...files, ...latestOf.map(latestOfView)].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/** The fact tables with a view latest_<table> (TableSpec.latestView): their latest snapshot per segment. */
export const LATEST_FACTS: readonly FactTable[] = FACT_TABLES.filter(
  (table) => TABLES[table].latestView === true,
);

/** The description of latest_<table> (its columns are the table's). */
export function latestViewDescription(table: FactTable): string {
  const scope = (TABLES[table] as TableSpec).segmented
    ? 'of each segment (a segment not synced lately keeps showing its last complete day)'
    : '(this table is fetched from the unfiltered view only, so it has no segment)';
  return `The rows of ${table} at the latest snapshot_date ${scope}; reads one day's files, not the whole history.`;
}

/**
 * latest_<view>: the view's select with each fact table it reads (`main.<fact>`) read from its
 * latest_<fact> view instead, which holds only the latest snapshot of each segment: one day's
 * files rather than the whole history, where `<view> where snapshot_date = (select max(...))`
 * lists and reads them all. Entities (`main.campaigns`) are read as they are. Its header
 * describes it as the view's does, with its own first paragraph.
 */
function latestOfView(view: ViewDefinition): ViewDefinition {
  const latest: ReadonlySet<string> = new Set(LATEST_FACTS);
  const facts: ReadonlySet<string> = new Set(FACT_TABLES);
  const select = view.sql.replace(/\bmain\.([a-z_]+)\b/g, (source, table: string) => {
    if (!facts.has(table)) return source;
    if (!latest.has(table)) throw new Error(`latest_${view.name}: ${table} has no latest_${table} view`);
    return `main.${sqlIdentifier(`latest_${table}`)}`;
  });
  // The view's header from its Columns block on (its summary replaced), then its select.
  const rest = select.slice(Math.max(0, select.search(/^--\s*Columns\b/m)));
  return {
    name: `latest_${view.name}`,
    sql: `-- latest_${view.name}: what ${view.name} shows, at the latest snapshot_date of each segment (its fact
-- tables read from their latest_<fact> views: one day's files), with the same columns and rules.
--
-- Generated from sql/warehouse/views/${view.name}.sql.
${rest}`,
  };
}

/**
 * Creates the analyst views (listViews) in name order. In an existing file, first drops
 * every view of the main schema (`dropExisting`), so a renamed or removed view does not linger.
 */
export async function createViews(
  connection: DuckDBConnection,
  views = listViews(),
  options: { dropExisting?: boolean } = {},
): Promise<void> {
  if (options.dropExisting !== false) await dropViews(connection);
  for (const view of views) {
    const body = view.sql.trim().replace(/;\s*$/, '');
    try {
      await connection.run(`create view ${sqlIdentifier(view.name)} as\n${body}`);
    } catch (error) {
      throw new Error(`warehouse view ${view.name}: ${(error as Error).message}`, { cause: error });
    }
  }
}

async function dropViews(connection: DuckDBConnection): Promise<void> {
  const reader = await connection.runAndReadAll(
    "select view_name from duckdb_views() where database_name = current_database() and schema_name = 'main' and not internal",
  );
  for (const [name] of reader.getRows())
    await connection.run(`drop view if exists ${sqlIdentifier(String(name))}`);
}
