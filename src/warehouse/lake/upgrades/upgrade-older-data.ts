import { existsSync, linkSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { publishedPath, sqlString } from '../../duckdb/warehouse-paths.js';
import type { CatalogStamp } from '../catalog/catalog-stamp.js';
import { FACT_LAYOUT } from '../core/lake-layout.js';
import { LakeTransaction } from '../lake-transaction.js';
import { convertWarehouse } from './convert-warehouse.js';
import { upgradeFactLayout } from './upgrade-fact-layout.js';

/** The previous release's warehouse.duckdb is kept beside the lake under this suffix after its conversion. */
export const BEFORE_LAKE_SUFFIX = '.before-lake';

/**
 * The one entry of the upgrades of older releases' data, called by ensureLake at start (under
 * the publish lock): a warehouse.duckdb of the release before the lake (tables, no lake) is
 * converted into the lake keeping all its rows (convert-warehouse.ts; the conversion commits,
 * and its file is kept as warehouse.duckdb.before-lake); a lake of an older fact layout is
 * rewritten in the current one (upgrade-fact-layout.ts: one read and write of the facts'
 * history). Returns the transaction to go on with and whether a conversion happened.
 * `afterTable`: a test's hook, called after each table's layout upgrade.
 */
export async function upgradeOlderData(
  tx: LakeTransaction,
  dataDir: string,
  stamp: CatalogStamp | undefined,
  published: boolean,
  afterTable?: (table: string) => void,
): Promise<{ tx: LakeTransaction; converted: boolean }> {
  let converted = false;
  if (!stamp && published && (await hasTables(tx.connection, publishedPath(dataDir)))) {
    await convertWarehouse(tx, publishedPath(dataDir));
    await tx.commit();
    tx = new LakeTransaction(tx.lake, tx.connection, tx.tables);
    converted = true;
    const backup = `${publishedPath(dataDir)}${BEFORE_LAKE_SUFFIX}`;
    if (!existsSync(backup)) linkSync(publishedPath(dataDir), backup);
  }
  if (stamp && (stamp.layout ?? 1) < FACT_LAYOUT)
    await upgradeFactLayout(tx, afterTable ? { afterTable } : {});
  return { tx, converted };
}

/** Whether a DuckDB file holds base tables (the previous release's format), not only views. */
async function hasTables(connection: DuckDBConnection, path: string): Promise<boolean> {
  await connection.run(`attach ${sqlString(path)} as probe (read_only)`);
  try {
    const reader = await connection.runAndReadAll(
      "select count(*) from duckdb_tables() where database_name = 'probe' and table_name <> 'schema_migrations'",
    );
    return Number(reader.getRows()[0]![0]) > 0;
  } finally {
    await connection.run('detach probe');
  }
}
