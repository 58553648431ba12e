import { DuckDBInstance } from '@duckdb/node-api';
/**
 * Memory cap of a writer's DuckDB instance. Loads are append-only and spill to the file,
 * so a small buffer pool costs little speed and keeps a 1M-post sync well under 300 MB RSS.
 */
export const WRITER_MEMORY_LIMIT = '192MB';
/** Opens a DuckDB file (created if missing unless read-only) with one connection. */
export async function openDatabase(path, options = {}) {
    const instance = await DuckDBInstance.create(path, options);
    let connection;
    try {
        connection = await instance.connect();
    }
    catch (error) {
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
