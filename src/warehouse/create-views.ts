import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { packageRoot } from '../util/package-root.js';
import { sqlIdentifier } from './warehouse-paths.js';

/** An analyst view: sql/warehouse/views/<name>.sql holds its select (dbt style). */
export interface ViewDefinition {
  readonly name: string;
  readonly sql: string;
}

export function listViews(dir = join(packageRoot(), 'sql', 'warehouse', 'views')): ViewDefinition[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: basename(file, '.sql'), sql: readFileSync(join(dir, file), 'utf8') }));
}

/**
 * Creates the views of sql/warehouse/views in name order. In an existing file, first drops
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
