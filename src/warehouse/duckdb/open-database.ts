import { dirname } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type DuckDBLease, leaseDuckDB } from './duckdb-pool.js';
import { sqlString } from './warehouse-paths.js';

/** An open DuckDB file with one connection; close() releases the file. */
export interface OpenDatabase {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  close(): void;
}

/**
 * DuckDB settings of a staging writer. Appends past the limit spill to the file's temporary
 * folder, so a small buffer pool and one thread (fewer per-thread allocator arenas) keep a
 * large sync within the `memory` bench's bound; the appender path is single-threaded anyway.
 */
export const STAGING_SETTINGS: Readonly<Record<string, string>> = {
  memory_limit: '32MB',
  threads: '1',
  preserve_insertion_order: 'false',
};

/**
 * DuckDB settings of a publish: bounded, not starved. Every statement of a publish streams
 * or joins on narrow keys, and spills past the limit. Should a publish still run out of
 * memory (an unusual warehouse), publishWarehouse retries it once with PUBLISH_RETRY_MEMORY.
 */
export const PUBLISH_SETTINGS: Readonly<Record<string, string>> = {
  memory_limit: '48MB',
  threads: '1',
  preserve_insertion_order: 'false',
};

export const PUBLISH_RETRY_MEMORY = '1GB';

/** DuckDB's "Out of Memory Error": the statement needed more than the memory limit. */
export function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /out of memory/i.test(error.message);
}

/**
 * Rows per row group the pipeline writes (DuckDB's default is 122,880). A row group being
 * filled is held in memory until it is compressed and written, and with posts' `raw` JSON
 * that memory went beyond DuckDB's limit: a large publish peaked higher at the default size
 * than at this one (figures: bench/RESULTS.md, "Figures moved out of code comments").
 */
export const WRITER_ROW_GROUP_SIZE = 16_384;

/** The name under which a writer's file is attached (see openWriter). */
const WRITER_ALIAS = 'warehouse';

/** Opens a DuckDB file (created if missing unless read-only) with one connection. */
export async function openDatabase(
  path: string,
  options: Record<string, string> = {},
): Promise<OpenDatabase> {
  const instance = await DuckDBInstance.create(path, options);
  let connection: DuckDBConnection;
  try {
    connection = await instance.connect();
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  return {
    instance,
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Opens a DuckDB file the pipeline writes (staging, a publish's copy): attached with
 * `rowGroupSize` rows per row group to an in-memory instance of the pool (duckdb-pool.ts) and
 * made the default database (`use`), so unqualified and `main.` names resolve in it. The
 * instance spills into the file's folder. close() detaches the file (the instance stays for
 * the next session).
 */
export async function openWriter(
  path: string,
  settings: Readonly<Record<string, string>>,
  rowGroupSize = WRITER_ROW_GROUP_SIZE,
): Promise<DuckDBLease> {
  return leaseDuckDB(dirname(path), settings, [
    `attach ${sqlString(path)} as ${WRITER_ALIAS} (row_group_size ${Math.trunc(rowGroupSize)})`,
    `use ${WRITER_ALIAS}`,
  ]);
}
