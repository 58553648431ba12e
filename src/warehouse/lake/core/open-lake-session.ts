import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { applyMigrations } from '../../apply-migrations.js';
import { STAGING_DIR_NAME } from '../../warehouse-paths.js';
import { LakeTransaction } from '../lake-transaction.js';
import { lakePath } from './lake-layout.js';
import { describeLakeTables, type LakeTable } from './lake-tables.js';

/** Prefix of a lake session's spill folder in .staging/ (removed after; leftovers at the next). */
const SPILL_PREFIX = 'lake-spill-';

/**
 * The lake tables as the shipped migrations define them: the same for every session of a
 * process, so described once (duckdb_columns() costs ~15 ms a publish).
 */
let shippedTables: Promise<Map<string, LakeTable>> | undefined;

/**
 * A DuckDB work session for one lake publish: an in-memory database holding the warehouse's
 * tables as the migrations define them (empty: scratch space with the right types), DuckDB
 * spilling to <dataDir>/.staging/ past `settings.memory_limit`, and a LakeTransaction.
 */
export async function openLakeSession(
  dataDir: string,
  settings: Readonly<Record<string, string>>,
): Promise<{ tx: LakeTransaction; close(): void }> {
  const staging = join(dataDir, STAGING_DIR_NAME);
  mkdirSync(staging, { recursive: true });
  for (const name of readdirSync(staging))
    if (name.startsWith(SPILL_PREFIX)) rmSync(join(staging, name), { recursive: true, force: true });
  const spill = join(staging, `${SPILL_PREFIX}${process.pid}-${Date.now()}`);
  const instance = await DuckDBInstance.create(':memory:', { temp_directory: spill, ...settings });
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
    rmSync(spill, { recursive: true, force: true });
  };
  try {
    await applyMigrations(connection);
    shippedTables ??= describeLakeTables(connection).catch((error) => {
      shippedTables = undefined;
      throw error;
    });
    const tables = await shippedTables;
    return { tx: new LakeTransaction(lakePath(dataDir), connection, tables), close };
  } catch (error) {
    close();
    throw error;
  }
}
