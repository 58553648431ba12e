import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applyMigrations } from '../../duckdb/apply-migrations.js';
import { leaseDuckDB } from '../../duckdb/duckdb-pool.js';
import { STAGING_DIR_NAME } from '../../duckdb/warehouse-paths.js';
import { LakeTransaction } from '../lake-transaction.js';
import { lakePath } from './lake-layout.js';
import { describeLakeTables, type LakeTable } from './lake-tables.js';

/**
 * The lake tables as the shipped migrations define them: the same for every session of a
 * process, so described once (duckdb_columns() is a noticeable part of a small publish).
 */
let shippedTables: Promise<Map<string, LakeTable>> | undefined;

/**
 * A DuckDB work session for one lake publish: an in-memory database holding the warehouse's
 * tables as the migrations define them (empty: scratch space with the right types), DuckDB
 * spilling into <dataDir>/.staging/ past `settings.memory_limit`, and a LakeTransaction. The
 * instance is the pool's (duckdb-pool.ts): close() hands it back for the next session.
 */
export async function openLakeSession(
  dataDir: string,
  settings: Readonly<Record<string, string>>,
): Promise<{ tx: LakeTransaction; close(): Promise<void> }> {
  const staging = join(dataDir, STAGING_DIR_NAME);
  mkdirSync(staging, { recursive: true });
  const lease = await leaseDuckDB(staging, settings);
  const { connection } = lease;
  try {
    await applyMigrations(connection);
    shippedTables ??= describeLakeTables(connection).catch((error) => {
      shippedTables = undefined;
      throw error;
    });
    const tables = await shippedTables;
    return { tx: new LakeTransaction(lakePath(dataDir), connection, tables), close: lease.close };
  } catch (error) {
    await lease.close();
    throw error;
  }
}
