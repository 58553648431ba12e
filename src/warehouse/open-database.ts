import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** An open DuckDB file with one connection; close() releases the file. */
export interface OpenDatabase {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  close(): void;
}

/**
 * DuckDB settings of a staging writer. Appends spill to the file at each checkpoint, so a
 * small buffer pool and one thread (fewer per-thread allocator arenas) keep a 1M-post sync
 * under 300 MB RSS; the appender path is single-threaded anyway, only the checkpoint's
 * compression loses parallelism.
 */
export const STAGING_SETTINGS: Readonly<Record<string, string>> = {
  memory_limit: '64MB',
  threads: '1',
  preserve_insertion_order: 'false',
};

/**
 * DuckDB settings of a publish. Merging deduplicates with window functions over a whole
 * snapshot, which spill to disk past the limit: bounded, but not starved.
 */
export const PUBLISH_SETTINGS: Readonly<Record<string, string>> = {
  memory_limit: '64MB',
  threads: '1',
  preserve_insertion_order: 'false',
};

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
