import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** An open DuckDB file with one connection; close() releases the file. */
export interface OpenDatabase {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  close(): void;
}

/**
 * DuckDB settings of a staging writer. Appends past the limit spill to the file's temporary
 * folder, so a small buffer pool and one thread (fewer per-thread allocator arenas) keep a
 * 1M-post sync under 300 MB RSS; the appender path is single-threaded anyway.
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
