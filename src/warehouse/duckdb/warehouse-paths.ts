import { join } from 'node:path';

/** The catalog (views over the lake): only ever replaced by an atomic rename, never opened for writing. */
export const PUBLISHED_FILE_NAME = 'warehouse.duckdb';

/** Folder of the writers' private staging files. */
export const STAGING_DIR_NAME = '.staging';

/** SQLite file whose exclusive transaction is the cross-process publish lock. */
export const PUBLISH_LOCK_FILE_NAME = '.publish.lock';

/** Prefix of the catalog's temporary file (in the published file's folder, so rename is atomic). */
export const PUBLISH_TEMP_PREFIX = '.warehouse.publishing-';

export function publishedPath(dataDir: string): string {
  return join(dataDir, PUBLISHED_FILE_NAME);
}

export function stagingPath(dataDir: string, name: string): string {
  return join(dataDir, STAGING_DIR_NAME, `${name}.duckdb`);
}

export function publishLockPath(dataDir: string): string {
  return join(dataDir, PUBLISH_LOCK_FILE_NAME);
}

/**
 * Quotes a string literal where DuckDB takes no bound parameter: ATTACH and COPY ... TO paths,
 * the file lists of read_parquet in SQL composed of several parts (a date filter inside a COPY's
 * select, the catalog's view definitions, COMMENT ON), and SET values. Its values are the
 * tool's own (paths it built, dates and segment names validated at the edge, descriptions
 * from sql/): a statement that runs alone with a user's value binds it instead.
 */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Quotes an identifier coming from our own catalog (table and column names). */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
