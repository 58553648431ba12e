import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createViews, LATEST_FACTS } from '../../duckdb/create-views.js';
import {
  sqlIdentifier as id,
  PUBLISH_TEMP_PREFIX,
  publishedPath,
  sqlString,
} from '../../duckdb/warehouse-paths.js';
import { fsyncPath } from '../core/fsync-path.js';
import type { LakeTable } from '../core/lake-tables.js';
import { commentCatalog } from './comment-catalog.js';
import { factColumnsUniform } from './fact-columns-uniform.js';
import { latestViewSql, tableViewSql } from './view-sql.js';

const CATALOG_ALIAS = 'warehouse';

/**
 * Writes the catalog, warehouse.duckdb: a view per lake table (same name, columns and types
 * as the tables of the migrations), `latest_<fact>` views over the latest-snapshot trees
 * (LATEST_FACTS), the analyst views of sql/warehouse/views, and `schema_migrations`, every one
 * and every column with its description (commentCatalog); all in schema main, so that BI
 * tools' schema browsers list only what is there to query. Into a temporary file renamed over
 * the published one (readers holding the old file keep it), so nothing of a previous catalog
 * lingers (the `lake_latest` schema of earlier releases). Only when the catalog changes: a
 * publish does not touch it. `connection`: a lake session (its `memory` database holds the
 * migrations' tables and schema_migrations).
 */
export async function writeCatalog(
  dataDir: string,
  connection: DuckDBConnection,
  lake: string,
  tables: ReadonlyMap<string, LakeTable>,
): Promise<void> {
  const target = publishedPath(dataDir);
  const temp = join(dataDir, `${PUBLISH_TEMP_PREFIX}catalog-${process.pid}-${Date.now()}.duckdb`);
  const previous = existsSync(target) ? await appliedBefore(connection, target) : new Map<number, string>();
  try {
    await connection.run(`attach ${sqlString(temp)} as ${CATALOG_ALIAS}`);
    await connection.run(`use ${CATALOG_ALIAS}`);
    try {
      for (const table of tables.values()) {
        const pruned = table.prunedByDate && (await factColumnsUniform(connection, lake, table));
        await connection.run(`create view ${id(table.name)} as\n${tableViewSql(lake, table, pruned)}`);
      }
      for (const fact of LATEST_FACTS) {
        const table = tables.get(fact);
        if (table)
          await connection.run(`create view ${id(`latest_${fact}`)} as\n${latestViewSql(lake, table)}`);
      }
      await createViews(connection, undefined, { dropExisting: false });
      await connection.run(
        'create table schema_migrations as select * from memory.main.schema_migrations order by version',
      );
      for (const [version, appliedAt] of previous)
        await connection.run('update schema_migrations set applied_at = $2::timestamp where version = $1', [
          version,
          appliedAt,
        ]);
      await commentCatalog(connection, CATALOG_ALIAS);
    } finally {
      await connection.run('use memory');
      await connection.run(`detach ${CATALOG_ALIAS}`);
    }
    fsyncPath(temp);
    renameSync(temp, target);
    fsyncPath(dataDir);
  } finally {
    for (const path of [temp, `${temp}.wal`]) rmSync(path, { force: true });
  }
}

/**
 * Removes the temporary catalog files (PUBLISH_TEMP_PREFIX, and their WAL) a writer killed
 * before its rename left in `dataDir`. Call under the publish lock: every catalog write holds
 * it, so no such file belongs to a live writer. Returns how many files were removed.
 */
export function removeCatalogLeftovers(dataDir: string): number {
  if (!existsSync(dataDir)) return 0;
  const leftovers = readdirSync(dataDir).filter((name) => name.startsWith(PUBLISH_TEMP_PREFIX));
  for (const name of leftovers) rmSync(join(dataDir, name), { force: true });
  return leftovers.length;
}

/** When the migrations recorded in the published file were applied (kept across rewrites). */
async function appliedBefore(connection: DuckDBConnection, path: string): Promise<Map<number, string>> {
  await connection.run(`attach ${sqlString(path)} as previous_catalog (read_only)`);
  try {
    const reader = await connection.runAndReadAll(
      "select version, strftime(applied_at, '%Y-%m-%d %H:%M:%S.%f') from previous_catalog.main.schema_migrations",
    );
    return new Map(reader.getRows().map((row) => [Number(row[0]), String(row[1])]));
  } catch {
    return new Map();
  } finally {
    await connection.run('detach previous_catalog');
  }
}
